// money contract › Invoices: the status table (draft → open → paid; draft/open → void; PATCH on
// drafts only) and the amount (sum of line items, USD, at most 2 decimals, exact cents).
import { decideInvoice, INVOICE_STATUSES, InvoiceAction, InvoiceStatus, priceLineItems } from './documents';

describe('transitions', () => {
  const table: Array<[InvoiceAction, InvoiceStatus, string | null]> = [
    ['update', 'draft', null],
    ['update', 'open', 'Only a draft invoice can be changed; this invoice is open.'],
    ['update', 'paid', 'Only a draft invoice can be changed; this invoice is paid.'],
    ['update', 'void', 'Only a draft invoice can be changed; this invoice is void.'],
    ['finalize', 'draft', null],
    ['finalize', 'open', 'Only a draft invoice can be finalized; this invoice is open.'],
    ['finalize', 'paid', 'Only a draft invoice can be finalized; this invoice is paid.'],
    ['finalize', 'void', 'Only a draft invoice can be finalized; this invoice is void.'],
    ['void', 'draft', null],
    ['void', 'open', null],
    ['void', 'paid', 'A paid invoice cannot be voided.'],
    ['void', 'void', 'This invoice is already void.'],
    ['pay', 'draft', 'This invoice is a draft: finalize it before it can be paid.'],
    ['pay', 'open', null],
    ['pay', 'paid', 'This invoice is paid: it cannot be paid.'],
    ['pay', 'void', 'This invoice is void: it cannot be paid.'],
  ];
  test.each(table)('%s on a %s invoice', (action, status, message) => {
    expect(decideInvoice(action, status)).toEqual(message === null ? { kind: 'allow' } : { kind: 'conflict', message });
  });

  test('the table covers every status', () => {
    expect(new Set(table.map(([, s]) => s))).toEqual(new Set(INVOICE_STATUSES));
  });
});

describe('amount = sum of line items', () => {
  test('quantities times unit amounts, in exact cents (0.1 + 0.2 is 0.30)', () => {
    expect(
      priceLineItems([
        { description: 'a', quantity: 1, unitAmount: '0.1' },
        { description: 'b', quantity: 1, unitAmount: '0.2' },
        { description: 'Design work', quantity: 3, unitAmount: '33.33' },
      ]),
    ).toEqual({
      ok: true,
      amount: '100.29',
      lineItems: [
        { description: 'a', quantity: 1, unitAmount: '0.10', amount: '0.10' },
        { description: 'b', quantity: 1, unitAmount: '0.20', amount: '0.20' },
        { description: 'Design work', quantity: 3, unitAmount: '33.33', amount: '99.99' },
      ],
    });
  });

  test('a free line is fine; the total must be at least 0.01', () => {
    expect(priceLineItems([{ description: 'gift', quantity: 1, unitAmount: '0' }])).toEqual({
      ok: false,
      messages: ['The invoice amount (the sum of its line items) must be at least 0.01.'],
    });
  });

  test.each(['1.234', '-1', '1e3', ' 1', '1,5', ''])('unitAmount %p is refused', (unitAmount) => {
    expect(priceLineItems([{ description: 'x', quantity: 1, unitAmount }])).toEqual({
      ok: false,
      messages: ['lineItems.0.unitAmount must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.'],
    });
  });

  test.each([0, -1, 1.5, 1_000_001])('quantity %p is refused', (quantity) => {
    expect(priceLineItems([{ description: 'x', quantity, unitAmount: '1' }])).toEqual({
      ok: false,
      messages: ['lineItems.0.quantity must be an integer from 1 to 1000000.'],
    });
  });

  test('1 to 100 line items', () => {
    expect(priceLineItems([])).toMatchObject({ ok: false, messages: ['lineItems must contain 1 to 100 items.'] });
    const many = Array.from({ length: 101 }, () => ({ description: 'x', quantity: 1, unitAmount: '1' }));
    expect(priceLineItems(many)).toMatchObject({ ok: false, messages: ['lineItems must contain 1 to 100 items.'] });
    expect(priceLineItems(many.slice(1))).toMatchObject({ ok: true, amount: '100.00' });
  });

  test('a total beyond 20 integer digits is refused', () => {
    expect(
      priceLineItems([{ description: 'x', quantity: 1_000_000, unitAmount: '99999999999999999999' }]),
    ).toMatchObject({ ok: false, messages: [expect.stringContaining('at most 20 integer digits')] });
  });
});
