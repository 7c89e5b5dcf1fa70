// money contract › Receipts, supplements, credit notes: which document a credit issues, row by row.
import { decideDocument, DocumentableTransfer, documentEventType, transferKey } from './documents';
import { PaymentStatus } from './types';

const t = (n: number, amountAtomic: bigint): DocumentableTransfer => ({ txHash: `0x${n}`, logIndex: n, amountAtomic });
const keys = (...ts: DocumentableTransfer[]) => new Set(ts.map(transferKey));
const decide = (
  status: PaymentStatus,
  receiptIssued: boolean,
  finalTransfers: DocumentableTransfer[],
  documented = keys(),
) => decideDocument({ status, receiptIssued, finalTransfers, documented });

describe('receipt: issued when a payment first becomes confirmed or overpaid; amount = received so far', () => {
  test('an exact payment: one receipt for its transfer', () => {
    expect(decide('confirmed', false, [t(1, 10n)])).toEqual({
      kind: 'receipt',
      transfers: [t(1, 10n)],
      amountAtomic: 10n,
    });
  });

  test('overpaid straight away: one receipt for everything received', () => {
    expect(decide('overpaid', false, [t(1, 12n)])).toEqual({
      kind: 'receipt',
      transfers: [t(1, 12n)],
      amountAtomic: 12n,
    });
  });

  test('underpaid: no document until paid in full', () => {
    expect(decide('underpaid', false, [t(1, 4n)])).toBeNull();
  });

  test('underpaid, then topped up: the receipt covers both transfers (received so far)', () => {
    expect(decide('confirmed', false, [t(1, 4n), t(2, 6n)])).toEqual({
      kind: 'receipt',
      transfers: [t(1, 4n), t(2, 6n)],
      amountAtomic: 10n,
    });
  });

  test('late: an expired payment confirmed by a transfer inside the window gets its receipt', () => {
    // the engine has already moved it from expired to confirmed
    expect(decide('confirmed', false, [t(1, 10n)])?.kind).toBe('receipt');
  });

  test.each<PaymentStatus>(['waiting_for_payment', 'detected', 'confirming', 'expired', 'refunded'])(
    '%s: nothing',
    (status) => {
      expect(decide(status, false, [t(1, 10n)])).toBeNull();
    },
  );
});

describe('supplement: each later credit to a payment with a receipt; amount = the new money', () => {
  test('confirmed, then more money (overpaid): a supplement for the new transfer only', () => {
    expect(decide('overpaid', true, [t(1, 10n), t(2, 3n)], keys(t(1, 10n)))).toEqual({
      kind: 'supplement',
      transfers: [t(2, 3n)],
      amountAtomic: 3n,
    });
  });

  test('overpaid, then more again (amount_increased): another supplement', () => {
    expect(decide('overpaid', true, [t(1, 10n), t(2, 3n), t(3, 1n)], keys(t(1, 10n), t(2, 3n)))).toEqual({
      kind: 'supplement',
      transfers: [t(3, 1n)],
      amountAtomic: 1n,
    });
  });

  test('a recovery credit of two transfers of one transaction, credited one by one: one supplement each time', () => {
    const first = decide('overpaid', true, [t(1, 10n), t(2, 1n)], keys(t(1, 10n)));
    expect(first).toMatchObject({ kind: 'supplement', amountAtomic: 1n });
  });

  test('nothing new (a duplicate, or a transfer not final yet): nothing', () => {
    expect(decide('confirmed', true, [t(1, 10n)], keys(t(1, 10n)))).toBeNull();
  });
});

test('events: receipt.issued, receipt.supplemented, receipt.credit_note.issued', () => {
  expect(documentEventType('receipt')).toBe('receipt.issued');
  expect(documentEventType('supplement')).toBe('receipt.supplemented');
  expect(documentEventType('credit_note')).toBe('receipt.credit_note.issued');
});
