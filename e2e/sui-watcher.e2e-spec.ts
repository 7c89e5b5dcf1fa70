// The Sui watcher against the Sui devnet (libs/devnet), through the real @mysten/sui client, on a real
// PostgreSQL cursor (chain_cursors), into a recording sink with a fixed watch set: batches,
// pagination, restarts, outages, rotation, wrong networks, two copies, a failing sink.
// The same watcher with the real API and credit service: listener-sui.e2e-spec.ts.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ChainConfig, ChainRegistry } from '@svc/chains';
import { createDataSource } from '@svc/db';
import type { Network } from '@svc/domain';
import { DataSource } from 'typeorm';
import type { ObservedTransfer, TransferSink } from '@svc/chains';
import { SUI_PAGE_SIZE, SuiGraphQLReader } from '../libs/chains/src/sui/sui-graphql-reader';
import { SuiWatcher, SuiWatcherOptions } from '../libs/chains/src/sui/sui-watcher';
import { MAINNET_USDC, MAINNET_USDT, SUI_COIN, SuiDevnet, randomSuiAddress, suiAddress } from '@svc/devnet';
import { createTestDatabase, dropTestDatabase } from './support/test-app';

const FAST: Partial<SuiWatcherOptions> = {
  pollIntervalMs: 20,
  claimRetryMs: 100,
  backoffBaseMs: 20,
  backoffMaxMs: 200,
  requestTimeoutMs: 2_000,
  initialLookback: 0,
};

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

class RecordingSink implements TransferSink {
  readonly calls: ObservedTransfer[][] = [];
  failNext = 0;
  async credit(transfers: ObservedTransfer[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('sink: database unavailable');
    }
    this.calls.push(transfers);
  }
  get transfers(): ObservedTransfer[] {
    return this.calls.flat();
  }
  /** how often each (txHash, logIndex) arrived */
  counts(): Map<string, number> {
    const m = new Map<string, number>();
    for (const t of this.transfers) m.set(`${t.txHash}/${t.logIndex}`, (m.get(`${t.txHash}/${t.logIndex}`) ?? 0) + 1);
    return m;
  }
}

const registry = new ChainRegistry(ChainRegistry.fromFile(undefined).all());
const suiMainnet = (urls: string[]): ChainConfig => ({
  ...structuredClone(registry.get('sui', 'mainnet') as ChainConfig),
  rpcUrls: urls,
});

let db: DataSource;
let dbName: string;
const watchers: SuiWatcher[] = [];
const standIns: SuiDevnet[] = [];

beforeAll(async () => {
  Logger.overrideLogger(process.env.E2E_LOG ? ['log', 'warn', 'error'] : ['error']);
  const database = await createTestDatabase('svc_e2e_sui');
  dbName = database.name;
  db = createDataSource(database.url, 6);
  await db.initialize();
  await db.runMigrations({ transaction: 'all' });
});

afterEach(async () => {
  while (watchers.length) await watchers.pop()!.stop();
  while (standIns.length) await standIns.pop()!.down();
  await db.query(`DELETE FROM chain_cursors`);
});

afterAll(async () => {
  await db?.destroy();
  if (dbName) await dropTestDatabase(dbName);
});

async function standIn(chainIdentifier?: string): Promise<SuiDevnet> {
  const s = await SuiDevnet.start(chainIdentifier);
  standIns.push(s);
  return s;
}

function watcher(
  urls: string[],
  sink: TransferSink,
  watched: Set<string>,
  options: Partial<SuiWatcherOptions> = {},
): SuiWatcher {
  const w = new SuiWatcher(
    suiMainnet(urls),
    { db, sink, watchSet: { addresses: async (_c: string, _n: Network) => watched }, now: () => new Date() },
    { ...FAST, ...options },
  );
  watchers.push(w);
  w.start();
  return w;
}

async function cursorRow(): Promise<
  { next_block: string; genesis_hash: string | null; head: string | null; last_error: string | null } | undefined
> {
  const rows = await db.query(
    `SELECT next_block, genesis_hash, head, last_error FROM chain_cursors WHERE chain = 'sui' AND network = 'mainnet'`,
  );
  return rows[0];
}

const caughtUp = (w: SuiWatcher, s: SuiDevnet) => () =>
  w.status().nextBlock === String(s.chain.latest.sequenceNumber + 1);

describe('the GraphQL reader (real SuiGraphQLClient against the devnet)', () => {
  it('reads every transaction of a checkpoint range across pages, and every balance change of a big transaction', async () => {
    const s = await standIn();
    const owner = randomSuiAddress();
    // 120 transfers over three checkpoints: three pages of transactions at the service's max page size.
    for (let c = 0; c < 3; c++)
      s.chain.addCheckpoint(Array.from({ length: 40 }, () => s.transferTx(owner, MAINNET_USDC, 1n)));
    // One transaction with 130 balance changes (an airdrop): three pages of balance changes.
    const recipients = Array.from({ length: 130 }, () => randomSuiAddress());
    s.chain.addCheckpoint([
      {
        sender: owner,
        balanceChanges: recipients.map((r, i) => ({ owner: r, coinType: MAINNET_USDC, amount: BigInt(i + 1) })),
      },
    ]);
    const reader = new SuiGraphQLReader(s.url);

    const latest = await reader.latest();
    expect(latest).toEqual({ sequenceNumber: 4n, chainIdentifier: '35834a8a' });
    const txs = await reader.transactions(1n, 4n);
    expect(txs).toHaveLength(121);
    expect(txs.map((t) => t.digest)).toEqual(
      s.chain
        .allTransactions()
        .slice(1)
        .map((t) => t.digest),
    );
    expect(txs[0]).toMatchObject({ sender: expect.stringMatching(/^0x[0-9a-f]{64}$/), checkpoint: 1n, success: true });
    expect(txs[0].balanceChanges).toContainEqual({ owner: suiAddress(owner), coinType: MAINNET_USDC, amount: '1' });
    const big = txs[120];
    expect(big.balanceChanges).toHaveLength(130);
    expect(big.balanceChanges.map((c) => c.amount)).toEqual(recipients.map((_r, i) => String(i + 1)));
    // pages were asked at the service's limit, never above it
    const firsts = s.requests.flatMap((r) => [r.variables.first, r.variables.changes]).filter((v) => v !== undefined);
    expect(Math.max(...(firsts as number[]))).toBe(SUI_PAGE_SIZE);
    expect(s.requests.filter((r) => r.query.includes('SvcMoreBalanceChanges'))).toHaveLength(2);
    expect(s.requests.every((r) => r.contentType === 'application/json')).toBe(true);
  });

  it('checkpoint 0 is readable, and a checkpoint range the endpoint has not seen yet is an error, not an empty answer', async () => {
    const s = await standIn();
    s.payTo(randomSuiAddress(), SUI_COIN, 1n);
    const reader = new SuiGraphQLReader(s.url);
    expect((await reader.transactions(0n, 0n)).map((t) => t.sender)).toEqual([null]); // genesis: a system transaction
    s.lagBehind(1);
    await expect(reader.transactions(1n, 1n)).rejects.toThrow(/has seen checkpoint 0, not yet 1/);
  });

  it('the devnet answers like the service: errors with codes, page limits, no unknown fields', async () => {
    const s = await standIn();
    const res = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ transactions(first: 51) { nodes { digest } } checkpoint { nope } }' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: 'Cannot query field "nope" on type "Checkpoint".',
          locations: [{ line: 1, column: 61 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    });
    const big = (await (
      await fetch(s.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ transactions(first: 51) { nodes { digest } } }' }),
      })
    ).json()) as { errors: unknown[] };
    expect(big.errors[0]).toMatchObject({
      message: 'Page size of 51 exceeds max of 50 for connection',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('the Sui watcher', () => {
  it('starts a cursor at the latest checkpoint and reports each positive change to a watched owner once, with the checkpoint as block', async () => {
    const s = await standIn();
    s.chain.addEmptyCheckpoints(3);
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const w = watcher([s.url], sink, new Set([suiAddress(payment)]));
    await waitFor('the cursor', async () => (await cursorRow())?.genesis_hash === '35834a8a');
    // with no look-back, the latest checkpoint (3) is the first one read
    const firstRead = await waitFor('the first read', () =>
      s.requests.find((r) => r.query.includes('SvcCheckpointTransactions')),
    );
    expect(firstRead?.variables.filter).toEqual({ afterCheckpoint: 2, beforeCheckpoint: 4 });

    const buyer = randomSuiAddress();
    const { checkpoint, digest } = s.payTo(payment, MAINNET_USDC, 5_000_000n, { from: buyer });
    s.payTo(randomSuiAddress(), MAINNET_USDC, 9n); // not ours
    s.payTo(payment, MAINNET_USDT, 5_000_000n); // registered, not watched
    s.payTo(payment, SUI_COIN, 0n); // a zero change is dropped by the service itself
    const failed = s.payTo(payment, MAINNET_USDC, 3n, { status: 'FAILURE' });
    const sui = s.payTo(payment, '0x2::sui::SUI', 1_500_000_000n);
    await waitFor('the watcher to catch up', caughtUp(w, s));

    expect(sink.transfers).toEqual([
      {
        chain: 'sui',
        network: 'mainnet',
        txHash: digest,
        logIndex: s.chain.transaction(digest)!.balanceChanges.findIndex((c) => c.owner === suiAddress(payment)),
        fromAddress: suiAddress(buyer),
        toAddress: suiAddress(payment),
        tokenAddress: MAINNET_USDC,
        amountAtomic: 5_000_000n,
        blockNumber: BigInt(checkpoint.sequenceNumber),
        confirmations: expect.any(Number),
      },
      expect.objectContaining({ txHash: sui.digest, tokenAddress: '0x2::sui::SUI', amountAtomic: 1_500_000_000n }),
    ]);
    expect(sink.transfers.every((t) => t.confirmations >= 1)).toBe(true);
    expect(sink.transfers.some((t) => t.txHash === failed.digest)).toBe(false);
    expect(await cursorRow()).toMatchObject({
      next_block: String(s.chain.latest.sequenceNumber + 1),
      last_error: null,
    });
    expect(w.status()).toMatchObject({ kind: 'sui', state: 'active', lag: '0', endpoint: new URL(s.url).origin });
  });

  it('walks a long backlog in bounded batches, one sink call and one cursor write each, missing nothing', async () => {
    const s = await standIn();
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const w = watcher([s.url], sink, new Set([suiAddress(payment)]), { maxCheckpointsPerBatch: 7 });
    await waitFor('the cursor', cursorRow);
    await w.stop();
    const digests: string[] = [];
    for (let i = 0; i < 40; i++) digests.push(s.payTo(payment, MAINNET_USDC, BigInt(i + 1)).digest);
    w.start();
    await waitFor('the watcher to catch up', caughtUp(w, s), 20_000);
    expect(sink.transfers.map((t) => t.txHash)).toEqual(digests);
    expect(sink.calls.length).toBeGreaterThanOrEqual(6); // 40 checkpoints, at most 7 a batch
    expect(
      Math.max(...sink.calls.map((c) => Number(c[c.length - 1].blockNumber - c[0].blockNumber) + 1)),
    ).toBeLessThanOrEqual(7);
  });

  it('a stopped watcher closes its connections to the node; started again, it opens new ones', async () => {
    const s = await standIn();
    const w = watcher([s.url], new RecordingSink(), new Set());
    await waitFor('the cursor', cursorRow);
    expect(s.connections).toBeGreaterThan(0);
    await w.stop();
    await waitFor('no connection left', async () => s.connections === 0, 1_000); // kept alive 4 s otherwise
    s.chain.addEmptyCheckpoints(2);
    w.start();
    await waitFor('the watcher to catch up', caughtUp(w, s));
    expect(s.connections).toBeGreaterThan(0);
  });

  it('a restarted watcher continues from its cursor: nothing twice, nothing missed', async () => {
    const s = await standIn();
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const watched = new Set([suiAddress(payment)]);
    const first = watcher([s.url], sink, watched);
    await waitFor('the cursor', cursorRow);
    const a = s.payTo(payment, MAINNET_USDC, 1n);
    await waitFor('the first transfer', () => sink.transfers.length === 1);
    await first.stop();

    const b = s.payTo(payment, MAINNET_USDC, 2n); // lands while no watcher runs
    s.chain.addEmptyCheckpoints(5);
    const second = watcher([s.url], sink, watched);
    await waitFor('the restarted watcher to catch up', caughtUp(second, s));
    const c = s.payTo(payment, MAINNET_USDC, 3n);
    await waitFor('the third transfer', () => sink.transfers.length >= 3);
    await waitFor('the restarted watcher to catch up', caughtUp(second, s));

    expect(sink.transfers.map((t) => t.txHash)).toEqual([a.digest, b.digest, c.digest]);
    expect([...sink.counts().values()].every((n) => n === 1)).toBe(true);
  });

  it('an endpoint that goes down: the error shows in health, then the watcher catches up from its cursor when it comes back', async () => {
    const s = await standIn();
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const w = watcher([s.url], sink, new Set([suiAddress(payment)]));
    await waitFor('the cursor', cursorRow);
    await s.down();
    await waitFor('the outage in health', async () => w.status().lastError !== null && (await cursorRow())?.last_error);
    expect(w.status().lastError).toMatch(/fetch failed/);
    const during = s.payTo(payment, MAINNET_USDC, 7n); // certified while the endpoint is unreachable
    s.chain.addEmptyCheckpoints(3);
    await s.up();
    await waitFor('recovery', caughtUp(w, s));
    expect(sink.transfers.map((t) => t.txHash)).toEqual([during.digest]);
    await waitFor(
      'health to clear',
      async () => w.status().lastError === null && (await cursorRow())?.last_error === null,
    );
  });

  it('rotates endpoints: a dead, a rate-limiting and a lagging one never cost a checkpoint', async () => {
    const good = await standIn();
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const dead = 'http://127.0.0.1:9/graphql';
    const w = watcher([dead, good.url], sink, new Set([suiAddress(payment)]));
    await waitFor('the cursor', cursorRow);
    const a = good.payTo(payment, MAINNET_USDC, 1n);
    await waitFor('a transfer via the second endpoint', () => sink.transfers.length === 1);
    expect(w.status().endpoint).toBe(new URL(good.url).origin); // health names the host only

    good.failNext(3, 429);
    const b = good.payTo(payment, MAINNET_USDC, 2n);
    await waitFor('past the rate limit', () => sink.transfers.length === 2, 15_000);

    good.lagBehind(2); // the indexer falls behind: what it has not seen is not skipped
    const c = good.payTo(payment, MAINNET_USDC, 3n);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.transfers).toHaveLength(2);
    good.clearFaults();
    await waitFor('the lagging transfer', () => sink.transfers.length === 3, 15_000);
    expect(sink.transfers.map((t) => t.txHash)).toEqual([a.digest, b.digest, c.digest]);
  });

  it('never reads an endpoint of another network than its cursor’s', async () => {
    const mainnet = await standIn('35834a8a');
    const testnet = await standIn('4c78adac');
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const first = watcher([mainnet.url], sink, new Set([suiAddress(payment)]));
    await waitFor('the cursor', cursorRow);
    await first.stop();
    testnet.chain.addEmptyCheckpoints(10);
    testnet.payTo(payment, MAINNET_USDC, 5n);
    const w = watcher([testnet.url], sink, new Set([suiAddress(payment)]));
    await waitFor('the refusal', () => w.status().lastError?.includes('serves chain 4c78adac, not 35834a8a'));
    expect(sink.transfers).toEqual([]);
    expect((await cursorRow())?.next_block).toBe(String(mainnet.chain.latest.sequenceNumber + 1));
  });

  it('a sink failure repeats the batch: the cursor does not move past what was not credited', async () => {
    const s = await standIn();
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const w = watcher([s.url], sink, new Set([suiAddress(payment)]));
    await waitFor('the cursor', cursorRow);
    const before = (await cursorRow())!.next_block;
    sink.failNext = 2;
    const a = s.payTo(payment, MAINNET_USDC, 1n);
    await waitFor('the sink error in health', () => w.status().lastError?.includes('database unavailable'));
    expect(BigInt((await cursorRow())!.next_block)).toBeLessThanOrEqual(BigInt(a.checkpoint.sequenceNumber));
    expect(BigInt(before)).toBeLessThanOrEqual(BigInt(a.checkpoint.sequenceNumber));
    await waitFor('the credit after the failures', () => sink.transfers.length === 1);
    expect(sink.transfers[0].txHash).toBe(a.digest);
    await waitFor('the watcher to catch up', caughtUp(w, s));
  });

  it('two listener copies: one works the chain, the other stands by and takes over when the first stops', async () => {
    const s = await standIn();
    const payment = randomSuiAddress();
    const sink = new RecordingSink();
    const watched = new Set([suiAddress(payment)]);
    const one = watcher([s.url], sink, watched);
    await waitFor('the first copy to claim', () => one.status().state === 'active');
    const two = watcher([s.url], sink, watched);
    await waitFor('the second copy to stand by', () => two.status().state === 'standby');
    const a = s.payTo(payment, MAINNET_USDC, 1n);
    await waitFor('the transfer', () => sink.transfers.length === 1);
    await one.stop();
    const b = s.payTo(payment, MAINNET_USDC, 2n);
    await waitFor('the second copy to take over', () => two.status().state === 'active' && sink.transfers.length === 2);
    expect(sink.transfers.map((t) => t.txHash)).toEqual([a.digest, b.digest]);
  });

  it('without rpcUrls it reports the problem and stays idle', async () => {
    const w = watcher([], new RecordingSink(), new Set());
    expect(w.status()).toMatchObject({ state: 'idle', endpoint: null, lastError: expect.stringMatching(/no rpcUrls/) });
  });
});
