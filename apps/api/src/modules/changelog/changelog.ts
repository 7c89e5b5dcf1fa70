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

/**
 * This service's own history (the dates its features shipped), newest first. It lists what
 * exists, and only that: e2e/changelog.e2e-spec.ts fails when an entry names a route the API
 * does not serve.
 */
export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    date: '2026-11-26',
    title: 'Sui refund wallets and Sui recovery',
    breaking: false,
    changes: [
      "GET /v1/refund-wallets lists the workspace refund wallet's Sui address (its own Sui key, the same index as its EVM address) with its balances on every Sui chain of the registry.",
      'npm run svc -- recover --tx <digest> credits a Sui transaction: its balance changes to the payment address in the payment coin type, idempotent, the same exit codes as on EVM.',
    ],
    migrationGuide: null,
    anchor: '2026-11-26-sui-refund-wallets',
  },
  {
    date: '2026-11-25',
    title: 'Signed events stay yours: secrets at rest, timestamped signatures, webhook changes need secrets',
    breaking: true,
    changes: [
      'Webhook deliveries add svc-signature: t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<raw body>">; x-svc-signature is unchanged. After POST /v1/webhooks/:id/rotate-secret both the new and the old secret sign svc-signature for 24 hours (v1=<new>,v1=<old>). @svc/client adds verifyTimestampedWebhook (5-minute tolerance).',
      'PATCH /v1/webhooks/:id changing url or eventTypes, DELETE /v1/webhooks/:id and POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver need the secrets permission (owner, admin); each such change, and a rotation, sends webhook_endpoint.updated to every other endpoint of the workspace whatever its filters.',
      'Webhook and checkout secrets are stored encrypted (AES-256-GCM, SVC_DATA_KEY); revoked keys answer 401 at once even when the revocation listener reconnects.',
      'npm start runs in production unless SVC_ENV says otherwise and refuses a missing seed, a well-known test mnemonic, SVC_DEV_CLOCK, a zero settlement cool-down or a missing SVC_DATA_KEY.',
    ],
    migrationGuide:
      'Give the integrations that change webhook URLs or filters, delete endpoints or redeliver an owner or admin key (a developer key now gets 403). Operators: set SVC_DATA_KEY (32 bytes, hex or base64) for svc migrate, the API and the worker before upgrading; the migration encrypts the stored secrets with it. Receivers may switch to svc-signature to refuse replays.',
    anchor: '2026-11-25-signed-events',
  },
  {
    date: '2026-11-24',
    title: 'The developer toolbox: OpenAPI, a typed client, logs and metrics',
    breaking: false,
    changes: [
      'GET /v1/openapi.json: an OpenAPI 3.1 document of every route, made from the code; GET /docs: a reference page over it that works offline.',
      'A typed client (@svc/client) with verifyWebhook and verifySignedReturn.',
      'Every response carries X-Request-Id (yours when you send one); a 500 names it. Logs are JSON lines with the request id, workspace, route, status and duration.',
      'Prometheus metrics at /metrics on the API and on each background process, with /healthz, on LISTENER_PORT, WORKER_PORT and PAYOUTS_PORT.',
    ],
    migrationGuide: null,
    anchor: '2026-11-24-toolbox',
  },
  {
    date: '2026-11-24',
    title: 'Refunds and credit notes',
    breaking: false,
    changes: [
      'POST /v1/payments/:id/refund (the refunds.write permission; an Idempotency-Key header returns the same refund): confirmed and overpaid payments, up to receivedAmount minus feeAmount minus the refunds completed or in flight; to the sender of the first transfer, or toAddress (a sender holding contract code needs toAddress).',
      'The payout process sends each refund from the payment deposit address while its money is there, else from the workspace refund wallet (GET /v1/refund-wallets lists it with its balances); a refund it cannot pay yet is awaiting_funds with a reason and resumes by itself. A payment waits for its payout while a refund is in flight.',
      'A completed refund issues a credit note (CN-000001, receipt.credit_note.issued); refunds reaching the maximum make the payment refunded (payment.refunded) and its session failed (checkout.session.failed).',
      'GET /v1/refunds (the newest 100) and GET /v1/refunds/:id.',
    ],
    migrationGuide: null,
    anchor: '2026-11-24-refunds',
  },
  {
    date: '2026-11-23',
    title: 'Payouts to settlement addresses',
    breaking: false,
    changes: [
      'Settlement addresses per chain and network with a cool-down (SVC_SETTLEMENT_COOLDOWN_SECONDS), exactly one default each: POST /v1/settlement-addresses, GET /v1/settlement-addresses, GET /v1/settlement-addresses/:id, POST /v1/settlement-addresses/:id/default, DELETE /v1/settlement-addresses/:id; settlement.address_added and settlement.address_activated.',
      'Per-product routes: GET /v1/products/:id/settlement-routes and PUT /v1/products/:id/settlement-routes.',
      'The payout process (npm run start:payouts) forwards paid payments to the routed or default address; sweeps are pending, submitted, completed, held (with a reason), manual_required or failed; settlement.completed carries the sequence and the lifetime total, and a recovery credit on a paid-out payment gets sequence 2.',
      'GET /v1/sweeps (the reconciliation walk, or one payment with paymentId) and GET /v1/sweeps/:id; the settlement.write and settlement.route permissions.',
    ],
    migrationGuide: null,
    anchor: '2026-11-23-payouts',
  },
  {
    date: '2026-11-23',
    title: 'Hostile input refused, anonymous routes limited',
    breaking: true,
    changes: [
      'null in an optional field means the same as leaving it out, or is a 400 naming the field (idempotencyKey); a string holding a NUL character or a lone surrogate is a 400 naming the field; a repeated, bracketed or unknown query parameter is a 400 naming it.',
      'The anonymous routes are limited per client and per session, slug or payment (SVC_RATE_LIMIT_*): 429 with Retry-After.',
      'GET /healthz shows status, database, redis and per-chain lag only; the details moved to GET /v1/operator/health (owner and admin keys).',
      'GET /v1/events takes tail=true (no 60-second withholding) for a follower that deduplicates by id, as npm run svc -- listen does.',
    ],
    migrationGuide:
      'Send no idempotencyKey instead of null; send each query parameter once and only the ones a route documents. Read chain heads and errors from GET /v1/operator/health. A client that gets 429 waits Retry-After seconds.',
    anchor: '2026-11-23-hostile-input',
  },
  {
    date: '2026-11-23',
    title: 'Receipts and invoices',
    breaking: false,
    changes: [
      'Receipt documents, written in the same transaction as the credit that causes them: a receipt (R-000001) when a payment is first confirmed or overpaid, late ones included, and a supplement (S-000001) for each later credit. Numbers are per workspace and kind, without gaps.',
      'receipt.issued and receipt.supplemented events carry the document with its public url.',
      'GET /v1/payments/:id/receipts, GET /v1/receipts (the reconciliation walk, plus kind), GET /v1/receipts/:id and the public GET /v1/public/receipts/:id; a printable receipt page at {PAY_URL}/r/<id>.',
      'Invoices: POST /v1/invoices (draft), PATCH on drafts, POST /v1/invoices/:id/finalize (INV-000001), POST /v1/invoices/:id/void, GET /v1/invoices and GET /v1/invoices/:id; the public GET /v1/public/invoices/:publicId; invoice.paid when its payment confirms.',
      'invoiceId is a checkout-session source, and the hosted pages show and pay invoice sessions: {PAY_URL}/i/<publicId>, then /c/<session>, where the buyer picks a rail once.',
      'Credit notes (CN-000001, receipt.credit_note.issued) come with refunds (see the refunds entry).',
    ],
    migrationGuide: null,
    anchor: '2026-11-23-receipts-invoices',
  },
  {
    date: '2026-11-23',
    title: 'API key roles enforced',
    breaking: true,
    changes: [
      'Keys have a role (owner, admin, developer); a key without the permission a route needs gets 403 "This API key (role developer) lacks the permission secrets."',
      'Reading or rotating the checkout secret, creating a webhook endpoint and rotating its secret need the secrets permission (owner and admin keys).',
    ],
    migrationGuide:
      'Call GET /v1/checkout/secret, POST /v1/checkout/secret/rotate, POST /v1/webhooks and POST /v1/webhooks/:id/rotate-secret with an owner or admin key (npm run svc -- apikey:create --merchant <id> --role admin). Developer keys keep every other route.',
    anchor: '2026-11-23-key-roles',
  },
  {
    date: '2026-11-22',
    title: 'Hosted pages',
    breaking: false,
    changes: [
      'The buyer pays a checkout session on {PAY_URL}/c/<session_id> and a payment link on {PAY_URL}/pay/<slug>: chain picker, address and QR code, live status, change of chain, cancel and the signed return.',
    ],
    migrationGuide: null,
    anchor: '2026-11-22-hosted-pages',
  },
  {
    date: '2026-11-22',
    title: 'Signed webhooks and the events API',
    breaking: false,
    changes: [
      'Webhook endpoints receive checkout.* and payment.* events signed with x-svc-signature, at least once, from an outbox written with the change; retries, a delivery log and redelivery.',
      'GET /v1/events and GET /v1/events/:id replay the events.',
      'The filters checkout.session.* and flow.* are refused with 400 (subscribe to checkout.* and payment.flow.*); subscription.* filters are dropped when an endpoint is saved.',
    ],
    migrationGuide: null,
    anchor: '2026-11-22-webhooks',
  },
  {
    date: '2026-11-22',
    title: 'Payments confirm from on-chain transfers',
    breaking: false,
    changes: [
      "The listener credits transfers on bnb, arc (mainnet and testnet), brokerchain and sui once they have the chain's required confirmations; RPC URLs rotate off errors and rate limits.",
      'payment.confirmed, payment.underpaid, payment.overpaid, payment.amount_increased and payment.expired; transfers within 7 days after expiry are credited late.',
      'Support recovery of a transaction the listener did not credit: npm run svc -- recover.',
    ],
    migrationGuide: null,
    anchor: '2026-11-22-listener',
  },
  {
    date: '2026-11-22',
    title: 'First release: products, checkout sessions and payments',
    breaking: false,
    changes: [
      'Products (fixed price and custom_amount with minAmount and maxAmount), payment links, checkout settings, checkout sessions with signed returns, and direct payments at fresh single-use addresses.',
      'The reconciliation walk on GET /v1/payments: updatedAfter, limit and cursor, with a 60-second lag.',
      'Compatibility with the API this service follows: /v1/direct-pay/* answer 404, kind subscription is refused with 400, and legacy subscription products answer 410 on their page and 409 on checkout.',
    ],
    migrationGuide: null,
    anchor: '2026-11-22-first-release',
  },
];
