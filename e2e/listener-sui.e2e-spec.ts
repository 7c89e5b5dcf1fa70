// Sui payments confirming from on-chain transfers: the real API creates payments (startTestApp
// with an SVC_CHAINS_FILE whose sui mainnet rpcUrls point at the Sui devnet (libs/devnet)), the listener
// runs in-process as in production (createListenerApp: the Sui watcher through the real
// @mysten/sui client, the credit service, the watch set) on the same database, and the devnet
// certifies checkpoints carrying the transfers.
import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { createListenerApp } from '../apps/listener/src/listener.factory';
import type { SuiWatcherOptions } from '../libs/chains/src/sui/sui-watcher';
import { WatchersService } from '../apps/listener/src/watchers/watchers.service';
import { merchant } from './factories/merchant.factory';
import { MAINNET_USDC, MAINNET_USDT, SUI_COIN, SuiDevnet, randomSuiAddress } from '@svc/devnet';
import { startTestApp, TestApp } from './support/test-app';

const FAST_SUI: Partial<SuiWatcherOptions> = {
  pollIntervalMs: 25,
  claimRetryMs: 100,
  backoffBaseMs: 25,
  backoffMaxMs: 250,
  requestTimeoutMs: 2_000,
};

type Row = Record<string, any>;

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let standIn: SuiDevnet;
let t: TestApp;
let m: Awaited<ReturnType<typeof merchant>>;
let listener: INestApplicationContext | null = null;

async function startListener(): Promise<INestApplicationContext> {
  const l = await createListenerApp(
    { ...t.config, logLevel: process.env.E2E_LOG ? 'info' : 'silent' },
    { healthLogIntervalMs: 0, jobs: false, sui: FAST_SUI },
  );
  await l.init();
  listener = l;
  await waitFor('the Sui watcher to open its cursor', () => suiStatus(l)?.nextBlock);
  return l;
}

async function stopListener(): Promise<void> {
  await listener?.close();
  listener = null;
}

const suiStatus = (l: INestApplicationContext) =>
  l
    .get(WatchersService)
    .status()
    .find((s) => s.chain === 'sui' && s.network === 'mainnet');

async function createPayment(body: Record<string, unknown>): Promise<Row> {
  const res = await m.post('/v1/payments', { chain: 'sui', currency: 'USDC', ...body });
  expect(res.status).toBe(201);
  expect(res.body.paymentAddress).toMatch(/^0x[0-9a-f]{64}$/);
  return res.body;
}

async function getPayment(id: string): Promise<Row> {
  const res = await m.get(`/v1/payments/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function until(id: string, predicate: (p: Row) => boolean, what: string): Promise<Row> {
  let last = null as Row | null;
  try {
    return await waitFor(what, async () => {
      last = await getPayment(id);
      return predicate(last) && last;
    });
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; last seen: ${JSON.stringify(last && { status: last.status, receivedAmount: last.receivedAmount })}`,
    );
  }
}

/** Lets the watcher read everything certified so far. */
const caughtUp = () =>
  waitFor(
    'the watcher to reach the latest checkpoint',
    () => listener && suiStatus(listener)?.nextBlock === String(standIn.chain.latest.sequenceNumber + 1),
  );

beforeAll(async () => {
  standIn = await SuiDevnet.start();
  const dir = mkdtempSync(join(tmpdir(), 'svc-sui-'));
  const chainsFile = join(dir, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify({ chains: [{ chain: 'sui', network: 'mainnet', rpcUrls: [standIn.url] }] }));
  t = await startTestApp({ SVC_CHAINS_FILE: chainsFile });
  m = await merchant(t);
  await startListener();
});

afterAll(async () => {
  await stopListener();
  await t?.close();
  await standIn?.down();
});

describe('Sui payments confirm from checkpoints', () => {
  it('a USDC payment (6 decimals) confirms when a checkpoint carries +5000000 to its address', async () => {
    const p = await createPayment({ token: 'USDC', amount: '5' });
    expect(p.status).toBe('waiting_for_payment');
    const buyer = randomSuiAddress();
    const { digest, checkpoint } = standIn.payTo(p.paymentAddress, MAINNET_USDC, 5_000_000n, { from: buyer });
    const done = await until(p.id, (x) => x.status === 'confirmed', 'the payment to confirm');
    expect(done.receivedAmount).toBe('5');
    expect(done.blockchainTransactions).toEqual([
      expect.objectContaining({
        chain: 'sui',
        network: 'mainnet',
        txHash: digest,
        fromAddress: buyer,
        toAddress: p.paymentAddress,
        tokenAddress: MAINNET_USDC,
        amount: '5',
        blockNumber: String(checkpoint.sequenceNumber),
        status: 'confirmed',
      }),
    ]);
    expect(done.blockchainTransactions[0].confirmations).toBeGreaterThanOrEqual(1);
  });

  it('native SUI (9 decimals): 1.5 SUI is 1500000000 MIST', async () => {
    const p = await createPayment({ token: 'SUI', amount: '1.5', currency: 'SUI' });
    standIn.payTo(p.paymentAddress, SUI_COIN, 1_500_000_000n);
    const done = await until(p.id, (x) => x.status === 'confirmed', 'the SUI payment to confirm');
    expect(done.receivedAmount).toBe('1.5');
    expect(done.blockchainTransactions[0].tokenAddress).toBe('0x2::sui::SUI');
  });

  it('a wrong coin type is not credited: SUI or USDT to a USDC payment leaves it waiting; the USDC then confirms it', async () => {
    const p = await createPayment({ token: 'USDC', amount: '5' });
    standIn.payTo(p.paymentAddress, SUI_COIN, 5_000_000n); // watched coin, not the payment's token
    standIn.payTo(p.paymentAddress, MAINNET_USDT, 5_000_000n); // registered, not watched
    standIn.payTo(
      p.paymentAddress,
      '0x1111111111111111111111111111111111111111111111111111111111111111::usdc::USDC',
      5_000_000n,
    ); // a look-alike
    await caughtUp();
    const waiting = await getPayment(p.id);
    expect(waiting).toMatchObject({ status: 'waiting_for_payment', receivedAmount: '0' });
    expect(waiting.blockchainTransactions).toEqual([]);
    standIn.payTo(p.paymentAddress, MAINNET_USDC, 5_000_000n);
    await until(p.id, (x) => x.status === 'confirmed', 'the payment to confirm');
  });

  it('the cursor survives a listener restart: money sent while it was down is credited, nothing twice', async () => {
    const p = await createPayment({ token: 'USDC', amount: '5' });
    standIn.payTo(p.paymentAddress, MAINNET_USDC, 2_000_000n);
    await until(p.id, (x) => x.status === 'underpaid' && x.receivedAmount === '2', 'the payment to be underpaid');
    await stopListener();

    standIn.payTo(p.paymentAddress, MAINNET_USDC, 3_000_000n); // certified while no listener runs
    standIn.chain.addEmptyCheckpoints(5);
    await startListener();
    const done = await until(p.id, (x) => x.status === 'confirmed', 'the top-up to confirm it');
    expect(done.receivedAmount).toBe('5');
    await caughtUp();
    const rows: Array<{ n: string }> = await t.db.query(
      `SELECT count(*)::text AS n FROM blockchain_transactions WHERE payment_id = $1`,
      [p.id],
    );
    expect(rows[0].n).toBe('2');
    expect((await getPayment(p.id)).blockchainTransactions).toHaveLength(2);
  });

  it('the GraphQL endpoint goes down and comes back: the error is reported, then the payment confirms', async () => {
    const p = await createPayment({ token: 'USDC', amount: '5' });
    await standIn.down();
    await waitFor('the outage in health', () => listener && suiStatus(listener)?.lastError);
    const recorded = await waitFor('the outage in the cursor row', async () => {
      const rows: Array<{ last_error: string | null }> = await t.db.query(
        `SELECT last_error FROM chain_cursors WHERE chain = 'sui' AND network = 'mainnet'`,
      );
      return rows[0]?.last_error;
    });
    expect(recorded).toMatch(/fetch failed/);

    standIn.payTo(p.paymentAddress, MAINNET_USDC, 5_000_000n); // certified during the outage
    await standIn.up();
    await until(p.id, (x) => x.status === 'confirmed', 'the payment to confirm after the outage');
    await waitFor('health to clear', () => listener && suiStatus(listener)?.lastError === null);
  });
});
