// Crash safety (money contract › Payouts 5): a signer process is SIGKILLed right after the signed
// transaction is stored (before broadcast) and right after the broadcast (before it is recorded),
// then restarted. Exactly one transfer reaches the destination (balances on chain), the row
// completes, nothing is signed twice and no second top-up is paid. The signer runs as a real
// child process (the same code through swc); the kill comes from the SVC_SIGNER_CRASH_AT hook,
// which is honoured only when SVC_ENV=test.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { HDNodeWallet } from 'ethers';
import { depositKey, GAS_TANK_KEY, OutboundService, refundWalletKey } from '@svc/outbound';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

const ROOT = path.resolve(__dirname, '..');
let h: SignerHarness;
let s: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 1 });
  s = await h.service();
});
afterAll(() => h.close());

/** One run of the signer process; resolves with how it ended. */
function runSigner(
  crashAt?: 'after_sign' | 'after_broadcast',
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SVC_ENV: 'test',
    DATABASE_URL: h.databaseUrl,
    SVC_CHAINS_FILE: h.chainsFile,
    SVC_MNEMONIC: h.mnemonic,
  };
  if (crashAt) env.SVC_SIGNER_CRASH_AT = crashAt;
  const child = spawn(
    process.execPath,
    ['-e', `require('./scripts/swc-register.js'); require('./e2e/support/signer-child.ts')`, h.chain, h.network],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

test('native sweep: killed after signing, then after broadcasting; the restart pays exactly once', async () => {
  const deposit = s.address(depositKey(1));
  const funded = ether('2');
  await h.payer.sendNative(deposit, funded);
  const to = freshAddress();
  const { id } = await s.planNativeSweep({
    chain: h.chain,
    network: h.network,
    sweepId: randomUUID(),
    depositIndex: 1n,
    to,
  });

  expect(await runSigner('after_sign')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  let t = await s.get(id);
  expect(t.state).toBe('signed'); // stored, never broadcast
  expect(await s.attempts(id)).toHaveLength(1);
  expect(await h.nativeBalance(to)).toBe(0n);

  expect(await runSigner('after_broadcast')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  t = await s.get(id);
  expect(t.state).toBe('signed'); // broadcast (and mined: Anvil auto-mines) but not recorded
  const fee = 21_000n * (t.maxFeePerGas as bigint);
  expect(await h.nativeBalance(to)).toBe(funded - fee);

  const clean = await runSigner();
  expect(clean).toEqual(expect.objectContaining({ code: 0, signal: null }));
  t = await s.get(id);
  expect(t.state).toBe('completed');
  expect(await s.attempts(id)).toHaveLength(1); // the same signed bytes all along
  expect(await h.nativeBalance(to)).toBe(funded - fee); // exactly once
  expect(await h.nativeBalance(deposit)).toBe(0n);
  expect(t.txHash).toBe((await s.attempts(id))[0].txHash);
});

test('token sweep: killed after the top-up broadcast, then after signing the token transfer; one top-up, one transfer', async () => {
  const tank = s.address(GAS_TANK_KEY);
  await h.payer.sendNative(tank, ether('1'));
  const tankBefore = await h.nativeBalance(tank);
  const deposit = s.address(depositKey(2));
  const amount = ether('99.99');
  await h.payer.sendToken(h.token, deposit, amount);
  const to = freshAddress();
  const { id } = await s.planTokenSweep({
    chain: h.chain,
    network: h.network,
    sweepId: randomUUID(),
    depositIndex: 2n,
    to,
    token: h.token,
  });

  // the first thing broadcast is the gas top-up
  expect(await runSigner('after_broadcast')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  let [topUp] = await s.topUps(id);
  expect(topUp.state).toBe('signed');
  expect(await h.nativeBalance(deposit)).toBe(topUp.amountAtomic);

  // the restart finds the top-up's receipt, then signs the token transfer and dies before broadcasting it
  expect(await runSigner('after_sign')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  expect((await s.get(id)).state).toBe('signed');
  expect(await h.tokenBalance(to)).toBe(0n);

  expect(await runSigner()).toEqual(expect.objectContaining({ code: 0, signal: null }));
  const t = await s.get(id);
  expect(t.state).toBe('completed');
  const topUps = await s.topUps(id);
  expect(topUps).toHaveLength(1);
  [topUp] = topUps;
  expect(topUp.state).toBe('completed');
  expect(await s.attempts(topUp.id)).toHaveLength(1);
  expect(await s.attempts(id)).toHaveLength(1);
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(0n);
  // the tank paid one top-up and its fee, nothing more
  expect(await h.nativeBalance(tank)).toBe(tankBefore - (topUp.amountAtomic as bigint) - (topUp.feeAtomic as bigint));
});

test('after a crash the node may already hold the stored transaction: "already known" counts as broadcast', async () => {
  const wallet = refundWalletKey(4);
  await h.payer.sendNative(s.address(wallet), ether('1'));
  const { planned, buyer } = await h.planNativeRefund(s, wallet, ether('0.3'));
  const { id } = planned;
  expect(await runSigner('after_sign')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  const [attempt] = await s.attempts(id);
  await h.node.rpc('evm_setAutomine', [false]);
  try {
    await h.node.rpc('eth_sendRawTransaction', [attempt.rawTx]); // what the killed process had sent
    let t = await s.advance(id);
    expect(t.state).toBe('submitted');
    expect((await s.attempts(id))[0].lastError).toBeNull();
    await h.node.rpc('evm_mine');
    t = await s.advance(id);
    expect(t.state).toBe('completed');
    expect(await h.nativeBalance(buyer)).toBe(ether('0.3'));
  } finally {
    await h.node.rpc('evm_setAutomine', [true]);
  }
});

test('a nonce spent by a transaction the service did not sign: signed again with a new nonce, paid once', async () => {
  const wallet = refundWalletKey(5);
  const walletAddress = s.address(wallet);
  await h.payer.sendNative(walletAddress, ether('1'));
  const { planned, buyer } = await h.planNativeRefund(s, wallet, ether('0.05'));
  const { id } = planned;
  expect(await runSigner('after_sign')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  expect((await s.get(id)).nonce).toBe(0n);

  // someone else holding the seed spends nonce 0 first
  const intruder = HDNodeWallet.fromPhrase(h.mnemonic, undefined, "m/44'/60'/2'/0/5").connect(h.payer.provider);
  expect(intruder.address).toBe(walletAddress);
  await (await intruder.sendTransaction({ to: freshAddress(), value: 1n, nonce: 0, gasLimit: 21_000n })).wait();

  expect(await runSigner()).toEqual(expect.objectContaining({ code: 0, signal: null }));
  const t = await s.get(id);
  expect(t.state).toBe('completed');
  expect(t.nonce).toBe(1n);
  const attempts = await s.attempts(id);
  expect(attempts.map((a) => a.nonce)).toEqual([0n, 1n]);
  expect(t.txHash).toBe(attempts[1].txHash);
  expect(await h.nativeBalance(buyer)).toBe(ether('0.05'));
});
