// Two signer processes at once (two services, two connection pools) on the same transfers never
// pay twice: every step claims its row, the sign step also the sender's source row (its nonce), and broadcasts
// resend stored bytes. Nonces come from the database: concurrent transfers from one address get
// distinct, consecutive nonces, and a database behind the chain's pending count is raised. A run's
// read-ahead (OutboundEngine.withReadAhead) that another signer overtakes is decided again under
// the row's lock: the step neither signs twice nor brings a cancelled row back.
import { randomUUID } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import { Client } from 'pg';
import { EvmRpc, type EvmRpcClient } from '@svc/chains';
import { OutboundSourceEntity } from '@svc/db';
import { isFinalOutboundState } from '@svc/domain';
import { depositKey, GAS_TANK_KEY, OutboundService, OutboundTransfer, refundWalletKey } from '@svc/outbound';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

let h: SignerHarness;
let a: OutboundService;
let b: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 2 });
  [a, b] = [await h.service(), await h.service()];
  await h.payer.sendNative(a.address(GAS_TANK_KEY), ether('10'));
});
afterAll(() => h.close());

/**
 * A node client that runs `hook` once, just before `sender`'s pending nonce is read: inside a run,
 * after its read-ahead of the open rows and their attempts, before the sign step claims the row.
 */
function hookedRpc(rpc: EvmRpc, sender: string, hook: () => Promise<unknown>) {
  const state = { fired: false };
  const client: EvmRpcClient = {
    async call<T>(method: string, params: unknown[] = []): Promise<T> {
      const pendingNonce = method === 'eth_getTransactionCount' && params[1] === 'pending';
      if (pendingNonce && !state.fired && String(params[0]).toLowerCase() === sender.toLowerCase()) {
        state.fired = true;
        await hook();
      }
      return rpc.call<T>(method, params);
    },
  };
  return { client, state };
}

/** Both services advance every transfer at the same moment, round after round, until all are final. */
async function race(ids: string[]): Promise<OutboundTransfer[]> {
  for (let round = 0; round < 20; round++) {
    await Promise.all(ids.flatMap((id) => [a.advance(id), b.advance(id)]));
    const rows = await Promise.all(ids.map((id) => a.get(id)));
    if (rows.every((t) => isFinalOutboundState(t.state))) return rows;
    await h.node.mine(1);
  }
  throw new Error('transfers did not finish');
}

test('two senders racing on the same sweeps and refunds pay each exactly once', async () => {
  const ids: string[] = [];
  const expectNative: Array<[string, bigint, number]> = [];
  const expectToken: Array<[string, bigint]> = [];
  for (const i of [11n, 12n, 13n]) {
    await h.payer.sendNative(a.address(depositKey(i)), ether('0.5') + i);
    const to = freshAddress();
    const t = await a.planNativeSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: i,
      to,
    });
    ids.push(t.id);
    expectNative.push([to, ether('0.5') + i, ids.length - 1]);
  }
  for (const i of [21n, 22n]) {
    await h.payer.sendToken(h.token, a.address(depositKey(i)), ether('7') + i);
    const to = freshAddress();
    const t = await b.planTokenSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: i,
      to,
      token: h.token,
    });
    ids.push(t.id);
    expectToken.push([to, ether('7') + i]);
  }
  await h.payer.sendToken(h.token, a.address(refundWalletKey(0)), ether('3'));
  const buyer = freshAddress();
  const refund = await a.planRefund({
    chain: h.chain,
    network: h.network,
    refundId: randomUUID(),
    from: refundWalletKey(0),
    to: buyer,
    token: h.token,
    amountAtomic: ether('2'),
  });
  ids.push(refund.id);

  const rows = await race(ids);
  expect(rows.map((t) => t.state)).toEqual(ids.map(() => 'completed'));
  for (const [to, funded, k] of expectNative) {
    expect(await h.nativeBalance(to)).toBe(funded - (rows[k].feeAtomic as bigint));
  }
  for (const [to, amount] of expectToken) expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(buyer)).toBe(ether('2'));
  for (const id of ids) {
    expect(await a.attempts(id)).toHaveLength(1); // signed once
    const topUps = await a.topUps(id);
    expect(topUps.length).toBeLessThanOrEqual(1); // topped up at most once
  }
  // the tank's top-ups got distinct nonces
  const tankRows: Array<{ nonce: string }> = await h.db.query(
    `SELECT t.fence->>'nonce' AS nonce FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id WHERE l.purpose = 'gas'`,
  );
  expect(tankRows).toHaveLength(3);
  expect(new Set(tankRows.map((t) => t.nonce)).size).toBe(3);
});

test('one runner per rail across processes: a held advisory lock makes runPending stand by', async () => {
  const holder = new Client({ connectionString: h.databaseUrl });
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', [
      'svc.signer',
      `${h.chain}/${h.network}`,
    ]);
    expect(await a.runPending(h.chain, h.network)).toBeNull();
    await holder.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [
      'svc.signer',
      `${h.chain}/${h.network}`,
    ]);
    expect(await a.runPending(h.chain, h.network)).toEqual(expect.objectContaining({ chain: h.chain, errors: [] }));
  } finally {
    await holder.end();
  }
});

test('concurrent transfers from one address get distinct, consecutive nonces', async () => {
  const tank = a.address(GAS_TANK_KEY);
  const start = BigInt(await h.node.rpc<string>('eth_getTransactionCount', [tank, 'pending']));
  const planned = await Promise.all(
    Array.from({ length: 10 }, (_, k) =>
      (k % 2 ? a : b).planRefund({
        chain: h.chain,
        network: h.network,
        refundId: randomUUID(),
        from: GAS_TANK_KEY,
        to: freshAddress(),
        token: null,
        amountAtomic: 1000n + BigInt(k),
      }),
    ),
  );
  const rows = await race(planned.map((t) => t.id));
  const nonces = rows.map((t) => t.nonce as bigint).sort((x, y) => (x < y ? -1 : 1));
  expect(nonces).toEqual(Array.from({ length: 10 }, (_, k) => start + BigInt(k)));
  for (const t of rows) expect(await h.nativeBalance(t.toAddress)).toBe(t.amountAtomic);
  const row = await h.db
    .getRepository(OutboundSourceEntity)
    .findOneByOrFail({ chain: h.chain, network: h.network, address: tank });
  expect(row.nextNonce).toBe(start + 10n);
});

test("a database behind the chain's pending count is raised, never reusing a nonce", async () => {
  const key = refundWalletKey(9);
  const address = a.address(key);
  await h.payer.sendNative(address, ether('1'));
  // the address already sent two transactions the database does not know of (say, a restored backup)
  const outside = HDNodeWallet.fromPhrase(h.mnemonic, undefined, "m/44'/60'/2'/0/9").connect(h.payer.provider);
  for (const nonce of [0, 1]) {
    await (await outside.sendTransaction({ to: freshAddress(), value: 1n, nonce, gasLimit: 21_000n })).wait();
  }
  await h.db
    .getRepository(OutboundSourceEntity)
    .insert({ chain: h.chain, network: h.network, address, nextNonce: 0n, updatedAt: new Date() });

  const refund = (amountAtomic: bigint) =>
    a.planRefund({
      chain: h.chain,
      network: h.network,
      refundId: randomUUID(),
      from: key,
      to: freshAddress(),
      token: null,
      amountAtomic,
    });
  const first = await h.drive(a, (await refund(5n)).id);
  expect(first.state).toBe('completed');
  expect(first.nonce).toBe(2n);

  await (await outside.sendTransaction({ to: freshAddress(), value: 1n, nonce: 3, gasLimit: 21_000n })).wait();
  const second = await h.drive(a, (await refund(6n)).id);
  expect(second.state).toBe('completed');
  expect(second.nonce).toBe(4n);
  const row = await h.db
    .getRepository(OutboundSourceEntity)
    .findOneByOrFail({ chain: h.chain, network: h.network, address });
  expect(row.nextNonce).toBe(5n);
});

describe("the read-ahead rule: a row another signer moves between the run's read-ahead and its step is decided again under the lock", () => {
  /** A native refund from a refund wallet of its own, and a signer whose run lets `move` happen mid-step. */
  async function overtaken(index: number, move: (id: string) => Promise<unknown>) {
    const wallet = refundWalletKey(index);
    const sender = a.address(wallet);
    await h.payer.sendNative(sender, ether('1'));
    const { planned, buyer } = await h.planNativeRefund(a, wallet, ether('0.25'));
    const node = new EvmRpc([h.node.url]);
    const hooked = hookedRpc(node, sender, () => move(planned.id));
    try {
      const runner = await h.service({ rpc: () => hooked.client });
      const report = await runner.runPending(h.chain, h.network);
      expect(hooked.state.fired).toBe(true);
      expect(report?.errors).toEqual([]);
    } finally {
      node.destroy();
    }
    return { id: planned.id, sender, buyer };
  }

  test('signed and broadcast by another signer after the read-ahead: the step signs nothing more, the buyer is paid once', async () => {
    const { id, sender, buyer } = await overtaken(31, (moved) => b.advance(moved));
    expect((await a.attempts(id)).map((x) => x.attempt)).toEqual([1]);
    const t = await h.drive(a, id);
    expect(t.state).toBe('completed');
    expect(await a.attempts(id)).toHaveLength(1);
    expect(await h.nativeBalance(buyer)).toBe(ether('0.25'));
    expect(await h.node.rpc<string>('eth_getTransactionCount', [sender, 'latest'])).toBe('0x1');
  });

  test('cancelled by another process after the read-ahead: the step leaves it cancelled, nothing is signed or sent', async () => {
    const { id, sender, buyer } = await overtaken(32, (moved) => b.cancel(moved));
    const t = await a.get(id);
    expect(t).toMatchObject({ state: 'cancelled', signedAt: null, nonce: null });
    expect(await a.attempts(id)).toEqual([]);
    expect(await a.runPending(h.chain, h.network)).toEqual(expect.objectContaining({ errors: [] }));
    expect((await a.get(id)).state).toBe('cancelled');
    expect(await h.nativeBalance(buyer)).toBe(0n);
    expect(await h.node.rpc<string>('eth_getTransactionCount', [sender, 'pending'])).toBe('0x0');
  });
});
