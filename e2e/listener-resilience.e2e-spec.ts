// The listener under failure, with real payments: two copies at once, an RPC outage, and a copy
// that dies in the middle of a batch. Nothing is lost and nothing is credited twice.
import { INestApplicationContext } from '@nestjs/common';
import type { ObservedTransfer, TransferSink } from '@svc/chains';
import { WatchersService } from '../apps/listener/src/watchers/watchers.service';
import { freePort } from './support/anvil';
import { Harness, Row, startHarness, waitFor } from './support/listener-harness';
import { startRpcProxy } from './support/rpc-proxy';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  while (h.listeners.length) await h.stopListener(h.listeners[0]);
});
afterAll(async () => {
  await h?.close();
});

const usdcPayment = (amount: string) => h.m.payment({ chain: 'bnb', token: 'USDC', amount, currency: 'USDC' });

async function creditedOnce(payments: Row[]): Promise<void> {
  const rows: Array<{ payment_id: string; n: string }> = await h.t.db.query(
    `SELECT payment_id, count(*)::text AS n FROM blockchain_transactions WHERE payment_id = ANY($1) GROUP BY payment_id`,
    [payments.map((p) => p.id)],
  );
  expect(rows.map((r) => r.n)).toEqual(payments.map(() => '1'));
  const events: Array<{ n: string }> = await h.t.db.query(
    `SELECT count(*)::text AS n FROM events WHERE type = 'payment.confirmed' AND (data->'payment'->>'id') = ANY($1)`,
    [payments.map((p) => p.id)],
  );
  expect(events[0].n).toBe(String(payments.length));
}

const bnbStatus = (l: INestApplicationContext) =>
  l
    .get(WatchersService)
    .status()
    .find((s) => s.chain === 'bnb' && s.network === 'mainnet')!;

test('two listener copies at once: every payment confirmed, every transfer credited once', async () => {
  const a = await h.listener();
  const b = await h.listener();
  expect([bnbStatus(a).state, bnbStatus(b).state].sort()).toEqual(['active', 'standby']);
  const payments = await Promise.all(['1', '2', '3', '4', '5', '6'].map((amount) => usdcPayment(amount)));
  for (const p of payments) await h.pay(p, p.amount, { mine: false });
  await h.finalise('bnb');
  for (const p of payments) await h.until(p.id, (x) => x.status === 'confirmed');
  await creditedOnce(payments);
});

test('RPC down for a while, then back: the listener catches up from its cursor and misses nothing', async () => {
  const bnb = h.devnet.get('bnb');
  const proxy = await startRpcProxy(bnb.node.url);
  try {
    const l = await h.listener({
      chainsFile: h.chainsFileWith((entries) => (entries.find((e) => e.chain === 'bnb')!.rpcUrls = [proxy.url])),
    });
    proxy.mode = 'down';
    const payments = await Promise.all(['7', '8', '9'].map((amount) => usdcPayment(amount)));
    for (const p of payments) await h.pay(p, p.amount);
    await waitFor('the outage in health', () => bnbStatus(l).lastError);
    await new Promise((r) => setTimeout(r, 300));
    for (const p of payments) expect((await h.getPayment(p.id)).status).toBe('waiting_for_payment');
    proxy.mode = 'up';
    for (const p of payments) await h.until(p.id, (x) => x.status === 'confirmed');
    await creditedOnce(payments);
    await waitFor('health clears', () => bnbStatus(l).lastError === null);
  } finally {
    await proxy.close();
  }
});

test('a dead RPC URL first in the list: rotated past, payments confirm', async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  await h.listener({
    chainsFile: h.chainsFileWith((entries) => entries.forEach((e) => (e.rpcUrls = [dead, ...e.rpcUrls]))),
  });
  const p = await usdcPayment('4.2');
  await h.pay(p, '4.2');
  await h.until(p.id, (x) => x.status === 'confirmed');
});

test('a listener killed mid-batch and restarted: no transfer lost, none credited twice', async () => {
  // The cursor exists before the money moves; the batch then holds every transfer at once.
  const first = await h.listener();
  await h.stopListener(first);
  const payments = await Promise.all(['11', '12', '13', '14', '15', '16'].map((amount) => usdcPayment(amount)));
  for (const p of payments) await h.pay(p, p.amount, { mine: false });
  await h.finalise('bnb');

  let batch: ObservedTransfer[] = [];
  let died: () => void = () => undefined;
  const dead = new Promise<void>((resolve) => (died = resolve));
  const crashing = await h.listener({
    wrapSink: (real: TransferSink): TransferSink => ({
      async credit(transfers) {
        if (transfers.some((t) => t.chain === 'bnb')) {
          batch = transfers;
          await real.credit(transfers.slice(0, 3)); // half the batch commits …
          died();
          throw new Error('killed mid-batch'); // … and the process dies before the cursor moves
        }
        return real.credit(transfers);
      },
    }),
  });
  await dead;
  await h.stopListener(crashing);
  expect(batch.length).toBeGreaterThanOrEqual(6);
  const statuses = await Promise.all(payments.map(async (p) => (await h.getPayment(p.id)).status));
  expect(statuses.filter((s) => s === 'confirmed')).toHaveLength(3);

  await h.listener(); // restarted: repeats the whole batch from the cursor
  for (const p of payments) await h.until(p.id, (x) => x.status === 'confirmed');
  await creditedOnce(payments);
});
