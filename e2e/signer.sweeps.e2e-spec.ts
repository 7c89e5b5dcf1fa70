// Money out on a real Anvil with a real OpenZeppelin ERC-20: a native sweep leaves exactly 0
// behind, a token sweep moves the whole token balance after a gas top-up of exactly its fee, and
// the fee is known before signing (type-2 with maxPriorityFeePerGas = maxFeePerGas, or legacy
// gasPrice). The same on a chain with EIP-1559 (Anvil's latest hardfork) and one without (berlin).
import { randomUUID } from 'node:crypto';
import { generateMnemonic } from '@svc/chains';
import { depositKey, GAS_TANK_KEY, OutboundService, refundWalletKey } from '@svc/outbound';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

const FIGURES: Record<string, unknown> = {};

afterAll(() =>
  console.log(`signer figures ${JSON.stringify(FIGURES, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}`),
);

describe.each([
  ['eip1559', undefined],
  ['legacy', 'berlin'],
] as const)('%s fees', (feeType, hardfork) => {
  let h: SignerHarness;
  let s: OutboundService;
  let index = 0n;
  const nextDeposit = () => ++index;

  beforeAll(async () => {
    h = await startSignerHarness({ hardfork });
    s = await h.service();
  });
  afterAll(() => h.close());

  const priceOf = (t: { maxFeePerGas: bigint | null; gasPrice: bigint | null }) =>
    (feeType === 'eip1559' ? t.maxFeePerGas : t.gasPrice) as bigint;

  test('native sweep: the destination gets the balance minus exactly the fee, 0 wei stays behind', async () => {
    const i = nextDeposit();
    const deposit = s.address(depositKey(i));
    const funded = ether('1.234567890123456789');
    await h.payer.sendNative(deposit, funded);
    const to = freshAddress();

    const planned = await s.planNativeSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: i,
      to,
    });
    expect(planned.state).toBe('planned');
    const t = await h.drive(s, planned.id);

    expect(t.state).toBe('completed');
    expect(t.feeType).toBe(feeType);
    const price = priceOf(t);
    if (feeType === 'eip1559') expect(t.maxPriorityFeePerGas).toBe(t.maxFeePerGas);
    expect(t.gasLimit).toBe(21_000n);
    expect(t.gasUsed).toBe(21_000n);
    expect(t.effectiveGasPrice).toBe(price); // the price paid is exactly the one signed
    expect(t.feeAtomic).toBe(21_000n * price);
    expect(await h.nativeBalance(deposit)).toBe(0n);
    expect(await h.nativeBalance(to)).toBe(funded - 21_000n * price);
    expect(t.amountAtomic).toBe(funded - 21_000n * price);
    expect(t.confirmations).toBeGreaterThanOrEqual(2);
    expect(await s.attempts(t.id)).toHaveLength(1);
    FIGURES[`${feeType} native sweep`] = { gasUsed: t.gasUsed, price, fee: t.feeAtomic, dust: 0n };
  });

  test('token sweep: a top-up of exactly the fee, the whole token balance moves, 0 tokens stay behind', async () => {
    await h.payer.sendNative(s.address(GAS_TANK_KEY), ether('1'));
    const i = nextDeposit();
    const deposit = s.address(depositKey(i));
    const amount = ether('250.5');
    await h.payer.sendToken(h.token, deposit, amount);
    const to = freshAddress();

    const check = await s.check({
      chain: h.chain,
      network: h.network,
      from: depositKey(i),
      to,
      token: h.token,
      amount: 'all',
    });
    expect(check).toEqual(expect.objectContaining({ ok: true, amountAtomic: amount }));

    const planned = await s.planTokenSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: i,
      to,
      token: h.token,
    });
    const t = await h.drive(s, planned.id);
    expect(t.state).toBe('completed');
    const [first] = await s.topUps(t.id);
    const topUp = await h.drive(s, first.id); // the runner finishes the top-up's own bookkeeping
    expect(topUp).toEqual(expect.objectContaining({ state: 'completed', purpose: 'gas', toAddress: deposit }));
    const price = priceOf(t);
    // the top-up is exactly gasLimit × price of the token transfer, itself a 21,000-gas transfer
    expect(topUp.amountAtomic).toBe((t.gasLimit as bigint) * price);
    expect(topUp.gasUsed).toBe(21_000n);
    expect(t.effectiveGasPrice).toBe(price);
    expect(t.feeAtomic).toBe((t.gasUsed as bigint) * price);

    expect(await h.tokenBalance(to)).toBe(amount);
    expect(await h.tokenBalance(deposit)).toBe(0n);
    expect(t.amountAtomic).toBe(amount);
    // what stays is the gas the chain refunds for clearing the sender's balance slot (EIP-3529), × price
    const dust = await h.nativeBalance(deposit);
    expect(dust).toBe(((t.gasLimit as bigint) - (t.gasUsed as bigint)) * price);
    expect(dust).toBeLessThan(topUp.amountAtomic as bigint);
    FIGURES[`${feeType} token sweep`] = {
      tokenTransferGasLimit: t.gasLimit,
      tokenTransferGasUsed: t.gasUsed,
      topUpGasUsed: topUp.gasUsed,
      merchantGasPerSweep: (t.gasUsed as bigint) + (topUp.gasUsed as bigint),
      price,
      topUpAtomic: topUp.amountAtomic,
      feesPaid: (t.feeAtomic as bigint) + (topUp.feeAtomic as bigint),
      nativeDustAtDeposit: dust,
      tokenDust: 0n,
    };
  });

  test('refunds from a refund wallet: exact token amount (gas from the tank) and exact native amount', async () => {
    const wallet = refundWalletKey(0);
    const walletAddress = s.address(wallet);
    await h.payer.sendToken(h.token, walletAddress, ether('10'));
    await h.payer.sendNative(walletAddress, ether('0.01'));
    const buyer = freshAddress();

    const tokenRefund = await s.planRefund({
      chain: h.chain,
      network: h.network,
      refundId: randomUUID(),
      from: wallet,
      to: buyer,
      token: h.token,
      amountAtomic: ether('3.25'),
    });
    const nativeRefund = await s.planRefund({
      chain: h.chain,
      network: h.network,
      refundId: randomUUID(),
      from: wallet,
      to: buyer,
      token: null,
      amountAtomic: ether('0.004'),
    });
    const [a, b] = [await h.drive(s, tokenRefund.id), await h.drive(s, nativeRefund.id)];
    expect([a.state, b.state]).toEqual(['completed', 'completed']);
    expect(await h.tokenBalance(buyer)).toBe(ether('3.25'));
    expect(await h.nativeBalance(buyer)).toBe(ether('0.004'));
    expect(await h.tokenBalance(walletAddress)).toBe(ether('6.75'));
    // the wallet held native coin already: the token refund needed no top-up
    expect(await s.topUps(a.id)).toEqual([]);
    expect(b.nonce).toBe(a.nonce === null ? null : a.nonce + 1n);
  });

  test('"can it pay?": the gas tank or the wallet too low is a reason, not an error', async () => {
    const to = freshAddress();
    // another seed: its gas tank is empty
    const other = await h.service({ mnemonic: generateMnemonic() });
    await h.payer.sendToken(h.token, other.address(depositKey(1)), ether('5'));
    const sweep = {
      chain: h.chain,
      network: h.network,
      from: depositKey(1),
      to,
      token: h.token,
      amount: 'all' as const,
    };
    expect(await other.check(sweep)).toEqual(
      expect.objectContaining({ ok: false, waitReason: 'gas_tank_low', reason: expect.stringContaining('gas tank') }),
    );
    await h.payer.sendNative(other.address(GAS_TANK_KEY), 1000n);
    expect(await other.check(sweep)).toEqual(expect.objectContaining({ ok: false, waitReason: 'gas_tank_low' }));
    await h.payer.sendNative(other.address(GAS_TANK_KEY), ether('0.01'));
    expect(await other.check(sweep)).toEqual(expect.objectContaining({ ok: true, amountAtomic: ether('5') }));

    const empty = await s.check({
      chain: h.chain,
      network: h.network,
      from: depositKey(999),
      to,
      token: null,
      amount: 'all',
    });
    expect(empty).toEqual(expect.objectContaining({ ok: false, waitReason: 'nothing_to_send' }));

    const wallet = refundWalletKey(7);
    const tooLittle = await s.check({
      chain: h.chain,
      network: h.network,
      from: wallet,
      to,
      token: h.token,
      amount: 1n,
    });
    expect(tooLittle).toEqual(expect.objectContaining({ ok: false, waitReason: 'balance_low' }));

    await h.payer.sendToken(h.token, s.address(wallet), 5n);
    await h.payer.sendNative(s.address(GAS_TANK_KEY), ether('0.01'));
    const tank = await s.gasTank(h.chain, h.network);
    expect(tank.address).toBe(s.address(GAS_TANK_KEY));
    const ok = await s.check({ chain: h.chain, network: h.network, from: wallet, to, token: h.token, amount: 5n });
    expect(ok).toEqual(expect.objectContaining({ ok: true, amountAtomic: 5n }));
    if (ok.ok) {
      expect(ok.topUpAtomic).toBe(ok.gasLimit * ok.quote.price);
      expect(ok.topUpFeeAtomic).toBe(21_000n * ok.quote.price);
    }

    const balances = await s.balances(h.chain, h.network, s.address(wallet));
    expect(balances).toEqual([
      { symbol: 'USDC', tokenAddress: h.token, decimals: 18, amountAtomic: 5n },
      { symbol: 'BNB', tokenAddress: null, decimals: 18, amountAtomic: 0n },
      // the built-in mainnet USDT of the registry has no contract on this devnet
      expect.objectContaining({
        symbol: 'USDT',
        amountAtomic: null,
        error: expect.stringContaining('no ERC-20 contract'),
      }),
    ]);
  });
});
