// docs/events.md is the catalogue of every event type the code knows (EVENT_TYPES), each with an
// example payload taken from a real delivery. This suite drives the real API, listener, payout
// process and webhook worker on Anvil through every flow that emits an event, captures what a
// local receiver is sent, and checks that each documented example has exactly the shape (keys
// and value types, recursively) of the real delivery of its type. A type in the code without a
// catalogue entry, or an entry the code does not know, fails.
//
// DOCS_EVENTS_OUT=<file> also writes one captured envelope per type to that file (how the
// examples of docs/events.md were made).
import { INestApplicationContext } from '@nestjs/common';
import { Wallet } from 'ethers';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecoveryService } from '@svc/payments';
import { EVENT_TYPES, verifyWebhookSignature } from '@svc/webhooks';
import { fixedProduct, Merchant } from './factories/merchant.factory';
import type { Row } from './support/listener-harness';
import { PayoutsHarness, startPayoutsHarness, waitFor } from './support/payouts-harness';
import { clearQueueKeys, startTestWorker } from './support/test-worker';
import { Received, WebhookReceiver } from './support/webhook-receiver';

/** Types no code path of this service emits: the catalogue says so, and no delivery of them may arrive. */
const NEVER_SENT = ['payment.flow.step', 'payment.flow.approved', 'payment.flow.rejected'];

const E18 = 10n ** 18n;
let h: PayoutsHarness;
let m: Merchant;
let rx: WebhookReceiver;
let worker: INestApplicationContext;
let secret: string;
let refundId: string;

beforeAll(async () => {
  [h, rx] = await Promise.all([
    startPayoutsHarness({ env: { SVC_WEBHOOK_RETRY_SCHEDULE: '1,1,1', SVC_WEBHOOK_TIMEOUT_MS: '2000' } }),
    WebhookReceiver.start(),
  ]);
  m = h.m;
  worker = await startTestWorker(h.t);
  const endpoint = await m.post('/v1/webhooks', { url: rx.url('/hook'), eventTypes: ['*'] });
  expect(endpoint.status).toBe(201);
  secret = endpoint.body.secret;
}, 120_000);
afterAll(async () => {
  await worker?.close();
  if (h) await clearQueueKeys(h.t);
  await rx?.close();
  await h?.close();
});

const refund = (paymentId: string) => m.post(`/v1/payments/${paymentId}/refund`, { reason: 'customer asked' });

async function settleRefund(id: string): Promise<Row> {
  let last: Row = {};
  for (let i = 0; i < 20; i++) {
    await h.runPayouts();
    last = (await m.get(`/v1/refunds/${id}`)).body as Row;
    if (last.status === 'completed') return last;
    await h.mineAll(1);
  }
  throw new Error(`refund ${id} did not complete; last seen ${JSON.stringify(last)}`);
}

/** A session of a fixed product of `price` USDC on bnb, redeemed (an address shown). */
async function redeemedSession(price: string, reference: string): Promise<{ session: Row; payment: Row }> {
  const product = await m.product(fixedProduct({ price }));
  const session = await m.session({ productId: product.id, reference, metadata: { orderId: reference } });
  const redeem = await h.t.http().post(`/v1/public/checkout/sessions/${session.id}/redeem`).send({ chain: 'bnb' });
  expect(redeem.status).toBeLessThan(300);
  const paymentId = (await m.get(`/v1/checkout/sessions/${session.id}`)).body.paymentId as string;
  return { session, payment: await h.getPayment(paymentId) };
}

async function paidSession(price: string, reference: string): Promise<{ session: Row; payment: Row }> {
  const { session, payment } = await redeemedSession(price, reference);
  await h.pay(payment, price);
  return { session, payment: await h.until(payment.id, (p) => p.status === 'confirmed') };
}

/** Every flow that emits an event, once each. */
async function driveEveryFlow(): Promise<void> {
  // settlement.address_added, settlement.address_activated
  await h.activeAddress(m, 'bnb', 'mainnet', Wallet.createRandom().address);
  await h.fundGasTank('bnb', 'mainnet', 10n * E18);

  // payment.confirmed, receipt.issued, checkout.session.completed; then settlement.completed
  const sold = await paidSession('20', 'order-1001');
  await h.settle(m, sold.payment.id, (s) => s[0]?.payoutState === 'completed');

  // refund.awaiting_funds: a refund after the payout comes from the refund wallet, which holds nothing
  // here; then cancelled, which releases it
  const waiting = await m.post(`/v1/payments/${sold.payment.id}/refund`, { amount: '1', reason: 'customer asked' });
  expect(waiting.status).toBe(201);
  await waitFor('the refund to await funds', async () => {
    await h.runPayouts();
    return (await m.get(`/v1/refunds/${waiting.body.id}`)).body.status === 'awaiting_funds';
  });
  expect((await m.post(`/v1/refunds/${waiting.body.id}/cancel`)).status).toBeLessThan(300);

  // receipt.credit_note.issued, payment.refunded, checkout.session.failed (a full refund before payout)
  const refunded = await paidSession('5', 'order-1002');
  const r = await refund(refunded.payment.id);
  expect(r.status).toBe(201);
  await settleRefund(r.body.id);
  refundId = r.body.id;

  // payment.underpaid, payment.amount_increased, payment.overpaid; receipt.supplemented (a recovery credit)
  const direct = await m.payment({
    chain: 'bnb',
    token: 'USDC',
    amount: '10',
    currency: 'USDC',
    idempotencyKey: 'order-1003',
  });
  await h.pay(direct, '4');
  await h.until(direct.id, (p) => p.status === 'underpaid');
  await h.pay(direct, '3');
  await h.until(direct.id, (p) => p.receivedAmount === '7');
  await h.pay(direct, '5');
  await h.until(direct.id, (p) => p.status === 'overpaid');
  const late = await h.pay(direct, '1');
  await h.listeners[0].get(RecoveryService).recover(direct.id, late.hash);

  // invoice.paid (and its session's events)
  const invoice = await m.post('/v1/invoices', {
    customerName: 'Ada Lovelace',
    lineItems: [{ description: 'Design work', quantity: 3, unitAmount: '12' }],
    networks: [{ chain: 'bnb', token: 'USDC' }],
  });
  expect(invoice.status).toBe(201);
  expect((await m.post(`/v1/invoices/${invoice.body.id}/finalize`)).status).toBe(200);
  const pay = await h.t.http().post(`/v1/public/invoices/${invoice.body.publicId}/checkout`).send({});
  expect(pay.status).toBeLessThan(300);
  await h.t.http().post(`/v1/public/checkout/sessions/${pay.body.sessionId}/redeem`).send({ chain: 'bnb' });
  const invoicePaymentId = (await m.get(`/v1/checkout/sessions/${pay.body.sessionId}`)).body.paymentId as string;
  await h.pay(await h.getPayment(invoicePaymentId), '36');
  await h.until(invoicePaymentId, (p) => p.status === 'confirmed');
  await waitFor(
    'the invoice to be paid',
    async () => (await m.get(`/v1/invoices/${invoice.body.id}`)).body.status === 'paid',
  );

  // webhook_endpoint.updated: another endpoint's URL changes; every other endpoint hears of it
  const other = await m.post('/v1/webhooks', { url: rx.url('/other'), eventTypes: ['invoice.paid'] });
  expect(other.status).toBe(201);
  expect((await m.patch(`/v1/webhooks/${other.body.id}`, { url: rx.url('/moved') })).status).toBe(200);

  // checkout.session.cancelled
  const cancelled = await m.session({ productId: (await m.product(fixedProduct())).id, reference: 'order-1004' });
  expect((await m.post(`/v1/checkout/sessions/${cancelled.id}/expire`)).status).toBe(200);

  // payment.expired, checkout.session.expired: a redeemed session whose payment runs out unpaid
  await redeemedSession('9', 'order-1005');
  await h.advanceClock(3600);
  await h.watchersPassed();
  await h.runJobs();

  // settlement.held: the rail's only settlement address is retired, so the next payout waits for one
  const addresses = (await m.get('/v1/settlement-addresses?chain=bnb')).body as Row[];
  for (const a of addresses.filter((x) => x.status === 'active')) {
    expect((await m.delete(`/v1/settlement-addresses/${a.id}`)).status).toBe(200);
  }
  const unrouted = await paidSession('3', 'order-1006');
  await h.settle(m, unrouted.payment.id, (s) => s[0]?.payoutState === 'held');
}

type Shape = string | Shape[] | { [key: string]: Shape };
/** Keys and value types, recursively; an array by the shape of its items (all alike). */
function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const items = value.map(shapeOf);
    const distinct = [...new Set(items.map((s) => JSON.stringify(s)))];
    return distinct.map((s) => JSON.parse(s) as Shape);
  }
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  }
  return typeof value;
}

/** `### <type>` headings of docs/events.md, each with the first ```json block after it. */
function catalogue(): Map<string, { example: unknown; text: string }> {
  const text = readFileSync(join(__dirname, '..', 'docs', 'events.md'), 'utf8');
  const entries = new Map<string, { example: unknown; text: string }>();
  const parts = text.split(/^### /m).slice(1);
  for (const part of parts) {
    const type = /^`([a-z_.]+)`/.exec(part)?.[1];
    if (!type) continue;
    const json = /```json\n([\s\S]*?)\n```/.exec(part)?.[1];
    entries.set(type, { example: json === undefined ? undefined : JSON.parse(json), text: part });
  }
  return entries;
}

describe('docs/events.md: every event type, with the shape of a real delivery', () => {
  /** every delivery of each type (a type may come in several shapes: a session of a product or of an invoice) */
  const delivered = new Map<string, Received[]>();

  beforeAll(async () => {
    await driveEveryFlow();
    const wanted = EVENT_TYPES.filter((t) => !NEVER_SENT.includes(t));
    const missing = () => wanted.filter((type) => !rx.on('/hook').some((r) => r.body?.type === type));
    await rx
      .waitFor(() => missing().length === 0, 1, 60_000)
      .catch(() => {
        throw new Error(`no delivery of ${missing().join(', ')} arrived`);
      });
    for (const r of rx.on('/hook')) delivered.set(r.body.type, [...(delivered.get(r.body.type) ?? []), r]);
    if (process.env.DOCS_EVENTS_OUT) {
      const out = Object.fromEntries(
        EVENT_TYPES.filter((t) => delivered.has(t)).map((t) => [t, delivered.get(t)![0].body]),
      );
      writeFileSync(process.env.DOCS_EVENTS_OUT, JSON.stringify(out, null, 2));
    }
  }, 600_000);

  test('the catalogue has exactly the event types of the code', () => {
    expect([...catalogue().keys()].sort()).toEqual([...EVENT_TYPES].sort());
  });

  test('every delivery was signed with the endpoint secret', () => {
    expect(rx.on('/hook').length).toBeGreaterThan(EVENT_TYPES.length - NEVER_SENT.length);
    for (const r of rx.on('/hook'))
      expect(verifyWebhookSignature(r.raw, r.headers['x-svc-signature'], secret)).toBe(true);
  });

  test.each(EVENT_TYPES.filter((t) => !NEVER_SENT.includes(t)))(
    '%s: the documented example has the shape of a real delivery',
    (type) => {
      const real = delivered.get(type) ?? [];
      expect(real.length).toBeGreaterThan(0);
      const entry = catalogue().get(type);
      expect(entry?.example).toBeDefined();
      expect((entry!.example as { type: string }).type).toBe(type);
      const documented = shapeOf(entry!.example);
      const shapes = real.map((r) => shapeOf(r.body));
      const match = shapes.find((s) => JSON.stringify(s) === JSON.stringify(documented));
      // on a mismatch, show the difference with the first real delivery
      expect(match ?? documented).toEqual(match ?? shapes[0]);
    },
  );

  test('the object examples of refunds.md and api-guide.md have the shape of the real objects', async () => {
    const firstJson = (page: string, after: string) => {
      const text = readFileSync(join(__dirname, '..', 'docs', page), 'utf8');
      const block = /```json\n([\s\S]*?)\n```/.exec(text.slice(text.indexOf(after)))?.[1];
      return JSON.parse(block!) as unknown;
    };
    const refundRead = await m.get(`/v1/refunds/${refundId}`);
    expect(shapeOf(firstJson('refunds.md', '## The refund object'))).toEqual(shapeOf(refundRead.body));
    const receipt = delivered.get('receipt.issued')![0].body.data.receipt;
    expect(shapeOf(firstJson('api-guide.md', '### Receipts, supplements and credit notes'))).toEqual(shapeOf(receipt));
  });

  test.each(NEVER_SENT)('%s: documented as never sent, and never delivered', (type) => {
    expect(catalogue().get(type)?.text).toContain('never sent');
    expect(delivered.has(type)).toBe(false);
  });
});
