// issue 18 case 7: re-signing behind a lagging RPC. The signer's node (behind a proxy) says the
// transfer's nonce is spent and knows no receipt for it, while the transaction itself still sits in
// the real node's pool and can land. The signer looks the stored transaction up by hash before it
// signs anything new for the row, and never signs a second transaction while the first can land:
// the buyer is paid exactly once.
import { EvmRpc } from '@svc/chains';
import { OutboundService, refundWalletKey } from '@svc/outbound';
import { RpcProxy, startRpcProxy } from './support/rpc-proxy';
import { ether, SignerHarness, startSignerHarness } from './support/signer-harness';

jest.setTimeout(120_000);

let h: SignerHarness;
let proxy: RpcProxy;
let s: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 2 });
  proxy = await startRpcProxy(h.node.url);
  // rebroadcast on every step, so the lagging answers are met at once
  s = await h.service({
    rpc: () => new EvmRpc([proxy.url]),
    feePolicy: { rebroadcastAfterSeconds: 0 },
  });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

test('"nonce too low" with no receipt and the nonce spent at a final block, while our transaction is pending: wait, never sign again', async () => {
  const wallet = refundWalletKey(7);
  await h.payer.sendNative(s.address(wallet), ether('1'));
  await h.node.rpc('evm_setAutomine', [false]);
  try {
    const { planned, buyer } = await h.planNativeRefund(s, wallet, ether('0.1'));
    let t = await s.advance(planned.id);
    expect(t.state).toBe('submitted');
    const nonce = t.nonce as bigint;

    // the RPC the signer reads is now out of step with the node that holds the transaction
    proxy.intercept = (call) => {
      switch (call.method) {
        case 'eth_sendRawTransaction':
          return { error: { code: -32000, message: 'nonce too low' } };
        case 'eth_getTransactionReceipt':
          return { result: null };
        case 'eth_getTransactionCount':
          return { result: `0x${(nonce + 1n).toString(16)}` };
        default:
          return undefined;
      }
    };
    for (let i = 0; i < 3; i++) t = await s.advance(planned.id);
    const attempts = await s.attempts(planned.id);
    expect(attempts.map((a) => a.nonce)).toEqual([nonce]);
    expect(t).toMatchObject({ state: 'submitted', nonce });

    // the node catches up: the one transaction lands and the buyer is paid once
    proxy.intercept = null;
    await h.node.rpc('evm_setAutomine', [true]);
    await h.node.rpc('evm_mine');
    t = await h.drive(s, planned.id);
    expect(t.state).toBe('completed');
    expect(await h.nativeBalance(buyer)).toBe(ether('0.1'));
    expect((await s.attempts(planned.id)).map((a) => a.nonce)).toEqual([nonce]);
  } finally {
    proxy.intercept = null;
    await h.node.rpc('evm_setAutomine', [true]);
  }
});
