// The Sui rail's sponsored transfer (issue 22 step 2's building block, libs/outbound/src/rails/sui/
// sui-sponsored.ts, which the engine's Sui rail signs with) on the Sui devnet: the deposit address is the
// sender, the Sui gas tank the gas owner; all of the deposit's USDC moves in one transaction and it
// keeps nothing; executing the stored bytes again pays nothing twice; the fence (gas coin + input
// versions) tells a dead attempt from a landed one; the tank's gas coins are handed out once.
import { DevSui, DEV_SUI_SETTLEMENT, DEV_SUI_USDC, SUI, fundDevSuiAccount, startDevSui } from '@svc/devnet';
import { generateMnemonic, SuiNode } from '@svc/chains';
import { SuiKeyring, depositKey, refundWalletKey } from '@svc/outbound';
import { SuiSponsoredRail } from '../libs/outbound/src/rails/sui/sui-sponsored';

jest.setTimeout(60_000);

const mnemonic = generateMnemonic();
const keyring = new SuiKeyring(mnemonic);
let sui: DevSui;
let rail: SuiSponsoredRail;

beforeAll(async () => {
  sui = await startDevSui({ checkpointIntervalMs: 50 });
  rail = new SuiSponsoredRail(new SuiNode(sui.server.url), keyring);
  // two gas coins in the tank
  await fundDevSuiAccount(sui, keyring.gasTankAddress, { sui: 2n * 10n ** 9n, usdc: 0n });
  await fundDevSuiAccount(sui, keyring.gasTankAddress, { sui: 2n * 10n ** 9n, usdc: 0n });
});
afterAll(async () => {
  await sui?.stop();
});

const BUDGET = 10_000_000n;
const chain = () => sui.server.chain;

async function sweepPlan(index: number, reserved: Set<string> = new Set()) {
  const sender = keyring.address(depositKey(index));
  const gasCoin = await rail.pickGasCoin(reserved, BUDGET);
  if (!gasCoin) throw new Error('no free gas coin');
  return {
    sender,
    senderKey: depositKey(index),
    to: DEV_SUI_SETTLEMENT.toSuiAddress(),
    coinType: DEV_SUI_USDC,
    amount: 'all' as const,
    inputs: await rail.node.coins(sender, DEV_SUI_USDC),
    gasCoin,
    gasPrice: await rail.referenceGasPrice(),
    gasBudget: BUDGET,
  };
}

test('a sweep of a deposit paid in three parts: one sponsored transaction, all USDC moved, no dust, tank pays gas', async () => {
  const deposit = keyring.address(depositKey(0));
  for (const usdc of [10_000_000n, 2_500_000n, 1n]) await fundDevSuiAccount(sui, deposit, { sui: 0n, usdc });
  const settlementBefore = chain().balanceOf(DEV_SUI_SETTLEMENT.toSuiAddress(), DEV_SUI_USDC);
  const tankBefore = chain().balanceOf(keyring.gasTankAddress, SUI);

  const attempt = await rail.sign(await sweepPlan(0));
  expect(attempt.amountAtomic).toBe(12_500_001n);
  expect(attempt.fence.inputs).toHaveLength(3);
  expect(await rail.effects(attempt.digest)).toBeNull(); // stored, not executed: unknown to the node
  expect(await rail.fenceDead(attempt)).toBe(false);

  const outcome = await rail.execute(attempt);
  expect(outcome).toMatchObject({ kind: 'executed', effects: { digest: attempt.digest, success: true } });
  const { effects } = outcome as { effects: { gasPaid: bigint; computationCost: bigint } };
  expect(chain().transaction(attempt.digest)).toMatchObject({ status: 'SUCCESS', sender: deposit });
  expect(chain().balanceOf(DEV_SUI_SETTLEMENT.toSuiAddress(), DEV_SUI_USDC)).toBe(settlementBefore + 12_500_001n);
  expect(chain().balanceOf(deposit, DEV_SUI_USDC)).toBe(0n);
  expect(chain().coinsOf(deposit)).toHaveLength(0); // no zero coin left behind, and it never held SUI
  expect(chain().balanceOf(keyring.gasTankAddress, SUI)).toBe(tankBefore - effects.gasPaid);
  // the storage rebate of the deposit's merged-away coins goes to the gas owner: with three coins
  // the tank gets back more than the computation costs (gasPaid < 0), as on Sui
  expect(effects.computationCost).toBeGreaterThan(0n);

  // a restart after execution: the digest's effects are found; the same bytes again pay nothing twice
  expect(await rail.effects(attempt.digest)).toMatchObject({ success: true, gasPaid: effects.gasPaid });
  expect(await rail.fenceDead(attempt)).toBe(false);
  const again = await rail.execute(attempt).catch((err: Error) => ({ kind: 'threw', message: err.message }));
  expect(again.kind).not.toBe('threw');
  expect(chain().balanceOf(DEV_SUI_SETTLEMENT.toSuiAddress(), DEV_SUI_USDC)).toBe(settlementBefore + 12_500_001n);
});

test('an attempt whose input coin another transaction consumed is provably dead; the next one lands', async () => {
  const deposit = keyring.address(depositKey(1));
  await fundDevSuiAccount(sui, deposit, { sui: 0n, usdc: 5_000_000n });
  const stale = await rail.sign(await sweepPlan(1));
  // another signed transaction of the same coins lands first (a second sweep of the same row signed
  // on the same versions: same inputs, another gas coin)
  const other = await rail.sign(await sweepPlan(1, new Set([stale.fence.gasCoin.objectId])));
  expect(other.digest).not.toBe(stale.digest);
  expect(await rail.execute(other)).toMatchObject({ kind: 'executed', effects: { success: true } });
  expect(await rail.fenceDead(stale)).toMatch(/is no longer at version/);
  const refused = await rail.execute(stale);
  expect(refused.kind).toBe('rejected');
  expect(chain().balanceOf(deposit, DEV_SUI_USDC)).toBe(0n);
});

test('gas coins held by an open attempt are not handed out again', async () => {
  const coins = await rail.node.coins(keyring.gasTankAddress, SUI);
  expect(coins.length).toBeGreaterThanOrEqual(2);
  const first = await rail.pickGasCoin(new Set(), BUDGET);
  const second = await rail.pickGasCoin(new Set([first!.objectId]), BUDGET);
  expect(second).not.toBeNull();
  expect(second!.objectId).not.toBe(first!.objectId);
  expect(await rail.pickGasCoin(new Set(coins.map((c) => c.objectId)), BUDGET)).toBeNull();
});

test('an exact SUI refund from the refund wallet, gas sponsored by the tank: exactly the amount arrives', async () => {
  const wallet = keyring.address(refundWalletKey(0));
  await fundDevSuiAccount(sui, wallet, { sui: 3n * 10n ** 9n, usdc: 0n });
  const to = DEV_SUI_SETTLEMENT.toSuiAddress();
  const before = chain().balanceOf(to, SUI);
  const gasCoin = await rail.pickGasCoin(new Set(), BUDGET);
  const attempt = await rail.sign({
    sender: wallet,
    senderKey: refundWalletKey(0),
    to,
    coinType: SUI,
    amount: 1_250_000_000n,
    inputs: await rail.node.coins(wallet, SUI),
    gasCoin: gasCoin!,
    gasPrice: await rail.referenceGasPrice(),
    gasBudget: BUDGET,
  });
  expect(await rail.execute(attempt)).toMatchObject({ kind: 'executed', effects: { success: true } });
  expect(chain().balanceOf(to, SUI)).toBe(before + 1_250_000_000n);
  expect(chain().balanceOf(wallet, SUI)).toBe(3n * 10n ** 9n - 1_250_000_000n); // the wallet paid no gas
});
