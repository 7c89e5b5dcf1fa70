// issue 18, the money engine: each numbered case of the issue on a real devnet (Anvil), the real
// API, the listener and the payout process run by run (e2e/support/payouts-harness). Balances are
// read on chain. Each test failed on the build before its fix (56be2c5).
import { Wallet } from 'ethers';
import type { Merchant } from './factories/merchant.factory';
import type { Row } from './support/listener-harness';
import { PayoutsHarness, startPayoutsHarness } from './support/payouts-harness';

jest.setTimeout(300_000);

const DELAY_SECONDS = 600;
const E18 = 10n ** 18n;
let h: PayoutsHarness;
let m: Merchant;
let settlement: string;

const refund = (paymentId: string, body: Record<string, unknown> = {}) =>
  m.post(`/v1/payments/${paymentId}/refund`).send(body);

beforeAll(async () => {
  h = await startPayoutsHarness({ env: { SVC_PAYOUT_DELAY_SECONDS: String(DELAY_SECONDS) } });
  m = h.m;
  settlement = Wallet.createRandom().address;
  await h.activeAddress(m, 'bnb', 'mainnet', settlement);
  await h.fundGasTank('bnb', 'mainnet', 10n * E18);
});
afterAll(() => h?.close());

/** Payout runs (a block mined between them) until the refund reaches `status`. */
async function settleRefund(id: string, status = 'completed'): Promise<Row> {
  let last: Row = {};
  for (let i = 0; i < 20; i++) {
    await h.runPayouts();
    last = (await m.get(`/v1/refunds/${id}`)).body as Row;
    if (last.status === status) return last;
    await h.mineAll(1);
  }
  throw new Error(`refund ${id} did not reach ${status}; last seen ${JSON.stringify(last)}`);
}

async function refundWallet(): Promise<string> {
  const wallets = (await m.get('/v1/refund-wallets')).body as Row[];
  return wallets.find((w) => w.chain === 'bnb' && w.network === 'mainnet')!.address as string;
}

describe('case 1: a refund from the refund wallet before the payout does not strand the deposit', () => {
  test('pay 1 BNB, full refund from the funded wallet within the payout delay: after the delay the deposit is paid out in full (less the fee)', async () => {
    const wallet = await refundWallet();
    await h.payer('bnb').sendNative(wallet, 2n * E18);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    const payer = h.payer('bnb').address;
    const before = await h.nativeBalance('bnb', 'mainnet', payer);

    const created = await refund(payment.id, {});
    expect(created.status).toBe(201);
    // the deposit cannot pay 1 BNB and its own fee: the wallet pays (money contract › Refunds 4)
    const done = await settleRefund(created.body.id);
    expect(done).toMatchObject({ source: 'refund_wallet', amount: '1' });
    expect((await h.nativeBalance('bnb', 'mainnet', payer)) - before).toBe(E18);
    expect((await m.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(E18);

    await h.advanceClock(DELAY_SECONDS + 1);
    const settlementBefore = await h.nativeBalance('bnb', 'mainnet', settlement);
    const [sweep] = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
    const received = (await h.nativeBalance('bnb', 'mainnet', settlement)) - settlementBefore;
    expect(received).toBe(BigInt(sweep.amountAtomic as string));
    expect(received).toBeGreaterThan(E18 - 10n ** 15n); // 1 BNB less only the fee
  });
});

describe('case 5: refunds to our own addresses and below the minimum are refused (money contract › Refunds 3)', () => {
  test('a deposit address, the token contract, the gas tank, a refund wallet: 400 naming it; 1 atomic unit: 400 at minRefund; nothing written', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '2', currency: 'USDC' });
    const other = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    const wallet = ((await m.get('/v1/refund-wallets')).body as Row[]).find((w) => w.chain === 'bnb')!;
    const cases: Array<[string, string]> = [
      [payment.paymentAddress as string, 'a deposit address of this service'],
      [(other.paymentAddress as string).toLowerCase(), 'a deposit address of this service'],
      [h.devnet.get('bnb').tokens.USDC, 'the USDC token contract'],
      [h.gasTankAddress(), "this service's gas tank"],
      [wallet.address as string, 'a refund wallet of this service'],
    ];
    for (const [toAddress, what] of cases) {
      const res = await refund(payment.id, { amount: '1', toAddress });
      expect([toAddress, res.status, res.body]).toEqual([
        toAddress,
        400,
        { statusCode: 400, error: 'Bad Request', message: `toAddress must be the buyer's wallet, not ${what}.` },
      ]);
    }
    const tiny = await refund(payment.id, { amount: '0.000000000000000001', toAddress: Wallet.createRandom().address });
    expect(tiny.status).toBe(400);
    expect(tiny.body.message).toBe('amount must be at least 0.01 USDC.');
    expect((await m.get('/v1/refunds')).body.filter((r: Row) => r.paymentId === payment.id)).toEqual([]);
    // at the minimum it is accepted
    const ok = await refund(payment.id, { amount: '0.01', toAddress: Wallet.createRandom().address });
    expect(ok.status).toBe(201);
  });
});
