import { EVENT_TYPES, filterMatches, matchesAny, parseEventFilters } from './event-types';

describe('parseEventFilters (spec: Endpoints › Webhooks)', () => {
  test('accepts every event type of the spec table and the wildcards', () => {
    const all = [...EVENT_TYPES, 'payment.*', 'checkout.*', 'facilitator.*', 'payment.flow.*', 'settlement.*', '*'];
    expect(parseEventFilters(all)).toEqual({ ok: true, filters: all });
  });

  test('accepts the document events: receipt.issued, receipt.supplemented, receipt.credit_note.issued, invoice.paid', () => {
    const docs = ['receipt.issued', 'receipt.supplemented', 'receipt.credit_note.issued', 'invoice.paid'];
    expect(parseEventFilters(docs)).toEqual({ ok: true, filters: docs });
    for (const type of docs) expect(matchesAny(['*'], type)).toBe(true);
    expect(matchesAny(['payment.*', 'checkout.*'], 'receipt.issued')).toBe(false);
  });

  test('refuses checkout.session.* and flow.* with a message naming what to use', () => {
    expect(parseEventFilters(['checkout.session.*'])).toEqual({
      ok: false,
      message: expect.stringContaining('checkout.*'),
    });
    expect(parseEventFilters(['payment.*', 'flow.*'])).toEqual({
      ok: false,
      message: expect.stringContaining('payment.flow.*'),
    });
  });

  test('drops subscription.* (and any subscription.<x>) silently', () => {
    expect(parseEventFilters(['subscription.*', 'payment.confirmed', 'subscription.created'])).toEqual({
      ok: true,
      filters: ['payment.confirmed'],
    });
    expect(parseEventFilters(['subscription.*'])).toEqual({ ok: true, filters: [] });
  });

  test('drops duplicates, keeps order', () => {
    expect(parseEventFilters(['payment.*', 'checkout.*', 'payment.*'])).toEqual({
      ok: true,
      filters: ['payment.*', 'checkout.*'],
    });
  });

  test.each([
    'payment',
    'payment.',
    'payment.paid',
    'receipt',
    'settlement',
    '**',
    'Payment.confirmed',
    ' payment.confirmed',
    'checkout.session',
  ])('refuses the unknown filter %p', (filter) => {
    expect(parseEventFilters([filter])).toEqual({ ok: false, message: expect.stringContaining(`"${filter}"`) });
  });
});

describe('filterMatches', () => {
  test.each([
    ['*', 'receipt.credit_note.issued', true],
    ['receipt.*', 'receipt.credit_note.issued', true],
    ['receipt.*', 'receipt.issued', true],
    ['receipt.*', 'refund.awaiting_funds', false],
    ['refund.*', 'refund.awaiting_funds', true],
    ['payment.*', 'payment.confirmed', true],
    ['payment.*', 'payment.flow.step', true],
    ['payment.*', 'checkout.session.completed', false],
    ['payment.flow.*', 'payment.flow.rejected', true],
    ['payment.flow.*', 'payment.confirmed', false],
    ['checkout.*', 'checkout.session.expired', true],
    ['facilitator.*', 'payment.confirmed', false],
    ['settlement.*', 'settlement.completed', true],
    ['settlement.*', 'settlement.address_added', true],
    ['settlement.*', 'payment.confirmed', false],
    ['payment.expired', 'payment.expired', true],
    ['payment.expired', 'payment.expired2', false],
    ['payment.confirmed', 'payment.amount_increased', false],
  ])('%s matches %s: %s', (filter, type, expected) => {
    expect(filterMatches(filter, type)).toBe(expected);
  });

  test('matchesAny: any filter; none when the list is empty', () => {
    expect(matchesAny(['checkout.*', 'payment.expired'], 'payment.expired')).toBe(true);
    expect(matchesAny([], 'payment.expired')).toBe(false);
  });
});
