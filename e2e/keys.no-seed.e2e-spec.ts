// issue 19 › Keys: the API, the listener, the worker and the payout process run as real processes
// with NO seed in their environment (and the payout process, which decides every payout and
// refund, holds no key); the signer (apps/signer) alone is given SVC_MNEMONIC and signs. On every
// EVM rail of the devnet (Anvil: bnb, brokerchain, arc) and on Sui (the executing Sui devnet), a
// payment is created through the API, overpaid by the devnet's payer, detected by the listener,
// its excess refunded to the buyer from the deposit address during the payout delay, and the rest
// paid out to the workspace's settlement address once the delay has passed.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { generateMnemonic } from '@svc/chains';
import { createDataSource } from '@svc/db';
import {
  DEV_SUI_USDC,
  DevPayer,
  DevSui,
  defaultDevChains,
  fundDevSuiAccount,
  randomSuiAddress,
  startDevSui,
  writeChainsFile,
} from '@svc/devnet';
import { EvmKeyring, SuiKeyring } from '@svc/outbound';
import { WorkspacesService } from '@svc/workspaces';
import { startTestDevnet, TestDevnet } from './support/anvil';
import { toAtomicUnits } from './support/listener-harness';
import { AppProcess, spawnApp } from './support/processes';
import { createTestDatabase, dropTestDatabase, RAISED_RATE_LIMITS, TEST_DATA_KEY } from './support/test-app';

type Row = Record<string, any>;
const COOLDOWN_SECONDS = 600;
/** paid funds wait this long before a payout: room for the refunds (SVC_PAYOUT_DELAY_SECONDS) */
const DELAY_SECONDS = 3_600;

let devnet: TestDevnet;
let sui: DevSui;
let database: { name: string; url: string };
let db: DataSource;
let base: string;
let key: string;
const processes: Array<{ name: string; p: AppProcess }> = [];
const mnemonic = generateMnemonic(); // a fresh seed (Anvil's first addresses are funded accounts)

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitFor<T>(what: string, probe: () => Promise<T | null | false | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const logs = processes.map(({ name, p }) => `--- ${name}\n${p.output().slice(-1_500)}`).join('\n');
      throw new Error(`timed out waiting for ${what}${last ? ` (${String(last)})` : ''}\n${logs}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function api(method: string, url: string, body?: unknown): Promise<{ status: number; body: Row }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Row };
}

beforeAll(async () => {
  devnet = await startTestDevnet({ chains: defaultDevChains(1) });
  sui = await startDevSui({ checkpointIntervalMs: 100 });
  const chainsFile = path.join(devnet.dir, 'chains-no-seed.json');
  writeChainsFile(chainsFile, [...devnet.chains.map((c) => c.entry), sui.entry]);

  database = await createTestDatabase();
  db = createDataSource(database.url, 2);
  await db.initialize();
  await db.runMigrations({ transaction: 'all' });

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    SVC_ENV: 'test',
    SVC_DEV_CLOCK: '1',
    SVC_DATA_KEY: TEST_DATA_KEY,
    SVC_CHAINS_FILE: chainsFile,
    SVC_SETTLEMENT_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
    SVC_JOB_INTERVAL_MS: '200',
    SVC_PAYOUT_INTERVAL_MS: '300',
    SVC_PAYOUT_DELAY_SECONDS: String(DELAY_SECONDS),
    LOG_LEVEL: 'info', // each process says when it has started
    PORT: String(port),
    BASE_URL: base,
    ...RAISED_RATE_LIMITS,
  };
  // the signer first: it publishes the keys the others derive addresses from
  processes.push({ name: 'signer', p: spawnApp('signer', { ...env, SVC_MNEMONIC: mnemonic }) });
  await waitFor('the signer to start', async () => processes[0].p.output().includes('started ('), 120_000);
  for (const name of ['api', 'listener', 'worker', 'payouts'] as const) {
    expect(Object.keys(env).some((k) => k.startsWith('SVC_MNEMONIC'))).toBe(false);
    processes.push({ name, p: spawnApp(name, env) });
  }
  await waitFor('the API to answer', async () => (await fetch(`${base}/healthz`)).ok, 120_000);
  await waitFor('every process to start', async () =>
    // each worker process's ops server is up once its application is
    processes.every(({ name, p }) => name === 'api' || p.output().includes('/healthz and /metrics on')),
  );
  ({ apiKey: key } = await new WorkspacesService(db).createWorkspace('no seed'));

  // the signer's gas tanks, funded as `npm run dev` funds them
  const tank = new EvmKeyring(mnemonic).gasTankAddress;
  for (const c of devnet.chains.filter((x) => !x.spec.sameNodeAs)) {
    await new DevPayer(c.node.url, devnet.payerKey, c.node.chainId).sendNative(tank, 10n ** 19n);
  }
  await fundDevSuiAccount(sui, new SuiKeyring(mnemonic).gasTankAddress, { sui: 10n * 10n ** 9n, usdc: 0n });
}, 300_000);

afterAll(async () => {
  for (const { p } of processes) p.child.kill('SIGTERM');
  for (const { p } of processes) await p.exit;
  await db?.destroy();
  if (database) await dropTestDatabase(database.name);
  await sui?.stop();
  await devnet?.stop();
});

test('no process but the signer has the seed in its environment', () => {
  for (const { name, p } of processes) {
    const environ = readFileSync(`/proc/${p.child.pid}/environ`, 'utf8').split('\0');
    const seeded = environ.some((kv) => kv.startsWith('SVC_MNEMONIC'));
    expect([name, seeded]).toEqual([name, name === 'signer']);
  }
});

interface Rail {
  chain: string;
  network: 'mainnet' | 'testnet';
  token: string;
  decimals: number;
  /** the settlement address and the buyer */
  newAddress: () => string;
  /** the payer sends `atomic` of the token to `to` */
  send: (to: string, atomic: bigint) => Promise<unknown>;
  balance: (address: string) => Promise<bigint>;
}

function evmRail(chain: string, network: 'mainnet' | 'testnet', token: string): Rail {
  const c = devnet.get(chain, network);
  const t = c.entry.tokens.find((x) => x.symbol === token)!;
  const payer = new DevPayer(c.node.url, devnet.payerKey, c.node.chainId);
  return {
    chain,
    network,
    token,
    decimals: t.decimals,
    newAddress: () => Wallet.createRandom().address,
    send: (to, atomic) => (t.native ? payer.sendNative(to, atomic) : payer.sendToken(t.address!, to, atomic)),
    balance: async (address) =>
      t.native
        ? payer.provider.getBalance(address)
        : BigInt(
            await payer.provider.call({
              to: t.address!,
              data: '0x70a08231' + address.slice(2).toLowerCase().padStart(64, '0'),
            }),
          ),
  };
}

const rails = (): Rail[] => [
  evmRail('bnb', 'mainnet', 'USDC'),
  evmRail('bnb', 'mainnet', 'BNB'),
  evmRail('brokerchain', 'mainnet', 'USDG'),
  evmRail('arc', 'testnet', 'USDC'),
  {
    chain: 'sui',
    network: 'mainnet',
    token: 'USDC',
    decimals: 6,
    newAddress: randomSuiAddress,
    send: async (to, atomic) => {
      const sent = await sui.payer.pay(to, DEV_SUI_USDC, atomic);
      if (!sent.success) throw new Error(`the Sui payer could not send: ${sent.error}`);
    },
    balance: (address) => Promise.resolve(sui.server.chain.balanceOf(address, DEV_SUI_USDC)),
  },
];

test('every EVM rail and Sui: created, detected, the excess refunded, the rest paid out; only the signer signed', async () => {
  const all = rails();
  const settlement = new Map<string, string>();
  for (const r of all) {
    const railKey = `${r.chain}/${r.network}`;
    if (settlement.has(railKey)) continue;
    const address = r.newAddress();
    const res = await api('POST', '/v1/settlement-addresses', { chain: r.chain, network: r.network, address });
    expect(res.status).toBe(201);
    settlement.set(railKey, address);
  }
  expect((await api('POST', '/v1/dev/clock', { advanceSeconds: COOLDOWN_SECONDS + 1 })).status).toBeLessThan(300);
  await waitFor('the worker to activate every settlement address', async () => {
    const list = (await api('GET', '/v1/settlement-addresses')).body as unknown as Row[]; // a list (money contract)
    return list.length === settlement.size && list.every((a) => a.status === 'active');
  });

  // 10 asked, 13 paid: 3 refunded to the buyer, 10 paid out
  const flows = await Promise.all(
    all.map(async (r) => {
      const created = await api('POST', '/v1/payments', {
        chain: r.chain,
        network: r.network,
        token: r.token,
        amount: '10',
        currency: r.token,
      });
      expect([r.chain, r.token, created.status]).toEqual([r.chain, r.token, 201]);
      return { r, payment: created.body, buyer: r.newAddress() };
    }),
  );
  for (const f of flows) await f.r.send(f.payment.paymentAddress, toAtomicUnits('13', f.r.decimals));
  for (const f of flows) {
    await waitFor(`${f.r.chain} ${f.r.token} to be overpaid`, async () => {
      const p = await api('GET', `/v1/payments/${f.payment.id}`);
      return p.body.status === 'overpaid';
    });
    const refund = await api('POST', `/v1/payments/${f.payment.id}/refund`, { amount: '3', toAddress: f.buyer });
    expect([f.r.chain, f.r.token, refund.status]).toEqual([f.r.chain, f.r.token, 201]);
    Object.assign(f, { refundId: refund.body.id as string });
  }
  // the refunds go from the deposit addresses during the payout delay; then the rest is paid out
  const refunds = new Map<string, Row>();
  for (const f of flows as Array<(typeof flows)[number] & { refundId: string }>) {
    const what = `${f.r.chain}/${f.r.network} ${f.r.token}`;
    const refund = await waitFor(
      `the ${what} refund to complete`,
      async () => {
        const got = await api('GET', `/v1/refunds/${f.refundId}`);
        return got.body.status === 'completed' && got.body;
      },
      120_000,
    );
    expect(await f.r.balance(f.buyer)).toBe(toAtomicUnits('3', f.r.decimals));
    expect([what, refund.source]).toEqual([what, 'deposit_address']);
    refunds.set(f.refundId, refund);
  }
  expect((await api('POST', '/v1/dev/clock', { advanceSeconds: DELAY_SECONDS + 1 })).status).toBeLessThan(300);
  for (const f of flows as Array<(typeof flows)[number] & { refundId: string }>) {
    const what = `${f.r.chain}/${f.r.network} ${f.r.token}`;
    const sweeps = await waitFor(
      `the ${what} payout to complete`,
      async () => {
        const got = await api('GET', `/v1/sweeps?paymentId=${f.payment.id}`);
        const rows = got.body.data as Row[];
        // a native coin pays its own fee: what is left after it may be dust no fee can move (held, as designed)
        const done = rows.every(
          (s) => s.payoutState === 'completed' || (s.payoutState === 'held' && s.reason === 'deposit_balance_low'),
        );
        if (done && rows.some((s) => s.payoutState === 'completed')) return rows;
        throw new Error(`sweeps: ${JSON.stringify(rows.map((s) => [s.payoutState, s.reason]))}`);
      },
      120_000,
    );
    const paidOut = (sweeps as Row[])
      .filter((s) => s.payoutState === 'completed')
      .reduce((sum, s) => sum + BigInt(s.amountAtomic), 0n);
    expect(paidOut).toBeGreaterThan(0n);
    // nothing worth moving stays at the deposit: a token is emptied, a native coin keeps less than 0.001
    expect(await f.r.balance(f.payment.paymentAddress)).toBeLessThan(toAtomicUnits('0.001', f.r.decimals));
    expect(refunds.get(f.refundId)!.txHash).toBeTruthy();
  }
  // the settlement addresses received what the sweeps say (tokens exactly 10 each; a native coin less its fee)
  const toSettlement = new Map<string, bigint>();
  for (const f of flows) {
    const got = await api('GET', `/v1/sweeps?paymentId=${f.payment.id}`);
    const sum = (got.body.data as Row[])
      .filter((x) => x.payoutState === 'completed')
      .reduce((s, x) => s + BigInt(x.amountAtomic), 0n);
    const k = `${f.r.chain}/${f.r.network}/${f.r.token}`;
    toSettlement.set(k, (toSettlement.get(k) ?? 0n) + sum);
  }
  for (const f of flows) {
    const k = `${f.r.chain}/${f.r.network}/${f.r.token}`;
    expect([k, await f.r.balance(settlement.get(`${f.r.chain}/${f.r.network}`)!)]).toEqual([k, toSettlement.get(k)]);
  }
  // who signed: every attempt was written by the signer process (the payout process has no key to sign with)
  const payoutsLog = processes.find((x) => x.name === 'payouts')!.p.output();
  expect(payoutsLog).not.toMatch(/no seed: only the signer/);
}, 600_000);
