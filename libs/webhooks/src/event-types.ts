// spec: Events (the table of event types) and Endpoints › Webhooks (accepted and refused filters).

/** Every event type of the spec's Events table, the money contract's `invoice.paid` and its settlement address events. */
export const EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.expired',
  'checkout.session.cancelled',
  'checkout.session.failed',
  'payment.confirmed',
  'payment.underpaid',
  'payment.overpaid',
  'payment.amount_increased',
  'payment.expired',
  'payment.refunded',
  'payment.flow.step',
  'payment.flow.approved',
  'payment.flow.rejected',
  'settlement.completed',
  // money contract › Payouts: every move of a sweep into held
  'settlement.held',
  // money contract › Settlement addresses
  'settlement.address_added',
  'settlement.address_activated',
  'receipt.issued',
  'receipt.supplemented',
  'receipt.credit_note.issued',
  // money contract › Invoices
  'invoice.paid',
  // money contract › event types (issue 21 › 6): goes to every other endpoint of the workspace whatever its filters
  'webhook_endpoint.updated',
  // money contract › Refunds: a refund enters awaiting_funds
  'refund.awaiting_funds',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The spec's wildcards, plus `*` (every event) and `settlement.*` (payouts and settlement
 * addresses: an owner can hear of every address introduced), our additions.
 */
export const WILDCARD_FILTERS = [
  '*',
  'payment.*',
  'checkout.*',
  'facilitator.*',
  'payment.flow.*',
  'settlement.*',
  // money contract › Payouts: the new families by wildcard (refunds, receipts and credit notes)
  'refund.*',
  'receipt.*',
] as const;

const REFUSED: Record<string, string> = {
  'checkout.session.*':
    'eventTypes: checkout.session.* is not an accepted filter; subscribe to checkout.* (every checkout.session event) or name the exact types.',
  'flow.*': 'eventTypes: flow.* is not an accepted filter; the flow events are subscribed as payment.flow.*.',
};

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);
const isWildcard = (value: string) => (WILDCARD_FILTERS as readonly string[]).includes(value);

export type FilterParse = { ok: true; filters: string[] } | { ok: false; message: string };

/**
 * Normalizes the filters of an endpoint as it is saved: refused filters are a 400 with a message
 * saying what to use instead, `subscription.*` (a removed family) is dropped silently, duplicates
 * are dropped, and anything that is neither an event type nor an accepted wildcard is a 400.
 */
export function parseEventFilters(input: readonly string[]): FilterParse {
  const filters: string[] = [];
  for (const raw of input) {
    const refused = REFUSED[raw];
    if (refused) return { ok: false, message: refused };
    // spec: "A stored filter naming subscription.* is silently dropped when an endpoint is saved."
    if (raw === 'subscription.*' || raw.startsWith('subscription.')) continue;
    if (!isEventType(raw) && !isWildcard(raw)) {
      return {
        ok: false,
        message: `eventTypes: "${raw}" is not an event type or an accepted filter (exact types such as payment.confirmed, or ${WILDCARD_FILTERS.join(', ')}).`,
      };
    }
    if (!filters.includes(raw)) filters.push(raw);
  }
  return { ok: true, filters };
}

/** `payment.*` matches every type under `payment.` (payment.flow.* included); `*` matches all. */
export function filterMatches(filter: string, type: string): boolean {
  if (filter === '*' || filter === type) return true;
  return filter.endsWith('.*') && type.startsWith(filter.slice(0, -1));
}

export function matchesAny(filters: readonly string[], type: string): boolean {
  return filters.some((f) => filterMatches(f, type));
}
