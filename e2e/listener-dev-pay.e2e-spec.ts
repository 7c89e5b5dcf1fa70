// `npm run svc -- dev:pay` (runtime contract › Operator CLI): pays a payment on the devnet from the
// funded dev account, prints the transaction hash, and the listener confirms the payment.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { Harness, startHarness } from './support/listener-harness';

jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '..');
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.listener();
});
afterAll(async () => {
  await h?.close();
});

function devPay(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/svc.js', 'dev:pay', ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          ...process.env,
          DATABASE_URL: h.t.config.databaseUrl,
          SVC_ENV: 'test',
          SVC_CHAINS_FILE: h.devnet.chainsFile,
          SVC_MNEMONIC: h.t.config.mnemonic!,
          ...env,
        },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

test('pays what the payment asks (ERC-20), prints the transaction hash, and the payment confirms', async () => {
  const p = await h.m.payment({ chain: 'bnb', token: 'USDC', amount: '25', currency: 'USDC' });
  const run = await devPay(['--payment', p.id]);
  expect(run.stderr).toContain('sent 25 USDC on bnb/mainnet');
  expect(run).toMatchObject({ code: 0 });
  expect(run.stdout.trim()).toMatch(/^0x[0-9a-f]{64}$/);
  await h.finalise('bnb');
  const done = await h.until(p.id, (x) => x.status === 'confirmed');
  expect(done.blockchainTransactions[0].txHash).toBe(run.stdout.trim());
});

test('--amount pays part of it (then the rest by default), native coins are sent as value', async () => {
  const p = await h.m.payment({ chain: 'arc', network: 'testnet', token: 'USDC', amount: '2', currency: 'USDC' });
  expect((await devPay(['--payment', p.id, '--amount', '0.5'])).code).toBe(0);
  await h.finalise('arc', 'testnet');
  await h.until(p.id, (x) => x.status === 'underpaid' && x.receivedAmount === '0.5');
  const rest = await devPay(['--payment', p.id]);
  expect(rest.stderr).toContain('sent 1.5 USDC on arc/testnet');
  await h.finalise('arc', 'testnet');
  await h.until(p.id, (x) => x.status === 'confirmed' && x.receivedAmount === '2');
});

test('--token sends another registered token (a wrong-token payment: not credited)', async () => {
  const p = await h.m.payment({ chain: 'bnb', token: 'USDC', amount: '3', currency: 'USDC' });
  const run = await devPay(['--payment', p.id, '--token', 'USDT']);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('sent 3 USDT');
});

test('refused in production, and for a payment that does not exist', async () => {
  const p = await h.m.payment({ chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
  const prod = await devPay(['--payment', p.id], { SVC_ENV: 'production' });
  expect(prod.code).toBe(1);
  expect(prod.stderr).toContain('dev:pay is refused in production');
  const missing = await devPay(['--payment', '00000000-0000-4000-8000-000000000000']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('No such payment');
});
