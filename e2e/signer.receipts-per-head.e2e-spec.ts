// A run over a rail reads the receipts of its open transfers' attempts in one batch (evm-rail.ts ›
// receipts). A transaction is mined only in a block made after it was sent: one sent while the head
// was block B, or whose receipt was missing while the head was B, is not asked for by a run that
// sees B as its head, and is read, and recorded, as soon as the head is another block, a block at
// the same height with another hash (a reorg) included. On a chain slower than the signer's ticks
// these reads were a third of a token sweep's JSON-RPC calls.
import { EvmRpc } from '@svc/chains';
import { OutboundService, refundWalletKey } from '@svc/outbound';
import { RpcProxy, RpcRequest, startRpcProxy } from './support/rpc-proxy';
import { ether, SignerHarness, startSignerHarness } from './support/signer-harness';

jest.setTimeout(120_000);

let h: SignerHarness;
let proxy: RpcProxy;
let s: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 1 });
  proxy = await startRpcProxy(h.node.url);
  s = await h.service({ rpc: () => new EvmRpc([proxy.url]) });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

const receiptReads = (hash: string): RpcRequest[] =>
  proxy.calls.filter((c) => c.method === 'eth_getTransactionReceipt' && c.params?.[0] === hash);

async function run(): Promise<void> {
  const report = await s.runPending(h.chain, h.network);
  expect(report?.errors).toEqual([]);
}

test('a receipt is not asked for while the head is the block it was sent at or found missing at; a new block, or another block at the same height, reads it again', async () => {
  const wallet = refundWalletKey(21);
  await h.payer.sendNative(s.address(wallet), ether('1'));
  await h.node.rpc('evm_setAutomine', [false]);
  try {
    const { planned, buyer } = await h.planNativeRefund(s, wallet, ether('0.1'));
    await run(); // signs and broadcasts; the transaction waits in the node's pool
    expect((await s.get(planned.id)).state).toBe('submitted');
    const [attempt] = await s.attempts(planned.id);

    proxy.calls.length = 0;
    await run(); // sent while the head was block B: not in B, not asked for
    await run();
    expect(receiptReads(attempt.txHash)).toHaveLength(0);
    expect((await s.get(planned.id)).state).toBe('submitted');

    // the node answers another block at the same height (a reorg): read again
    const latest = await h.node.rpc<Record<string, unknown>>('eth_getBlockByNumber', ['latest', false]);
    proxy.intercept = (call) =>
      call.method === 'eth_getBlockByNumber' && call.params?.[0] === 'latest'
        ? { result: { ...latest, hash: `0x${'ab'.repeat(32)}` } }
        : undefined;
    proxy.calls.length = 0;
    await run(); // read again: missing at that block
    await run(); // not asked again while it is the head
    expect(receiptReads(attempt.txHash)).toHaveLength(1);
    proxy.intercept = null;

    // a block comes with the transaction: the next run reads its receipt and records it
    await h.node.rpc('evm_mine');
    proxy.calls.length = 0;
    await run();
    expect(receiptReads(attempt.txHash)).toHaveLength(1);
    const t = await s.get(planned.id);
    expect(t.state).toBe('completed');
    expect(await h.nativeBalance(buyer)).toBe(ether('0.1'));
    expect(await s.attempts(planned.id)).toHaveLength(1);
  } finally {
    proxy.intercept = null;
    await h.node.rpc('evm_setAutomine', [true]);
  }
});
