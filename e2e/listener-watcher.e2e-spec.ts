// The EVM watcher on a real Anvil node and a real database, with a recording sink in place of
// the credit service: what it reports and when (finality, chunks, native coins, tokens that are
// not watched), reorgs, RPC outages and rate limits with rotation, and two listener copies.
import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { Wallet } from 'ethers';
import { loadConfig } from '@svc/config';
import { createDataSource } from '@svc/db';
import type { ObservedTransfer, TransferSink } from '@svc/chains';
import { createListenerApp } from '../apps/listener/src/listener.factory';
import { WatchersService } from '../apps/listener/src/watchers/watchers.service';
import {
  DevChainSpec,
  DevPayer,
  SentTransfer,
  TestDevnet,
  startTestDevnet,
  writeChainsFile,
  freePort,
} from './support/anvil';
import { RpcProxy, startRpcProxy } from './support/rpc-proxy';
import { createTestDatabase, dropTestDatabase, TEST_MNEMONIC } from './support/test-app';

jest.setTimeout(60_000);

const CHAINS: DevChainSpec[] = [
  {
    chain: 'bnb',
    network: 'mainnet',
    chainId: 56,
    confirmations: 3,
    tokens: [
      { symbol: 'USDC', decimals: 18, watched: true },
      { symbol: 'USDT', decimals: 18, watched: false },
      { symbol: 'BNB', decimals: 18, watched: true, native: true },
    ],
  },
];
const FAST = { pollIntervalMs: 50, claimRetryMs: 200, backoffBaseMs: 50, backoffMaxMs: 400, rpcTimeoutMs: 2_000 };

class RecordingSink implements TransferSink {
  readonly seen: ObservedTransfer[] = [];
  calls = 0;
  async credit(transfers: ObservedTransfer[]): Promise<void> {
    this.calls++;
    this.seen.push(...transfers);
  }
  byTx(hash: string): ObservedTransfer[] {
    return this.seen.filter((t) => t.txHash === hash);
  }
}

let devnet: TestDevnet;
let payer: DevPayer;
let database: { name: string; url: string };
const apps: INestApplicationContext[] = [];
const proxies: RpcProxy[] = [];
const watched = new Set<string>();
const watchSet = { addresses: async () => new Set(watched) };

/** A fresh watched address. */
function watchedAddress(): string {
  const a = Wallet.createRandom().address;
  watched.add(a.toLowerCase());
  return a;
}

async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
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

async function listener(
  rpcUrls: string[],
  sink: TransferSink,
  evm: Record<string, unknown> = {},
): Promise<INestApplicationContext> {
  const bnb = devnet.get('bnb');
  const file = `${devnet.dir}/chains-${apps.length}.json`;
  writeChainsFile(file, [{ ...bnb.entry, rpcUrls }]);
  const config = loadConfig({
    DATABASE_URL: database.url,
    SVC_ENV: 'test',
    SVC_MNEMONIC: TEST_MNEMONIC,
    SVC_CHAINS_FILE: file,
  });
  const app = await createListenerApp(
    { ...config, logLevel: process.env.E2E_LOG ? 'info' : 'silent' },
    { sink, watchSet, jobs: false, evm: { ...FAST, ...evm }, healthLogIntervalMs: 0 },
  );
  await app.init();
  apps.push(app);
  return app;
}

const bnbStatus = (app: INestApplicationContext) =>
  app
    .get(WatchersService)
    .status()
    .find((s) => s.chain === 'bnb' && s.network === 'mainnet')!;

async function resetCursor(): Promise<void> {
  const ds = createDataSource(database.url, 1);
  await ds.initialize();
  await ds.query(`DELETE FROM chain_cursors`);
  await ds.destroy();
}

beforeAll(async () => {
  devnet = await startTestDevnet({ chains: CHAINS });
  payer = new DevPayer(devnet.get('bnb').node.url, devnet.payerKey);
  database = await createTestDatabase();
  const ds = createDataSource(database.url, 1);
  await ds.initialize();
  await ds.runMigrations({ transaction: 'all' });
  await ds.destroy();
});

afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
  while (proxies.length) await proxies.pop()!.close();
  await resetCursor();
});

afterAll(async () => {
  payer?.close();
  await devnet?.stop();
  if (database) await dropTestDatabase(database.name);
});

test('an ERC-20 transfer to a watched address is reported once it is final, with its log fields', async () => {
  const sink = new RecordingSink();
  const app = await listener([devnet.get('bnb').node.url], sink);
  await until('the cursor', () => bnbStatus(app).nextBlock !== null);
  const to = watchedAddress();
  const usdc = devnet.get('bnb').tokens.USDC;
  const sent = await payer.sendToken(usdc, to, 25n * 10n ** 18n);
  await devnet.get('bnb').node.mine(1); // 2 confirmations of the 3 required
  await new Promise((r) => setTimeout(r, 300));
  expect(sink.byTx(sent.hash)).toEqual([]);
  await devnet.get('bnb').node.mine(1);
  const [t] = await until('the transfer', () => sink.byTx(sent.hash).length > 0 && sink.byTx(sent.hash));
  expect(t).toEqual({
    chain: 'bnb',
    network: 'mainnet',
    txHash: sent.hash,
    logIndex: sent.logIndex,
    fromAddress: payer.address,
    toAddress: to,
    tokenAddress: usdc,
    amountAtomic: 25n * 10n ** 18n,
    blockNumber: BigInt(sent.blockNumber),
    confirmations: 3,
  });
  await devnet.get('bnb').node.mine(5);
  await new Promise((r) => setTimeout(r, 200));
  expect(sink.byTx(sent.hash)).toHaveLength(1);
});

test('native coin from a top-level transaction is reported with log index -1; an unwatched token and an unwatched address are not', async () => {
  const sink = new RecordingSink();
  const app = await listener([devnet.get('bnb').node.url], sink);
  await until('the cursor', () => bnbStatus(app).nextBlock !== null);
  const to = watchedAddress();
  const native = await payer.sendNative(to, 10n ** 17n);
  const usdt = await payer.sendToken(devnet.get('bnb').tokens.USDT, to, 5n);
  const elsewhere = await payer.sendToken(devnet.get('bnb').tokens.USDC, Wallet.createRandom().address, 5n);
  await devnet.get('bnb').node.mine(3);
  const [t] = await until('the native transfer', () => sink.byTx(native.hash).length > 0 && sink.byTx(native.hash));
  expect(t).toMatchObject({
    logIndex: -1,
    tokenAddress: null,
    amountAtomic: 10n ** 17n,
    toAddress: to,
    fromAddress: payer.address,
  });
  await until(
    'the cursor past the other transfers',
    () => BigInt(bnbStatus(app).nextBlock!) > BigInt(elsewhere.blockNumber),
  );
  expect(sink.byTx(usdt.hash)).toEqual([]);
  expect(sink.byTx(elsewhere.hash)).toEqual([]);
});

test('catch-up walks from the cursor in bounded chunks and misses nothing', async () => {
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const first = await listener([bnb.node.url], sink, { chunkSize: 4 });
  await until('the cursor', () => bnbStatus(first).nextBlock !== null);
  await first.close();
  apps.pop();
  const sent: SentTransfer[] = [];
  for (let i = 0; i < 12; i++) {
    sent.push(await payer.sendToken(bnb.tokens.USDC, watchedAddress(), BigInt(i + 1)));
    await bnb.node.mine(2);
  }
  await bnb.node.mine(3);
  const app = await listener([bnb.node.url], sink, { chunkSize: 4 });
  await until('every transfer', () => sent.every((s) => sink.byTx(s.hash).length === 1));
  expect(sink.calls).toBeGreaterThanOrEqual(3); // 12 transfers spread over ~40 blocks, 4 blocks per chunk
  const mine = new Set(sent.map((x) => x.hash)); // a new cursor starts 100 blocks back: earlier tests' transfers come too
  expect(sink.seen.filter((t) => mine.has(t.txHash)).map((t) => t.amountAtomic)).toEqual(
    sent.map((_, i) => BigInt(i + 1)),
  );
  // the chunk of the last transfer may still be committing its cursor: then the walk ends at the final head
  await until('the cursor at the final head', () => bnbStatus(app).lag === '0');
});

test('a reorg below the cursor is detected from the parent hash and the new fork is walked', async () => {
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const app = await listener([bnb.node.url], sink);
  await until('the cursor', () => bnbStatus(app).nextBlock !== null);
  const snapshot = await bnb.node.rpc<string>('evm_snapshot');
  const before = await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 7n);
  await bnb.node.mine(3);
  await until('the first fork transfer', () => sink.byTx(before.hash).length);
  await until('the cursor past it', () => BigInt(bnbStatus(app).nextBlock!) > BigInt(before.blockNumber));
  const processed = BigInt(bnbStatus(app).nextBlock!);
  expect(await bnb.node.rpc('evm_revert', [snapshot])).toBe(true);
  // The other fork: different blocks at the same heights, then longer than the first.
  await bnb.node.mine(1);
  const after = await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 8n);
  await bnb.node.mine(6);
  expect(BigInt(after.blockNumber)).toBeLessThan(processed);
  await until('the transfer on the new fork', () => sink.byTx(after.hash).length === 1);
});

test('blocks read ahead with their transactions are not used once a reorg replaced them', async () => {
  // Caught up, the watcher reads the blocks after the final head with their transactions (issue 23 ›
  // Detection); when they become final it reads their headers only, and takes the transactions read
  // ahead only for the same hash. Here both blocks read ahead are replaced while the node is hidden.
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const proxy = await startRpcProxy(bnb.node.url);
  proxies.push(proxy);
  const app = await listener([proxy.url], sink);
  await until('the cursor at the head', () => bnbStatus(app).lag === '0');
  const snapshot = await bnb.node.rpc<string>('evm_snapshot');
  const gone = await payer.sendNative(watchedAddress(), 10n ** 15n);
  await bnb.node.mine(1); // head gone+1: gone and gone+1 are after the final head (3 confirmations)
  const top = `0x${(gone.blockNumber + 1).toString(16)}`;
  await until('the blocks read ahead', () =>
    proxy.calls.some((c) => c.method === 'eth_getBlockByNumber' && c.params?.[0] === top && c.params?.[1] === true),
  );
  await new Promise((r) => setTimeout(r, 300)); // and answered (taking the proxy down cuts an answer on its way)
  proxy.mode = 'down';
  expect(await bnb.node.rpc('evm_revert', [snapshot])).toBe(true);
  const kept = await payer.sendNative(watchedAddress(), 2n * 10n ** 15n);
  expect(kept.blockNumber).toBe(gone.blockNumber); // the other fork, same height
  await bnb.node.mine(3); // kept and kept+1 final: the chunk is the two blocks read ahead on the old fork
  proxy.mode = 'up';
  await until('the transfer on the new fork', () => sink.byTx(kept.hash).length === 1);
  expect(proxy.calls.some((c) => c.method === 'eth_getBlockByHash')).toBe(true); // read again by its new hash
  await bnb.node.mine(3);
  await until('the cursor at the head', () => bnbStatus(app).lag === '0');
  expect(sink.byTx(gone.hash)).toEqual([]);
});

test('a head announced over WebSocket counts only once the RPC node has reached it', async () => {
  // The WebSocket reaches Anvil directly; the RPC URL is a proxy that answers with a head one block behind.
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const proxy = await startRpcProxy(bnb.node.url);
  proxies.push(proxy);
  const app = await listener([proxy.url], sink, { pollIntervalMs: 5_000, subscribedPollIntervalMs: 5_000 });
  await until('the cursor at the head', () => bnbStatus(app).lag === '0');
  // The RPC node says its head is one block below the one the WebSocket is about to announce.
  const behind = `0x${((await bnb.node.blockNumber()) + 2).toString(16)}`;
  proxy.intercept = (call) => (call.method === 'eth_blockNumber' ? { result: behind } : undefined);
  const sent = await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 11n);
  await bnb.node.mine(2); // 3 confirmations by the announced head, 2 by the RPC node's
  await new Promise((r) => setTimeout(r, 1_000));
  expect(sink.byTx(sent.hash)).toEqual([]);
  expect(bnbStatus(app).lastError).toBeNull(); // a node a little behind the WebSocket is no failure
  proxy.intercept = null;
  await bnb.node.mine(1); // a new head wakes the walk
  await until('the transfer', () => sink.byTx(sent.hash).length === 1);
});

test('an RPC outage is reported in health and caught up from the cursor once the node is back', async () => {
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const proxy = await startRpcProxy(bnb.node.url);
  proxies.push(proxy);
  const app = await listener([proxy.url], sink);
  // a new cursor starts 100 blocks back: let it reach the head so earlier tests' transfers are behind us
  await until('the cursor at the head', () => bnbStatus(app).lag === '0');
  proxy.mode = 'down';
  const sent: SentTransfer[] = [];
  for (let i = 0; i < 3; i++) sent.push(await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 100n + BigInt(i)));
  await bnb.node.mine(5);
  await until('the outage in health', () => bnbStatus(app).lastError);
  const mine = new Set(sent.map((x) => x.hash));
  expect(sink.seen.filter((t) => mine.has(t.txHash))).toEqual([]);
  proxy.mode = 'up';
  await until('every transfer after the outage', () => sent.every((s) => sink.byTx(s.hash).length === 1), 20_000);
  await until('health clears', () => bnbStatus(app).lastError === null);
});

test('a dead URL and a rate-limited one are rotated past', async () => {
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const limited = await startRpcProxy(bnb.node.url);
  limited.mode = 'rate_limited';
  proxies.push(limited);
  const dead = `http://127.0.0.1:${await freePort()}`;
  const app = await listener([dead, limited.url, bnb.node.url], sink);
  await until('the cursor', () => bnbStatus(app).nextBlock !== null);
  const sent = await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 9n);
  await bnb.node.mine(3);
  await until('the transfer', () => sink.byTx(sent.hash).length === 1);
  expect(limited.refused).toBeGreaterThan(0);
  expect(bnbStatus(app).endpoint).toBe(bnb.node.url);
});

test('two listener copies: one works the chain, the other stands by and takes over from the cursor', async () => {
  const sink = new RecordingSink();
  const bnb = devnet.get('bnb');
  const a = await listener([bnb.node.url], sink);
  const b = await listener([bnb.node.url], sink);
  await until('one active copy', () => [bnbStatus(a).state, bnbStatus(b).state].sort().join() === 'active,standby');
  const sent1: SentTransfer[] = [];
  for (let i = 0; i < 5; i++) sent1.push(await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 1000n + BigInt(i)));
  await bnb.node.mine(3);
  await until('the first transfers', () => sent1.every((s) => sink.byTx(s.hash).length === 1));
  const [active, standby] = bnbStatus(a).state === 'active' ? [a, b] : [b, a];
  await active.close();
  apps.splice(apps.indexOf(active), 1);
  const sent2 = await payer.sendToken(bnb.tokens.USDC, watchedAddress(), 2000n);
  await bnb.node.mine(3);
  await until('the standby takes over', () => sink.byTx(sent2.hash).length === 1);
  expect(bnbStatus(standby).state).toBe('active');
  // nothing twice
  const keys = sink.seen.map((t) => `${t.txHash}:${t.logIndex}`);
  expect(new Set(keys).size).toBe(keys.length);
});
