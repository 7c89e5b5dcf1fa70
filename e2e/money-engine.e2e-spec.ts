// issue 18, the money engine: each numbered case of the issue on a real devnet (Anvil), the real
// API, the listener and the payout process run by run (e2e/support/payouts-harness). Balances are
// read on chain. Each test failed on the build before its fix (56be2c5).
import { Wallet } from 'ethers';
import { WorkspacesService } from '@svc/workspaces';
import { startPayoutPair } from './support/payout-pair';
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

// A forwarder whose receive() stores the value it gets (more than the 2,300 gas an estimate at value 0 leaves room for):
// CALLVALUE ISZERO PUSH1 9 JUMPI CALLVALUE PUSH1 0 SSTORE JUMPDEST STOP
const STORES_ON_VALUE = '0x3415600957346000555b00';
// PUSH1 0 PUSH1 0 REVERT: refuses everything
const REFUSES = '0x60006000fd';
const setCode = (address: string, code: string) => h.payer('bnb').provider.send('anvil_setCode', [address, code]);
const eventsOf = async (type: string, sweepId: string): Promise<Array<Record<string, any>>> =>
  (
    await h.t.db.query(
      `SELECT data FROM events WHERE type = $1 AND data->'sweep'->>'id' = $2 ORDER BY created_at, id`,
      [type, sweepId],
    )
  ).map((r: { data: Record<string, any> }) => r.data);

describe('case 4: a settlement address that is a contract', () => {
  test('the native sweep is estimated with its real value and destination: it completes the first time', async () => {
    const forwarder = Wallet.createRandom().address;
    await setCode(forwarder, STORES_ON_VALUE);
    const owner = await h.newMerchant();
    await h.activeAddress(owner, 'bnb', 'mainnet', forwarder);
    const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    await h.advanceClock(DELAY_SECONDS + 1);
    const sweeps = await h.settle(
      owner,
      payment.id,
      (s) => s.some((x) => x.payoutState === 'completed') || s.filter((x) => x.payoutState === 'failed').length >= 2,
    );
    expect(sweeps.map((s) => s.payoutState)).toEqual(['completed']);
    expect(await h.nativeBalance('bnb', 'mainnet', forwarder)).toBe(BigInt(sweeps[0].amountAtomic as string));
  });

  test('after 3 reverts in a row the next sweep is held (reverted, settlement.held) and nothing more is spent until POST /v1/sweeps/:id/retry', async () => {
    const target = Wallet.createRandom().address;
    await setCode(target, STORES_ON_VALUE);
    const owner = await h.newMerchant();
    await h.activeAddress(owner, 'bnb', 'mainnet', target);
    const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    await h.advanceClock(DELAY_SECONDS + 1);
    const provider = h.payer('bnb').provider;
    // each sweep is signed and sent while the target accepts, and mined while it refuses: it reverts on chain
    await provider.send('evm_setAutomine', [false]);
    let sweeps: Row[] = [];
    try {
      for (let i = 0; i < 16; i++) {
        await h.runPayouts();
        sweeps = await h.sweepsOf(owner, payment.id);
        const last = sweeps[sweeps.length - 1];
        if (last?.payoutState === 'held') break;
        if (last?.payoutState === 'submitted') {
          await setCode(target, REFUSES);
          await h.mineAll(3);
          await setCode(target, STORES_ON_VALUE);
        }
      }
    } finally {
      await provider.send('evm_setAutomine', [true]);
    }
    expect(sweeps.map((s) => [s.sequence, s.payoutState, s.reason])).toEqual([
      [1, 'failed', 'transaction_reverted'],
      [2, 'failed', 'transaction_reverted'],
      [3, 'failed', 'transaction_reverted'],
      [4, 'held', 'reverted'],
    ]);
    const held = sweeps[3];
    expect(held).toMatchObject({ requiresManualPayout: true, txHash: null, toAddress: target });
    const events = await eventsOf('settlement.held', held.id as string);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      merchantId: owner.merchantId,
      eventType: 'settlement.held',
      sweep: { id: held.id, payoutState: 'held', reason: 'reverted' },
    });

    // nothing more is spent while it is held
    const balance = await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress);
    for (let i = 0; i < 3; i++) {
      await h.runPayouts();
      await h.mineAll(1);
    }
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(balance);
    expect((await h.sweepsOf(owner, payment.id)).map((s) => s.payoutState)).toEqual([
      'failed',
      'failed',
      'failed',
      'held',
    ]);

    // the owner retries it: it is decided again and spends once more
    const retried = await owner.post(`/v1/sweeps/${held.id}/retry`, {});
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      id: held.id,
      payoutState: 'pending',
      reason: null,
      requiresManualPayout: false,
    });
    const done = await h.settle(owner, payment.id, (s) => s[3]?.payoutState === 'completed');
    expect(done).toHaveLength(4);
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
    const again = await owner.post(`/v1/sweeps/${held.id}/retry`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Only a held sweep can be retried; this sweep is completed.');
    expect((await m.post(`/v1/sweeps/${held.id}/retry`, {})).status).toBe(404);
  });
});

describe('case 2: a held payout is recomputed each run', () => {
  test('dust held deposit_balance_low; the rest refunded from the wallet; the sweep ends cancelled / nothing_owed', async () => {
    const owner = await h.newMerchant();
    await h.activeAddress(owner, 'bnb', 'mainnet', Wallet.createRandom().address);
    const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    const price = (await h.signer.ctx.rail('bnb', 'mainnet').feeQuote()).price;
    const fee = 21_000n * price;
    // the deposit pays the refund and its fee and keeps less than a second fee: dust no run can forward
    const first = E18 - fee - (fee * 6n) / 10n;
    const asAmount = (atomic: bigint) => {
      const s = atomic.toString().padStart(19, '0');
      return `${s.slice(0, -18)}.${s.slice(-18)}`.replace(/0+$/, '');
    };
    const partial = await owner.post(`/v1/payments/${payment.id}/refund`, {
      amount: asAmount(first),
      toAddress: Wallet.createRandom().address,
    });
    expect(partial.status).toBe(201);
    let r: Row = {};
    for (let i = 0; i < 10 && r.status !== 'completed'; i++) {
      await h.runPayouts();
      await h.mineAll(1);
      r = (await owner.get(`/v1/refunds/${partial.body.id}`)).body;
    }
    expect(r).toMatchObject({ status: 'completed', source: 'deposit_address' });

    await h.advanceClock(DELAY_SECONDS + 1);
    const [held] = await h.settle(owner, payment.id, (s) => s[0]?.payoutState === 'held');
    expect(held).toMatchObject({ reason: 'deposit_balance_low', requiresManualPayout: true });

    const wallets = (await owner.get('/v1/refund-wallets')).body as Row[];
    await h.payer('bnb').sendNative(wallets.find((w) => w.chain === 'bnb')!.address as string, E18);
    const rest = await owner.post(`/v1/payments/${payment.id}/refund`, { toAddress: Wallet.createRandom().address });
    expect(rest.status).toBe(201);
    r = {};
    for (let i = 0; i < 10 && r.status !== 'completed'; i++) {
      await h.runPayouts();
      await h.mineAll(1);
      r = (await owner.get(`/v1/refunds/${rest.body.id}`)).body;
    }
    expect(r).toMatchObject({ status: 'completed', source: 'refund_wallet' });
    expect((await owner.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
    const sweeps = await h.settle(owner, payment.id, (s) => s[0]?.payoutState === 'cancelled');
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]).toMatchObject({
      id: held.id,
      payoutState: 'cancelled',
      reason: 'nothing_owed',
      requiresManualPayout: false,
      txHash: null,
    });
    await h.runPayouts();
    expect(await h.sweepsOf(owner, payment.id)).toHaveLength(1);
  });
});

describe('case 3: two refunds of one payment planned in one run', () => {
  test('two concurrent refunds of 0.5 on 1 BNB: the first from the deposit, the second from the funded wallet; the rest is paid out', async () => {
    const owner = await h.newMerchant();
    const to = Wallet.createRandom().address;
    await h.activeAddress(owner, 'bnb', 'mainnet', to);
    const wallets = (await owner.get('/v1/refund-wallets')).body as Row[];
    await h.payer('bnb').sendNative(wallets.find((w) => w.chain === 'bnb')!.address as string, 9n * E18);
    const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    const buyer = Wallet.createRandom().address;
    const [a, b] = await Promise.all([
      owner.post(`/v1/payments/${payment.id}/refund`, { amount: '0.5', toAddress: buyer }),
      owner.post(`/v1/payments/${payment.id}/refund`, { amount: '0.5', toAddress: buyer }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const done: Row[] = [];
    for (const id of [a.body.id, b.body.id]) {
      let r: Row = {};
      for (let i = 0; i < 12 && r.status !== 'completed'; i++) {
        await h.runPayouts();
        await h.mineAll(1);
        r = (await owner.get(`/v1/refunds/${id}`)).body;
      }
      done.push(r);
    }
    expect(done.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(done.map((r) => r.source).sort()).toEqual(['deposit_address', 'refund_wallet']);
    expect(await h.nativeBalance('bnb', 'mainnet', buyer)).toBe(E18);
    expect((await owner.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
    // the deposit's remainder (its half less the first refund's fee) is the merchant's: paid out, nothing left behind
    const [sweep] = await h.settle(owner, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
    expect(await h.nativeBalance('bnb', 'mainnet', to)).toBe(BigInt(sweep.amountAtomic as string));
  });

  test('a refund nothing can pay is awaiting_funds with refund.awaiting_funds; POST /v1/refunds/:id/cancel releases it (409 otherwise, 403 for a developer, 404 elsewhere)', async () => {
    const owner = await h.newMerchant();
    await h.activeAddress(owner, 'bnb', 'mainnet', Wallet.createRandom().address);
    const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'USDC', amount: '5', currency: 'USDC' });
    await h.advanceClock(DELAY_SECONDS + 1);
    await h.settle(owner, payment.id, (s) => s[0]?.payoutState === 'completed');
    const created = await owner.post(`/v1/payments/${payment.id}/refund`, { toAddress: Wallet.createRandom().address });
    expect(created.status).toBe(201);
    let r: Row = {};
    for (let i = 0; i < 5 && r.status !== 'awaiting_funds'; i++) {
      await h.runPayouts();
      r = (await owner.get(`/v1/refunds/${created.body.id}`)).body;
    }
    expect(r).toMatchObject({ status: 'awaiting_funds', failureReason: 'refund_wallet_low' });
    await h.runPayouts();
    const events = (
      await h.t.db.query(
        `SELECT data FROM events WHERE type = 'refund.awaiting_funds' AND data->'refund'->>'id' = $1`,
        [r.id],
      )
    ).map((e: Row) => e.data);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      merchantId: owner.merchantId,
      eventType: 'refund.awaiting_funds',
      refund: { id: r.id, status: 'awaiting_funds', failureReason: 'refund_wallet_low' },
    });

    const developer = await new WorkspacesService(h.t.db).createApiKey(owner.merchantId, 'developer');
    const forbidden = await h.t.http().post(`/v1/refunds/${r.id}/cancel`).set('x-api-key', developer).send({});
    expect(forbidden.status).toBe(403);
    expect((await m.post(`/v1/refunds/${r.id}/cancel`, {})).status).toBe(404);

    const cancelled = await owner.post(`/v1/refunds/${r.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: r.id, status: 'cancelled', txHash: null });
    const again = await owner.post(`/v1/refunds/${r.id}/cancel`, {});
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Only a pending or awaiting_funds refund can be cancelled; this refund is cancelled.',
    });
    // its amount is released: the whole 5 can be refunded again
    const next = await owner.post(`/v1/payments/${payment.id}/refund`, { toAddress: Wallet.createRandom().address });
    expect(next.status).toBe(201);
    expect(next.body.amount).toBe('5');
    await h.runPayouts();
    expect((await owner.get(`/v1/refunds/${r.id}`)).body.status).toBe('cancelled');
  });
});

describe('case 8: every price the signer pays has a cap per chain (chains file maxFeePerGas, a default otherwise)', () => {
  test('a chain capped below the market: the sweep is held fee_above_cap (settlement.held) with nothing spent; under the default cap it goes', async () => {
    const file = h.chainsFileWith((entries) => {
      Object.assign(
        entries.find((e) => e.chain === 'bnb')!,
        { maxFeePerGas: '1' },
      );
    });
    const owner = await h.newMerchant();
    await h.activeAddress(owner, 'bnb', 'mainnet', Wallet.createRandom().address);
    const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    await h.advanceClock(DELAY_SECONDS + 1);
    const capped = await startPayoutPair({ ...h.t.config, chainsFile: file });
    try {
      await capped.runOnce();
      await h.mineAll(1);
      await capped.runOnce();
    } finally {
      await capped.close();
    }
    const [held] = await h.sweepsOf(owner, payment.id);
    expect(held).toMatchObject({
      payoutState: 'held',
      reason: 'fee_above_cap',
      requiresManualPayout: true,
      txHash: null,
    });
    expect(await eventsOf('settlement.held', held.id as string)).toHaveLength(1);
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(E18);
    // the payout process of the ordinary chains file (bnb's default cap, 100 gwei) sends it
    const [done] = await h.settle(owner, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(done.id).toBe(held.id);
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
  });
});

describe('case 6: rows that cannot move never fill a batch', () => {
  /** Payout runs (a block between them) until the payment's sweep completes: how many and how long each took. */
  async function paidWithin(owner: Merchant, paymentId: string): Promise<{ runs: number; ms: number[] }> {
    const ms: number[] = [];
    for (let i = 0; i < 6; i++) {
      const started = process.hrtime.bigint();
      await h.runPayouts();
      ms.push(Number((process.hrtime.bigint() - started) / 1_000_000n));
      const sweeps = await h.sweepsOf(owner, paymentId);
      if (sweeps[0]?.payoutState === 'completed') return { runs: i + 1, ms };
      await h.mineAll(2);
    }
    throw new Error(
      `payment ${paymentId} was not paid out in 6 runs (${JSON.stringify(await h.sweepsOf(owner, paymentId))})`,
    );
  }

  test('with 600 held sweeps on the rail a new payment is paid out as fast as with none', async () => {
    const owner = await h.newMerchant();
    await h.activeAddress(owner, 'bnb', 'mainnet', Wallet.createRandom().address);
    const first = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
    await h.advanceClock(DELAY_SECONDS + 1);
    const none = await paidWithin(owner, first.id);

    // 600 payments whose (empty) deposit addresses hold nothing, each with a held sweep older than anything else
    const [{ cols }] = await h.t.db.query(
      `SELECT string_agg(quote_ident(column_name), ', ') AS cols FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'payments'
          AND column_name NOT IN ('id', 'address_index', 'payment_address', 'idempotency_scope')`,
    );
    const copies: Array<{ id: string }> = await h.t.db.query(
      `INSERT INTO payments (id, address_index, payment_address, idempotency_scope, ${cols})
       SELECT gen_random_uuid(), 1000000000 + g, '0x' || lpad(to_hex(g), 40, '0'), NULL, ${cols}
         FROM payments, generate_series(1, 600) g WHERE id = $1
       RETURNING id`,
      [first.id],
    );
    const held: Array<{ id: string }> = await h.t.db.query(
      `INSERT INTO sweeps (id, workspace_id, payment_id, sequence, chain, network, token, token_address, decimals,
                           amount_atomic, credited_atomic, from_address, to_address, settlement_address_id,
                           payout_state, reason, tx_hash, transfer_id, created_at, updated_at, completed_at)
       SELECT gen_random_uuid(), p.workspace_id, p.id, 1, p.chain, p.network, p.token, NULL, p.decimals,
              p.received_amount_atomic, p.received_amount_atomic, p.payment_address, NULL, NULL,
              'held', 'deposit_balance_low', NULL, NULL, now() - interval '1 day', now() - interval '1 day', NULL
         FROM payments p WHERE p.id = ANY($1)
       RETURNING id`,
      [copies.map((c) => c.id)],
    );
    expect(held).toHaveLength(600);
    try {
      const second = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
      await h.advanceClock(DELAY_SECONDS + 1);
      const stuck = await paidWithin(owner, second.id);
      console.log(
        `case 6 payout of one new payment: no held rows ${none.runs} runs (${none.ms.join(', ')} ms); ` +
          `600 held rows ${stuck.runs} runs (${stuck.ms.join(', ')} ms)`,
      );
      expect(stuck.runs).toBe(none.runs);
      // the held rows are still reconsidered, a share per run, round-robin
      const [{ checked }] = await h.t.db.query(
        `SELECT count(*)::int AS checked FROM sweeps WHERE id = ANY($1) AND checked_at IS NOT NULL`,
        [held.map((r) => r.id)],
      );
      expect(checked).toBeGreaterThan(0);
    } finally {
      await h.t.db.query(
        `UPDATE sweeps SET payout_state = 'failed', reason = 'transaction_reverted' WHERE id = ANY($1)`,
        [held.map((r) => r.id)],
      );
    }
  });
});
