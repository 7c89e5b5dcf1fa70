// spec: Versioning 2–3. The dated change record, newest first; a breaking change always has a
// migration guide.
export interface ChangelogEntry {
  date: string;
  title: string;
  breaking: boolean;
  changes: string[];
  migrationGuide: string | null;
  /** anchor of the entry; the controller makes it a URL on this service's own changelog */
  anchor: string;
}

export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    date: '2026-09-21',
    title: 'Receipts and credit notes',
    breaking: false,
    changes: [
      'receipt.issued, receipt.supplemented and receipt.credit_note.issued events.',
      'GET /v1/payments/:id/receipts, GET /v1/receipts, GET /v1/receipts/:id and the public GET /v1/public/receipts/:id.',
      'A credit note is issued on every refund, partial ones included.',
    ],
    migrationGuide: null,
    anchor: '2026-09-21-receipts',
  },
  {
    date: '2026-09-21',
    title: 'Webhook filter flow.* refused',
    breaking: true,
    changes: [
      'The webhook filter flow.* is refused with 400; subscribe to the flow family as payment.flow.*.',
      'Breaking on write only: the old filter never matched an event. checkout.* and facilitator.* are unchanged.',
    ],
    migrationGuide:
      'Replace flow.* with payment.flow.* in the eventTypes of your webhook endpoints before saving them again.',
    anchor: '2026-09-21-flow-filter',
  },
  {
    date: '2026-09-20',
    title: 'payment.amount_increased and the reconciliation walk',
    breaking: false,
    changes: [
      'payment.amount_increased event when more money lands and the payment status stays.',
      'updatedAfter, limit and cursor on GET /v1/payments and GET /v1/sweeps, with a 60-second safety lag.',
      'settlement.completed carries the payout sequence and the lifetime total.',
      'requiresManualPayout narrowed to a chain with no sweep support, a held sweep, or native SUI.',
    ],
    migrationGuide: null,
    anchor: '2026-09-20-walk',
  },
  {
    date: '2026-09-19',
    title: 'Custom-amount products',
    breaking: false,
    changes: [
      'pricingMode custom_amount with minAmount and maxAmount.',
      'amount on checkout sessions and on the public product checkout; the session payload gains amount and currency.',
      'checkoutSession on every payment.* event and on GET /v1/payments/:id.',
      'Idempotent session create compares the source and the amount.',
      'Rails of custom_amount products are validated at write time.',
    ],
    migrationGuide: null,
    anchor: '2026-09-19-custom-amount',
  },
  {
    date: '2026-09-19',
    title: 'arc mainnet listener',
    breaking: false,
    changes: ['The arc mainnet listener is enabled.', 'Chain RPC reads rotate off rate-limit errors.'],
    migrationGuide: null,
    anchor: '2026-09-19-arc',
  },
  {
    date: '2026-09-18',
    title: 'Several settlement addresses',
    breaking: false,
    changes: [
      'Several settlement addresses per (chain, network), exactly one default each, routed per product.',
      'Permission settlement.route (owner and admin hold it).',
      'A cool-down per settlement address.',
    ],
    migrationGuide: null,
    anchor: '2026-09-18-settlement',
  },
  {
    date: '2026-09-17',
    title: 'Direct pay and subscriptions removed',
    breaking: true,
    changes: [
      'All /v1/direct-pay/* endpoints (11 merchant, 2 public) return 404.',
      'The subscription.* events are removed.',
      'Six fields leave the session payload: kind, subscriptionId, planId, payerAddress, subscriptionExpiresAt, periodSeconds.',
      'kind of subscription on product create returns 400.',
    ],
    migrationGuide:
      'Sell recurring access as one-off products: create a checkout session per billing period from your own scheduler. ' +
      'Read source instead of kind on sessions. Remove subscription.* from your webhook filters (they are dropped on save). ' +
      'Legacy subscription products answer 410 on their public page and 409 on checkout.',
    anchor: '2026-09-17-direct-pay-removed',
  },
];
