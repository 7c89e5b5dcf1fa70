// issue 18 › Migrate the existing rows: a database holding in-flight transfers written through the
// OLD schema (outbound_transfers, outbound_attempts, evm_nonces) — one signed and never broadcast,
// one broadcast, one mined but not final, one planned, and a token sweep waiting for its gas
// top-up that is itself broadcast — with real transactions signed by the service's own keys on
// Anvil, is upgraded by migration 1795640000000-OutboundLegsAndClaims, and the payout process then
// ends each exactly once: no stored transaction is signed again (the same hashes land, one attempt
// each), every sweep completes with one settlement.completed, and the balances are exact.
import { Wallet } from 'ethers';
import { randomUUID } from 'node:crypto';
import { authoriseUnmacedDestinations } from '@svc/payments';
import { depositKey, ERC20, feeColumns, GAS_TANK_KEY, OutboundService, SignerKeyRef } from '@svc/outbound';
import type { Row } from './support/listener-harness';
import { ONE_BNB_RAIL } from './support/processes';
import { PayoutsHarness, startPayoutsHarness } from './support/payouts-harness';
import { TEST_DESTINATION_KEY } from './support/test-app';

jest.setTimeout(300_000);

const E18 = 10n ** 18n;
let h: PayoutsHarness;
let settlement: Row;
let signer: OutboundService;

beforeAll(async () => {
  // three confirmations, so a mined transfer can be caught before it is final
  h = await startPayoutsHarness({ chains: [{ ...ONE_BNB_RAIL[0], confirmations: 3 }] });
  signer = h.signer;
  settlement = await h.activeAddress(h.m, 'bnb', 'mainnet', Wallet.createRandom().address);
  await h.fundGasTank('bnb', 'mainnet', E18);
});
afterAll(() => h?.close());

interface Old {
  payment: Row;
  sweepId: string;
  transferId: string;
  hashes: string[];
}

const rail = () => signer.ctx.rail('bnb', 'mainnet');
const q = (sql: string, params: unknown[] = []) => h.t.db.query(sql, params);

async function depositOf(payment: Row): Promise<{ key: SignerKeyRef; address: string }> {
  const [row] = await q('SELECT address_index FROM payments WHERE id = $1', [payment.id]);
  return { key: depositKey(BigInt(row.address_index)), address: payment.paymentAddress as string };
}

/** An outbound_transfers row of the old schema; what is not given is null. */
async function oldTransfer(t: Record<string, unknown>): Promise<void> {
  const row: Record<string, unknown> = {
    chain: 'bnb',
    network: 'mainnet',
    parent_id: null,
    created_at: new Date(),
    updated_at: new Date(),
    ...t,
  };
  const cols = Object.keys(row);
  await q(
    `INSERT INTO outbound_transfers (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
    cols.map((c) => (typeof row[c] === 'bigint' ? (row[c] as bigint).toString() : row[c])),
  );
}

async function oldAttempt(transferId: string, a: Record<string, unknown>): Promise<void> {
  const row: Record<string, unknown> = { transfer_id: transferId, attempt: 1, signed_at: new Date(), ...a };
  const cols = Object.keys(row);
  await q(
    `INSERT INTO outbound_attempts (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
    cols.map((c) => (typeof row[c] === 'bigint' ? (row[c] as bigint).toString() : row[c])),
  );
}

async function oldNonce(address: string, next: bigint): Promise<void> {
  await q(
    `INSERT INTO evm_nonces (chain, network, address, next_nonce, updated_at) VALUES ('bnb', 'mainnet', $1, $2, now())
     ON CONFLICT (chain, network, address) DO UPDATE SET next_nonce = EXCLUDED.next_nonce`,
    [address, next.toString()],
  );
}

async function sweepRow(payment: Row, transferId: string | null, state: string, txHash: string | null) {
  const id = randomUUID();
  await q(
    `INSERT INTO sweeps (id, workspace_id, payment_id, sequence, chain, network, token, token_address, decimals,
                         amount_atomic, credited_atomic, from_address, to_address, settlement_address_id,
                         payout_state, reason, tx_hash, transfer_id, created_at, updated_at, completed_at)
     SELECT $1, p.workspace_id, p.id, 1, p.chain, p.network, p.token, p.token_address, p.decimals,
            p.received_amount_atomic, p.received_amount_atomic, p.payment_address, $3, $4, $5, NULL, $6, $2, now(), now(), NULL
       FROM payments p WHERE p.id = $7`,
    [id, transferId, settlement.address, settlement.id, state, txHash, payment.id],
  );
  return id;
}

/** A native sweep of the whole deposit, signed by the service's key exactly as the old engine did. */
async function nativeSweep(payment: Row, stage: 'planned' | 'signed' | 'submitted' | 'mined'): Promise<Old> {
  const { key, address } = await depositOf(payment);
  const transferId = randomUUID();
  const base = {
    id: transferId,
    purpose: 'sweep',
    from_key_kind: 'deposit',
    from_key_index: key.index,
    from_address: address,
    to_address: settlement.address,
    token_address: null,
    amount_mode: 'all',
    state: stage,
  };
  if (stage === 'planned') {
    const sweepId = await sweepRow(payment, transferId, 'pending', null);
    await oldTransfer({ ...base, purpose_id: sweepId });
    return { payment, sweepId, transferId, hashes: [] };
  }
  const quote = await rail().feeQuote();
  const balance = await rail().nativeBalance(address, 'latest');
  const value = balance - 21_000n * quote.price;
  const signed = await signer.ctx.keyring.sign(key, address, {
    chainId: await rail().chainId(),
    nonce: 0,
    to: settlement.address,
    value,
    data: '0x',
    gasLimit: 21_000n,
    ...(quote.type === 'eip1559'
      ? { type: 2, maxFeePerGas: quote.price, maxPriorityFeePerGas: quote.price }
      : { type: 0, gasPrice: quote.price }),
  });
  const fee = feeColumns(quote);
  const fees = {
    fee_type: fee.feeType,
    gas_price: fee.gasPrice,
    max_fee_per_gas: fee.maxFeePerGas,
    max_priority_fee_per_gas: fee.maxPriorityFeePerGas,
  };
  let mined: Row = {};
  let broadcast: Row = {};
  if (stage !== 'signed') {
    const head = await rail().head();
    await h.payer('bnb').provider.broadcastTransaction(signed.raw);
    broadcast = { broadcast_at: new Date(), broadcast_block: head, last_broadcast_at: new Date() };
    if (stage === 'mined') {
      const receipt = await h.payer('bnb').provider.waitForTransaction(signed.hash);
      mined = {
        tx_hash: signed.hash,
        block_number: receipt!.blockNumber,
        confirmations: 1,
        gas_used: receipt!.gasUsed,
        effective_gas_price: receipt!.gasPrice,
        fee_atomic: receipt!.gasUsed * receipt!.gasPrice,
        mined_at: new Date(),
        submitted_at: new Date(),
      };
    } else {
      mined = { submitted_at: new Date() };
    }
  }
  const sweepId = await sweepRow(
    payment,
    transferId,
    stage === 'signed' ? 'pending' : 'submitted',
    stage === 'signed' ? null : signed.hash,
  );
  await oldTransfer({
    ...base,
    purpose_id: sweepId,
    nonce: 0n,
    gas_limit: 21_000n,
    amount_atomic: value,
    ...fees,
    ...mined,
  });
  await oldAttempt(transferId, {
    tx_hash: signed.hash,
    raw_tx: signed.raw,
    nonce: 0n,
    gas_limit: 21_000n,
    ...fees,
    value_atomic: value,
    amount_atomic: value,
    ...broadcast,
  });
  await oldNonce(address, 1n);
  return { payment, sweepId, transferId, hashes: [signed.hash] };
}

/** A token sweep waiting for its gas top-up, and the top-up from the gas tank broadcast. */
async function tokenSweepWithTopUp(payment: Row): Promise<Old & { topUpId: string; topUpAtomic: bigint }> {
  const { key, address } = await depositOf(payment);
  const token = h.devnet.get('bnb', 'mainnet').tokens.USDC;
  const amount = await h.tokenBalance('bnb', 'USDC', address);
  const quote = await rail().feeQuote();
  const gasLimit = await rail().estimateGas({
    from: address,
    to: token,
    data: ERC20.encodeFunctionData('transfer', [settlement.address, amount]),
  });
  const fee = feeColumns(quote);
  const fees = {
    fee_type: fee.feeType,
    gas_price: fee.gasPrice,
    max_fee_per_gas: fee.maxFeePerGas,
    max_priority_fee_per_gas: fee.maxPriorityFeePerGas,
  };
  const transferId = randomUUID();
  const sweepId = await sweepRow(payment, transferId, 'pending', null);
  await oldTransfer({
    id: transferId,
    purpose: 'sweep',
    purpose_id: sweepId,
    from_key_kind: 'deposit',
    from_key_index: key.index,
    from_address: address,
    to_address: settlement.address,
    token_address: token,
    amount_mode: 'all',
    state: 'planned',
    wait_reason: 'waiting_for_top_up',
    gas_limit: gasLimit,
    ...fees,
  });
  const tank = h.gasTankAddress();
  const topUpAtomic = gasLimit * quote.price;
  const tankNonce = await rail().nonceAt(tank, 'pending');
  const signed = await signer.ctx.keyring.sign(GAS_TANK_KEY, tank, {
    chainId: await rail().chainId(),
    nonce: Number(tankNonce),
    to: address,
    value: topUpAtomic,
    data: '0x',
    gasLimit: 21_000n,
    ...(quote.type === 'eip1559'
      ? { type: 2, maxFeePerGas: quote.price, maxPriorityFeePerGas: quote.price }
      : { type: 0, gasPrice: quote.price }),
  });
  const head = await rail().head();
  await h.payer('bnb').provider.broadcastTransaction(signed.raw);
  const topUpId = randomUUID();
  await oldTransfer({
    id: topUpId,
    purpose: 'gas_topup',
    purpose_id: sweepId,
    parent_id: transferId,
    from_key_kind: 'gas_tank',
    from_key_index: 0n,
    from_address: tank,
    to_address: address,
    token_address: null,
    amount_mode: 'exact',
    amount_atomic: topUpAtomic,
    state: 'submitted',
    nonce: tankNonce,
    gas_limit: 21_000n,
    ...fees,
    submitted_at: new Date(),
  });
  await oldAttempt(topUpId, {
    tx_hash: signed.hash,
    raw_tx: signed.raw,
    nonce: tankNonce,
    gas_limit: 21_000n,
    ...fees,
    value_atomic: topUpAtomic,
    amount_atomic: topUpAtomic,
    broadcast_at: new Date(),
    broadcast_block: head,
    last_broadcast_at: new Date(),
  });
  await oldNonce(tank, tankNonce + 1n);
  return { payment, sweepId, transferId, hashes: [], topUpId, topUpAtomic };
}

test('in-flight transfers of the old schema end exactly once after the upgrade', async () => {
  const native = async () => h.paidPayment(h.m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
  const payments = [await native(), await native(), await native(), await native()];
  const tokenPayment = await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount: '25', currency: 'USDC' });
  const deposits = new Map<string, bigint>();
  for (const p of payments) deposits.set(p.id as string, await h.nativeBalance('bnb', 'mainnet', p.paymentAddress));
  const tankBefore = await h.nativeBalance('bnb', 'mainnet', h.gasTankAddress());

  // the database as it was before this migration
  // (migrations that landed after it are undone first, then it)
  for (;;) {
    const last = (await q('SELECT name FROM migrations ORDER BY id DESC LIMIT 1'))[0].name;
    await h.t.db.undoLastMigration({ transaction: 'all' });
    if (last === 'OutboundLegsAndClaims1795640000000') break;
  }

  const signedOnly = await nativeSweep(payments[0], 'signed');
  const broadcast = await nativeSweep(payments[1], 'submitted');
  const mined = await nativeSweep(payments[2], 'mined');
  const planned = await nativeSweep(payments[3], 'planned');
  const token = await tokenSweepWithTopUp(tokenPayment);

  await h.t.db.runMigrations({ transaction: 'all' });
  // the upgrade step of destination MACs (docs/money-out.md › Destinations › Upgrading), as
  // `npm run svc -- destinations:authorise` runs it: the settlement address lost its MAC with the column
  const authorised = await h.t.db.transaction((m) =>
    authoriseUnmacedDestinations(m, Buffer.from(TEST_DESTINATION_KEY, 'hex'), { dryRun: false }),
  );
  expect(authorised.map((a) => [a.kind, a.id])).toEqual([['settlement_address', settlement.id]]);
  const [{ n: claims }] = await q('SELECT count(*)::int AS n FROM outbound_claims WHERE released_at IS NULL');
  expect(claims).toBe(6); // every open leg claims its source

  const all = [signedOnly, broadcast, mined, planned, token];
  for (let run = 0; run < 20; run++) {
    await h.runPayouts();
    const states = await Promise.all(all.map(async (o) => (await h.sweepsOf(h.m, o.payment.id))[0]?.payoutState));
    if (states.every((s) => s === 'completed')) break;
    await h.mineAll(1);
  }
  for (const o of all) {
    const sweeps = await h.sweepsOf(h.m, o.payment.id);
    expect(sweeps.map((s) => [s.sequence, s.payoutState])).toEqual([[1, 'completed']]);
    const [{ n }] = await q(
      `SELECT count(*)::int AS n FROM events WHERE type = 'settlement.completed' AND data->>'paymentId' = $1`,
      [o.payment.id],
    );
    expect(n).toBe(1);
    const attempts: Row[] = await q('SELECT tx_hash FROM outbound_attempts WHERE transaction_id = $1', [o.transferId]);
    expect(attempts).toHaveLength(1); // never signed again
    if (o.hashes.length) {
      expect(attempts.map((a) => a.tx_hash)).toEqual(o.hashes);
      expect(sweeps[0].txHash).toBe(o.hashes[0]);
    }
  }
  // native: each deposit forwarded its whole balance minus exactly the fee, nothing left behind
  let expected = 0n;
  for (const o of [signedOnly, broadcast, mined, planned]) {
    const [t] = await q(`SELECT fee->>'paid' AS paid FROM outbound_transactions WHERE id = $1`, [o.transferId]);
    expected += (deposits.get(o.payment.id as string) as bigint) - BigInt(t.paid);
    expect(await h.nativeBalance('bnb', 'mainnet', o.payment.paymentAddress)).toBe(0n);
  }
  expect(await h.nativeBalance('bnb', 'mainnet', settlement.address)).toBe(expected);
  // the token sweep: the whole token balance; its gas came from the one top-up, which was not sent twice
  expect(await h.tokenBalance('bnb', 'USDC', settlement.address)).toBe(25n * E18);
  const topUps: Row[] = await q(
    `SELECT t.state, (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts,
            t.fee->>'paid' AS paid
       FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
      WHERE t.funds_transaction_id = $1 AND l.purpose = 'gas'`,
    [token.transferId],
  );
  expect(topUps.map((t) => [t.state, t.attempts])).toEqual([['completed', 1]]);
  expect(await h.nativeBalance('bnb', 'mainnet', h.gasTankAddress())).toBe(
    tankBefore - token.topUpAtomic - BigInt(topUps[0].paid),
  );
  const [{ n: live }] = await q('SELECT count(*)::int AS n FROM outbound_claims WHERE released_at IS NULL');
  expect(live).toBe(0); // every claim released once its transaction was final
});
