// The listener under hostile conditions (issue 9), with real payments on Anvil and an RPC proxy
// in front of the node: a node that answers eth_getLogs with `[]` or from behind the range, an RPC
// URL that carries keys, and a listener that is behind when a payment's expiresAt passes.
// Expiry waits for the watcher (runtime contract › Dev clock): a transfer made in time never
// produces payment.expired followed by a late completion.
import { INestApplicationContext } from '@nestjs/common';
import { bloomBits, bloomMayHoldTransfer, bloomOf, TRANSFER_TOPIC } from '@svc/chains';
import { WatchersService } from '../apps/listener/src/watchers/watchers.service';
import { jsonRpc } from './support/anvil';
import { startCreditContext } from './support/credit-context';
import { Harness, Row, startHarness, waitFor } from './support/listener-harness';
import { RpcProxy, RpcRequest, startRpcProxy } from './support/rpc-proxy';

jest.setTimeout(90_000);

let h: Harness;
let proxy: RpcProxy;

beforeAll(async () => {
  h = await startHarness();
  // The cursor walks past the devnet's set-up blocks (the funding of the dev payer, which is
  // deposit address 1 of the test mnemonic) before any payment exists.
  const l = await h.listener();
  await waitFor('the first walk', () => bnbStatus(l).lag === '0');
  await h.stopListener(l);
});
afterEach(async () => {
  while (h.listeners.length) await h.stopListener(h.listeners[0]);
  await proxy?.close();
});
afterAll(async () => {
  await h?.close();
});

const bnbNode = () => h.devnet.get('bnb').node;
const usdcPayment = (amount: string) => h.m.payment({ chain: 'bnb', token: 'USDC', amount, currency: 'USDC' });
const bnbStatus = (l: INestApplicationContext) =>
  l
    .get(WatchersService)
    .status()
    .find((s) => s.chain === 'bnb' && s.network === 'mainnet')!;

/** A listener whose bnb RPC URL is `proxy` (with `suffix`: a path and query carrying keys). */
async function listenerBehindProxy(suffix = '', options: Parameters<Harness['listener']>[0] = {}) {
  proxy = await startRpcProxy(bnbNode().url);
  const url = `${proxy.url}${suffix}`;
  return h.listener({
    ...options,
    chainsFile: h.chainsFileWith((entries) => (entries.find((e) => e.chain === 'bnb')!.rpcUrls = [url])),
  });
}

const paymentEvents = async (id: string): Promise<string[]> =>
  (
    await h.t.db.query(
      `SELECT type FROM events WHERE type LIKE 'payment.%' AND (data->>'paymentId' = $1 OR data->'payment'->>'id' = $1)
       ORDER BY created_at, id`,
      [id],
    )
  ).map((r: { type: string }) => r.type);

/** A range eth_getLogs (fromBlock/toBlock, not blockHash) that covers `block`. */
const rangeCovers = (call: RpcRequest, block: number): boolean => {
  if (call.method !== 'eth_getLogs') return false;
  const f = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
  return !f.blockHash && !!f.fromBlock && Number(f.fromBlock) <= block && Number(f.toBlock) >= block;
};
const byHash = (calls: RpcRequest[]) =>
  calls.filter((c) => c.method === 'eth_getLogs' && (c.params?.[0] as { blockHash?: string })?.blockHash);

describe('a node that returns an incomplete eth_getLogs answer never causes a missed deposit', () => {
  test('eth_getLogs answers [] for the range holding a deposit: the blocks’ logsBloom disagree, the blocks are read by hash, the deposit is credited', async () => {
    await listenerBehindProxy();
    const p = await usdcPayment('3');
    const depositBlock = (await bnbNode().blockNumber()) + 1;
    let emptied = 0;
    proxy.intercept = (call) => {
      if (emptied === 0 && rangeCovers(call, depositBlock)) {
        emptied++;
        return { result: [] };
      }
      return undefined;
    };
    const sent = await h.pay(p, '3');
    expect(sent.blockNumber).toBe(depositBlock);
    await h.until(p.id, (x) => x.status === 'confirmed');
    expect(emptied).toBe(1);
    expect(byHash(proxy.calls).length).toBeGreaterThanOrEqual(1);
    expect(await paymentEvents(p.id)).toEqual(['payment.confirmed']);

    // The bloom arithmetic against the node's own: the receipt's logsBloom is exactly the bloom of
    // its one Transfer log, and the block's bloom says it may hold a Transfer of the watched USDC.
    const usdc = h.devnet.get('bnb').tokens.USDC;
    const receipt = await jsonRpc<{ logsBloom: string; logs: Array<{ address: string; topics: string[] }> }>(
      bnbNode().url,
      'eth_getTransactionReceipt',
      [sent.hash],
    );
    expect(receipt.logsBloom).toBe(bloomOf(receipt.logs.flatMap((l) => [l.address, ...l.topics])));
    const block = await jsonRpc<{ logsBloom: string }>(bnbNode().url, 'eth_getBlockByNumber', [
      `0x${depositBlock.toString(16)}`,
      false,
    ]);
    expect(bloomMayHoldTransfer(block.logsBloom, bloomBits(TRANSFER_TOPIC), [bloomBits(usdc)])).toBe(true);
  });

  test('the node answering eth_getLogs is behind the range (its head, asked in the same batch, is below it): the answer is not used, the deposit is credited', async () => {
    await listenerBehindProxy();
    const p = await usdcPayment('4');
    const depositBlock = (await bnbNode().blockNumber()) + 1;
    let lagging = 0;
    proxy.intercept = (call, batch) => {
      if (lagging > 0 || !batch.some((c) => rangeCovers(c, depositBlock))) return undefined;
      // A lagging backend: it has not seen the deposit's block, and says `[]` for a range it does not have.
      if (call.method === 'eth_blockNumber') return { result: `0x${(depositBlock - 1).toString(16)}` };
      if (rangeCovers(call, depositBlock)) {
        lagging++;
        return { result: [] };
      }
      return undefined;
    };
    await h.pay(p, '4');
    await h.until(p.id, (x) => x.status === 'confirmed');
    expect(lagging).toBe(1);
    // the range was asked again (of a node that has it); the bloom check never had to step in
    expect(proxy.calls.filter((c) => rangeCovers(c, depositBlock)).length).toBeGreaterThanOrEqual(2);
    expect(byHash(proxy.calls)).toEqual([]);
  });
});

describe('RPC errors are stored and logged with the host only', () => {
  test('an RPC URL with a key in its path and query: chain_cursors.last_error, the log and health name scheme://host:port only', async () => {
    const SECRET_PATH = 'sk_live_9f8e7d6c5b4a39281706';
    const SECRET_QUERY = 'QK_0123456789abcdefXYZ';
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      }) as typeof stream.write);
    const spies = [capture(process.stdout), capture(process.stderr)];
    try {
      const l = await listenerBehindProxy(`/v3/${SECRET_PATH}?apikey=${SECRET_QUERY}`, {
        logLevel: 'info',
      });
      const host = proxy.url; // http://127.0.0.1:<port>
      proxy.mode = 'unauthorized'; // a 401 whose body repeats the path, key included
      const row = await waitFor('the error stored on the cursor', async () => {
        const rows: Array<{ last_error: string | null }> = await h.t.db.query(
          `SELECT last_error FROM chain_cursors WHERE chain = 'bnb' AND network = 'mainnet'`,
        );
        return rows[0]?.last_error?.includes('401') && rows[0];
      });
      proxy.mode = 'down'; // a transport error too
      await waitFor('a transport error', () => bnbStatus(l).lastError && !bnbStatus(l).lastError!.includes('401'));
      l.get(WatchersService).logHealth();
      // log lines go out once per event-loop turn (libs/runtime/src/log-stream.ts)
      await waitFor('the health line on stdout', () => written.join('').includes('health bnb/mainnet'));
      const status = bnbStatus(l);

      expect(row.last_error).toContain(host);
      expect(status.endpoint).toBe(host);
      const logged = written.join('');
      expect(logged).toContain(`rpc=${host}`);
      for (const text of [row.last_error!, status.lastError!, logged]) {
        expect(text).not.toContain(SECRET_PATH);
        expect(text).not.toContain(SECRET_QUERY);
        expect(text).not.toContain('/v3/');
      }
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });
});

// Last: they move the service clock.
describe('expiry waits for the watcher (runtime contract › Dev clock)', () => {
  test('a transfer made in time that a listener behind sees only after expiresAt: the payment confirms, never payment.expired first', async () => {
    const l = await listenerBehindProxy();
    const p = await usdcPayment('5');
    proxy.mode = 'down'; // the listener falls behind
    await waitFor('the outage in health', () => bnbStatus(l).lastError);
    await h.pay(p, '5'); // in time, and final on chain
    await h.advanceClock(31 * 60);
    for (let i = 0; i < 3; i++) {
      await h.runJobs();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await h.getPayment(p.id)).status).toBe('waiting_for_payment');

    proxy.mode = 'up';
    const done = await h.until(p.id, (x) => x.status === 'confirmed');
    expect(done.receivedAmount).toBe('5');
    await h.watchersPassed();
    await h.runJobs();
    expect(await paymentEvents(p.id)).toEqual(['payment.confirmed']);
  });

  test('a transfer made in time that still waits for confirmations holds the expiry; once final it confirms, and an unpaid payment expires after the next pass', async () => {
    await h.listener();
    const paid = await usdcPayment('6');
    const unpaid = await usdcPayment('7');
    await h.pay(paid, '6', { mine: false }); // one block: not final with 2 confirmations
    await h.advanceClock(31 * 60);
    // The watcher keeps passing the head, but the block after the final one pays a due payment.
    await new Promise((r) => setTimeout(r, 500));
    await h.runJobs();
    expect((await h.getPayment(paid.id)).status).toBe('waiting_for_payment');
    expect((await h.getPayment(unpaid.id)).status).toBe('waiting_for_payment');

    await h.finalise('bnb');
    await h.until(paid.id, (x) => x.status === 'confirmed');
    await h.watchersPassed();
    await h.runJobs();
    await h.until(unpaid.id, (x) => x.status === 'expired', 'the unpaid payment to expire');
    expect(await paymentEvents(paid.id)).toEqual(['payment.confirmed']);
    expect(await paymentEvents(unpaid.id)).toEqual(['payment.expired']);
  });

  test('with its watcher not running, a watched rail’s payment waits; a rail without a watcher (sui: no RPC URL here) expires by time alone', async () => {
    const onBnb: Row = await usdcPayment('8');
    const onSui: Row = await h.m.payment({ chain: 'sui', token: 'USDC', amount: '8', currency: 'USDC' });
    await h.advanceClock(31 * 60);
    // The time-driven jobs alone, as in a listener copy whose watchers are not started.
    const jobsOnly = await startCreditContext(h.t.config);
    try {
      await jobsOnly.clock.refresh();
      await jobsOnly.jobs.runOnce();
      expect((await h.getPayment(onSui.id)).status).toBe('expired');
      expect((await h.getPayment(onBnb.id)).status).toBe('waiting_for_payment');

      await h.listener(); // the watcher starts, passes the head, nothing paid the payment
      await h.watchersPassed();
      await jobsOnly.jobs.runOnce();
      expect((await h.getPayment(onBnb.id)).status).toBe('expired');
      expect(await paymentEvents(onBnb.id)).toEqual(['payment.expired']);
    } finally {
      await jobsOnly.close();
    }
  });
});
