// Stuck transactions (money contract › Payouts 5): Anvil without auto-mining, and a block whose
// base fee jumps far above the price signed, so the transaction cannot be mined. After the stuck
// time the signer stores a replacement (same nonce, every fee field raised by at least 10 %, the
// market's price when higher) before broadcasting it; a token transfer's replacement first gets
// the extra gas it needs from the gas tank; the cap stops further raises.
import { randomUUID } from 'node:crypto';
import { HDNodeWallet, Interface, toQuantity } from 'ethers';
import { depositKey, GAS_TANK_KEY, OutboundService, refundWalletKey } from '@svc/outbound';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

const STUCK_AFTER = 120;
const ERC20_APPROVE = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
]);
let h: SignerHarness;
let s: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 2, feePolicy: { stuckAfterSeconds: STUCK_AFTER } });
  s = await h.service();
});
afterAll(() => h.close());

const automine = (on: boolean) => h.node.rpc('evm_setAutomine', [on]);
const mineWithBaseFee = async (baseFee: bigint) => {
  await h.node.rpc('anvil_setNextBlockBaseFeePerGas', [toQuantity(baseFee)]);
  await h.node.rpc('evm_mine');
};
const mine = () => h.node.rpc('evm_mine');
const receipt = (hash: string) => h.node.rpc<{ status: string } | null>('eth_getTransactionReceipt', [hash]);

async function finish(service: OutboundService, id: string) {
  let t = await service.advance(id);
  for (let i = 0; i < 5 && t.state !== 'completed' && t.state !== 'failed'; i++) {
    await mine();
    t = await service.advance(id);
  }
  return t;
}

test('a stuck refund is replaced with the same nonce at a higher fee and completes once', async () => {
  const wallet = refundWalletKey(1);
  await h.payer.sendNative(s.address(wallet), ether('1'));
  await automine(false);
  const { planned, buyer } = await h.planNativeRefund(s, wallet, ether('0.1'));
  let t = await s.advance(planned.id);
  expect(t.state).toBe('submitted');
  const first = t.maxFeePerGas as bigint;

  await mineWithBaseFee(first * 20n); // the base fee jumps: the transaction cannot be included
  t = await s.advance(planned.id);
  expect(t.state).toBe('submitted'); // not stuck yet: nothing new signed
  expect(await s.attempts(t.id)).toHaveLength(1);

  h.clock.advance(STUCK_AFTER);
  t = await s.advance(planned.id);
  const attempts = await s.attempts(t.id);
  expect(attempts).toHaveLength(2);
  const [a1, a2] = attempts;
  expect(a2.nonce).toBe(a1.nonce);
  expect(a2.maxFeePerGas as bigint).toBeGreaterThanOrEqual(((a1.maxFeePerGas as bigint) * 110n) / 100n);
  expect(a2.maxPriorityFeePerGas).toBe(a2.maxFeePerGas);
  expect(a2.broadcastAt).not.toBeNull(); // stored, then broadcast
  expect(t.state).toBe('submitted');

  t = await finish(s, t.id);
  expect(t.state).toBe('completed');
  expect(t.txHash).toBe(a2.txHash);
  expect(await receipt(a1.txHash)).toBeNull();
  expect(await h.nativeBalance(buyer)).toBe(ether('0.1'));
  expect(await h.nativeBalance(s.address(wallet))).toBe(ether('0.9') - 21_000n * (a2.maxFeePerGas as bigint));
});

test('the cap stops the raises; the transfer still completes once the price falls', async () => {
  const wallet = refundWalletKey(2);
  await automine(true);
  await h.payer.sendNative(s.address(wallet), ether('1'));
  await automine(false);
  const { planned, buyer } = await h.planNativeRefund(s, wallet, ether('0.2'));
  const signed = await s.advance(planned.id);
  const first = signed.maxFeePerGas as bigint;
  const cap = (first * 3n) / 2n;
  const capped = await h.service({ feePolicy: { stuckAfterSeconds: STUCK_AFTER, maxFeePerGas: cap } });

  await mineWithBaseFee(first * 20n);
  h.clock.advance(STUCK_AFTER);
  let t = await capped.advance(planned.id);
  let attempts = await capped.attempts(t.id);
  expect(attempts).toHaveLength(2);
  expect(attempts[1].maxFeePerGas).toBe(cap); // the market wants more; the cap is the most it gets
  expect(attempts[1].lastError).toMatch(/base fee/); // the node would not take it at this price either

  h.clock.advance(STUCK_AFTER);
  t = await capped.advance(planned.id);
  expect(t.state).toBe('submitted');
  expect(t.waitReason).toBe('fee_above_cap');
  h.clock.advance(STUCK_AFTER);
  t = await capped.advance(planned.id);
  attempts = await capped.attempts(t.id);
  expect(attempts).toHaveLength(2); // no further raise

  await mineWithBaseFee(1n); // the price falls
  // Anvil dropped the too-cheap transaction from its pool; the newest attempt is handed to it again
  h.clock.advance(30);
  t = await finish(capped, t.id);
  expect(t.state).toBe('completed');
  expect(attempts.map((a) => a.txHash)).toContain(t.txHash);
  expect(await h.nativeBalance(buyer)).toBe(ether('0.2'));
});

test('a stuck token sweep: the replacement gets the extra gas from the tank first', async () => {
  await automine(true);
  await h.payer.sendNative(s.address(GAS_TANK_KEY), ether('1'));
  const deposit = s.address(depositKey(5));
  const amount = ether('12.5');
  await h.payer.sendToken(h.token, deposit, amount);
  await automine(false);
  const to = freshAddress();
  const planned = await s.planTokenSweep({
    chain: h.chain,
    network: h.network,
    sweepId: randomUUID(),
    depositIndex: 5n,
    to,
    token: h.token,
  });

  let t = await s.advance(planned.id); // fee fixed, top-up signed and broadcast
  expect(t.waitReason).toBe('waiting_for_top_up');
  await mine();
  t = await s.advance(planned.id); // the top-up is mined: the token transfer is signed at the fixed price
  expect(t.state).toBe('submitted');
  const price = t.maxFeePerGas as bigint;

  await mineWithBaseFee(price * 20n);
  h.clock.advance(STUCK_AFTER);
  t = await s.advance(planned.id);
  expect(t.state).toBe('replacing'); // the higher fee is decided; its extra gas is on the way
  expect(t.waitReason).toBe('waiting_for_top_up');
  const [, extra] = await s.topUps(t.id);
  const gasLimit = t.gasLimit as bigint;
  const newPrice = t.maxFeePerGas as bigint;
  expect(extra.amountAtomic).toBe(gasLimit * (newPrice - price)); // exactly the difference

  await mine(); // the extra top-up is mined (the stuck transfer is still too cheap)
  t = await finish(s, planned.id);
  expect(t.state).toBe('completed');
  const attempts = await s.attempts(t.id);
  expect(attempts).toHaveLength(2);
  expect(t.txHash).toBe(attempts[1].txHash);
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(0n);
  // left: the refunded gas of clearing the balance slot, at the replacement's price
  expect(await h.nativeBalance(deposit)).toBe((gasLimit - (t.gasUsed as bigint)) * newPrice);
});

test('failed only when the mined transaction reverted: the row says so once that is final', async () => {
  await automine(true);
  const wallet = refundWalletKey(3);
  const walletAddress = s.address(wallet);
  await h.payer.sendNative(walletAddress, ether('1'));
  await h.payer.sendToken(h.token, walletAddress, ether('4'));
  // the wallet lets someone else move its tokens (a stand-in for anything that empties it meanwhile)
  const outside = HDNodeWallet.fromPhrase(h.mnemonic, undefined, "m/44'/60'/2'/0/3").connect(h.payer.provider);
  await (
    await outside.sendTransaction({
      to: h.token,
      data: ERC20_APPROVE.encodeFunctionData('approve', [h.payer.address, ether('4')]),
    })
  ).wait();

  await automine(false);
  const buyer = freshAddress();
  const planned = await s.planRefund({
    chain: h.chain,
    network: h.network,
    refundId: randomUUID(),
    from: wallet,
    to: buyer,
    token: h.token,
    amountAtomic: ether('4'),
  });
  let t = await s.advance(planned.id);
  expect(t.state).toBe('submitted');
  // the same block first takes the tokens away (a higher tip is mined first): the refund reverts
  const price = t.maxFeePerGas as bigint;
  await h.payer.wallet.sendTransaction({
    to: h.token,
    data: ERC20_APPROVE.encodeFunctionData('transferFrom', [walletAddress, h.payer.address, ether('4')]),
    gasLimit: 100_000n,
    maxFeePerGas: price * 10n,
    maxPriorityFeePerGas: price * 10n,
  });
  await mine();
  t = await s.advance(planned.id);
  expect(t.state).toBe('mined'); // reverted, not final yet
  await mine();
  t = await s.advance(planned.id);
  expect(t.state).toBe('failed');
  expect(t.error).toMatch(/^reverted in block \d+/);
  expect(t.feeAtomic).toBe((t.gasUsed as bigint) * price); // a reverted transaction still costs its fee
  expect(await h.tokenBalance(buyer)).toBe(0n);
  await automine(true);
});
