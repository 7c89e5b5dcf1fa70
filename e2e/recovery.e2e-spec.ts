// Recovery on a real Anvil devnet (OpenZeppelin ERC-20s): one transaction read from chain data and
// credited through the credit transaction, in-process (RecoveryService) and through the operator
// CLI (`npm run svc -- recover`), with its exit codes.
// spec: States and transitions › Payment › Other rules › Recovery; the confirmed/overpaid recovery row.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { Wallet } from 'ethers';
import { DomainError } from '@svc/core';
import { merchant, Merchant, paymentBody } from './factories/merchant.factory';
import { DevChainSpec, DevPayer, startTestDevnet, TestDevnet } from './support/anvil';
import { CreditContext, startCreditContext } from './support/credit-context';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..');
const CONFIRMATIONS = 2;
const CHAINS: DevChainSpec[] = [
  {
    chain: 'bnb',
    network: 'mainnet',
    chainId: 56,
    confirmations: CONFIRMATIONS,
    tokens: [
      { symbol: 'USDC', decimals: 18, watched: true },
      { symbol: 'USDT', decimals: 18, watched: false },
      { symbol: 'BNB', decimals: 18, watched: true, native: true },
    ],
  },
];
const E18 = 10n ** 18n;

let devnet: TestDevnet;
let payer: DevPayer;
let t: TestApp;
let ctx: CreditContext;
let m: Merchant;
let usdc: string;
let usdt: string;

beforeAll(async () => {
  devnet = await startTestDevnet({ chains: CHAINS });
  const bnb = devnet.get('bnb');
  usdc = bnb.tokens.USDC;
  usdt = bnb.tokens.USDT;
  payer = new DevPayer(bnb.node.url, devnet.payerKey, 56);
  t = await startTestApp({ SVC_CHAINS_FILE: devnet.chainsFile });
  ctx = await startCreditContext(t.config);
  m = await merchant(t);
});
afterAll(async () => {
  payer?.close();
  await ctx?.close();
  await t?.close();
  await devnet?.stop();
});

type Row = Record<string, any>;
const node = () => devnet.get('bnb').node;
const getPayment = async (id: string): Promise<Row> => (await m.get(`/v1/payments/${id}`)).body as Row;
const paymentEventTypes = async (id: string): Promise<string[]> =>
  (
    await t.db.query(
      `SELECT type FROM events WHERE type LIKE 'payment.%' AND (data->'payment'->>'id' = $1 OR data->>'paymentId' = $1) ORDER BY created_at, id`,
      [id],
    )
  ).map((r: { type: string }) => r.type);

/** Pays `units` USDC to the address and mines until the transfer is final. */
async function pay(to: string, units: bigint, token = usdc): Promise<string> {
  const sent = await payer.sendToken(token, to, units * E18);
  await node().mine(CONFIRMATIONS - 1);
  return sent.hash;
}

async function refused(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  // The spec's 409 (RecoveryError's `refused` before the ledger refactor).
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe('conflict');
  return (err as Error).message;
}

function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/svc.js', ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          ...process.env,
          DATABASE_URL: t.config.databaseUrl,
          SVC_ENV: 'test',
          SVC_DEV_CLOCK: '1',
          SVC_CHAINS_FILE: devnet.chainsFile,
        },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('Recovery: accepted states', () => {
  test('a waiting payment: the transaction is read from the chain and credited (payment.confirmed); a replay changes nothing', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const hash = await pay(p.paymentAddress, 10n);
    const result = await ctx.recovery.recover(p.id, hash.toUpperCase().replace('0X', '0x'));
    expect(result).toMatchObject({
      paymentId: p.id,
      txHash: hash,
      outcome: 'credited',
      previousStatus: 'waiting_for_payment',
      status: 'confirmed',
      receivedAmount: '10',
      transfers: 1,
      events: ['payment.confirmed'],
    });
    const stored = await getPayment(p.id);
    expect(stored.blockchainTransactions).toEqual([
      expect.objectContaining({
        txHash: hash,
        tokenAddress: usdc,
        amount: '10',
        toAddress: p.paymentAddress,
        fromAddress: devnet.payerAddress,
        confirmations: CONFIRMATIONS,
        status: 'confirmed',
      }),
    ]);

    // idempotent
    expect(await ctx.recovery.recover(p.id, hash)).toMatchObject({
      outcome: 'already_credited',
      status: 'confirmed',
      events: [],
    });
    expect(await paymentEventTypes(p.id)).toEqual(['payment.confirmed']);
  });

  test('confirmed → overpaid (payment.overpaid), then overpaid stays with payment.amount_increased', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    await ctx.recovery.recover(p.id, await pay(p.paymentAddress, 10n));
    expect(await ctx.recovery.recover(p.id, await pay(p.paymentAddress, 2n))).toMatchObject({
      previousStatus: 'confirmed',
      status: 'overpaid',
      receivedAmount: '12',
      events: ['payment.overpaid'],
    });
    expect(await ctx.recovery.recover(p.id, await pay(p.paymentAddress, 1n))).toMatchObject({
      status: 'overpaid',
      receivedAmount: '13',
      events: ['payment.amount_increased'],
    });
    expect(await paymentEventTypes(p.id)).toEqual([
      'payment.confirmed',
      'payment.overpaid',
      'payment.amount_increased',
    ]);
  });

  test('a native coin payment is credited from the top-level value', async () => {
    const p = await m.payment(paymentBody({ token: 'BNB', currency: 'BNB', amount: '0.25' }));
    const sent = await payer.sendNative(p.paymentAddress, E18 / 4n);
    await node().mine(CONFIRMATIONS - 1);
    expect(await ctx.recovery.recover(p.id, sent.hash)).toMatchObject({ status: 'confirmed', receivedAmount: '0.25' });
    expect((await getPayment(p.id)).blockchainTransactions[0]).toMatchObject({ logIndex: -1, tokenAddress: null });
  });

  test('an expired payment past the 7-day window is still credited by recovery (underpaid)', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    await t.db.query(`UPDATE payments SET status = 'expired', expires_at = now() - interval '8 days' WHERE id = $1`, [
      p.id,
    ]);
    expect(await ctx.recovery.recover(p.id, await pay(p.paymentAddress, 4n))).toMatchObject({
      previousStatus: 'expired',
      status: 'underpaid',
      events: ['payment.underpaid'],
    });
  });

  test('every transfer of the transaction to the payment address is credited (two Transfer logs, one transaction)', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const sent = await payer.sendTokenMany(
      usdc,
      [p.paymentAddress, Wallet.createRandom().address, p.paymentAddress],
      5n * E18,
    );
    await node().mine(CONFIRMATIONS - 1);
    expect(await ctx.recovery.recover(p.id, sent.hash)).toMatchObject({
      status: 'confirmed',
      receivedAmount: '10',
      transfers: 2,
    });
  });
});

describe('Recovery: refusals (the spec’s 409) and what it never credits', () => {
  test('refused on refunded, created, settled and failed payments', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const hash = await pay(p.paymentAddress, 10n);
    for (const status of ['refunded', 'created', 'settled', 'failed']) {
      await t.db.query(`UPDATE payments SET status = $2 WHERE id = $1`, [p.id, status]);
      expect(await refused(ctx.recovery.recover(p.id, hash))).toMatch(/refused/);
    }
    expect(await refused(ctx.recovery.recover(p.id, hash))).toBe('Recovery is refused: the payment is failed.');
    await t.db.query(`UPDATE payments SET status = 'refunded' WHERE id = $1`, [p.id]);
    expect(await refused(ctx.recovery.recover(p.id, hash))).toBe('Recovery is refused: the payment is refunded.');
    expect((await getPayment(p.id)).blockchainTransactions).toEqual([]);
  });

  test('refused while the transfer lacks the required confirmations; accepted once final', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const sent = await payer.sendToken(usdc, p.paymentAddress, 10n * E18); // 1 confirmation of 2
    expect(await refused(ctx.recovery.recover(p.id, sent.hash))).toBe(
      `Recovery is refused while the transfer lacks the required confirmations (1 of ${CONFIRMATIONS}).`,
    );
    expect((await getPayment(p.id)).status).toBe('waiting_for_payment');
    await node().mine(1);
    expect(await ctx.recovery.recover(p.id, sent.hash)).toMatchObject({ status: 'confirmed' });
  });

  test('never credits a wrong-address transfer', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const hash = await pay(Wallet.createRandom().address, 10n);
    expect(await refused(ctx.recovery.recover(p.id, hash))).toBe(
      `Transaction ${hash} sends nothing to the payment address ${p.paymentAddress}.`,
    );
    expect((await getPayment(p.id)).blockchainTransactions).toEqual([]);
  });

  test('never credits a wrong-token transfer', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const hash = await pay(p.paymentAddress, 10n, usdt);
    expect(await refused(ctx.recovery.recover(p.id, hash))).toContain('a transfer in another token is not credited');
    expect((await getPayment(p.id)).status).toBe('waiting_for_payment');
  });

  test('an unknown transaction or payment is not found', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    await expect(ctx.recovery.recover(p.id, `0x${'12'.repeat(32)}`)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      ctx.recovery.recover('00000000-0000-4000-8000-000000000000', `0x${'12'.repeat(32)}`),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('npm run svc -- recover', () => {
  test('credits (exit 0), replays idempotently (exit 0), refuses with exit 3 and the reason', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    const hash = await pay(p.paymentAddress, 10n);
    const first = await svc('recover', '--payment', p.id, '--tx', hash);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `Credited ${hash} to payment ${p.id}: waiting_for_payment → confirmed, received 10 (payment.confirmed).\n`,
    );

    const again = await svc('recover', '--payment', p.id, '--tx', hash, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      outcome: 'already_credited',
      status: 'confirmed',
      receivedAmount: '10',
    });
    expect(await paymentEventTypes(p.id)).toEqual(['payment.confirmed']);

    await t.db.query(`UPDATE payments SET status = 'refunded' WHERE id = $1`, [p.id]);
    const refunded = await svc('recover', '--payment', p.id, '--tx', hash);
    expect(refunded).toMatchObject({ code: 3, stdout: '' });
    expect(refunded.stderr).toBe('refused (409): Recovery is refused: the payment is refunded.\n');

    const other = await m.payment(paymentBody({ amount: '10' }));
    const wrong = await svc('recover', '--payment', other.id, '--tx', hash);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('sends nothing to the payment address');
  });
});
