// `npm run svc -- dev:pay` on Sui (runtime contract › Operator CLI): the pieces of `npm run dev`'s
// Sui rail — the Sui devnet with the funded dev payer (startDevSui, what startDevnet runs for
// `npm run dev`), its chains-file entry, the real API and the listener in-process — and dev:pay
// paying a Sui payment with a signed transaction the devnet executes; the listener confirms it.
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { DEV_SUI_PAYER, DEV_SUI_USDC, DevSui, SUI, startDevSui, writeChainsFile } from '@svc/devnet';
import { createListenerApp } from '../apps/listener/src/listener.factory';
import { merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(90_000);

type Row = Record<string, any>;
const ROOT = path.resolve(__dirname, '..');

let sui: DevSui;
let chainsFile: string;
let t: TestApp;
let m: Awaited<ReturnType<typeof merchant>>;
let listener: INestApplicationContext;

beforeAll(async () => {
  sui = await startDevSui({ checkpointIntervalMs: 200 });
  chainsFile = path.join(mkdtempSync(path.join(tmpdir(), 'svc-sui-dev-')), 'chains.json');
  writeChainsFile(chainsFile, [sui.entry]);
  t = await startTestApp({ SVC_CHAINS_FILE: chainsFile });
  m = await merchant(t);
  listener = await createListenerApp(
    { ...t.config, logLevel: process.env.E2E_LOG ? 'info' : 'silent' },
    {
      healthLogIntervalMs: 0,
      jobs: false,
      sui: { pollIntervalMs: 50, claimRetryMs: 100, backoffBaseMs: 50, backoffMaxMs: 250, requestTimeoutMs: 2_000 },
    },
  );
  await listener.init();
});

afterAll(async () => {
  await listener?.close();
  await t?.close();
  await sui?.stop();
});

function devPay(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/svc.js', 'dev:pay', ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          ...process.env,
          DATABASE_URL: t.config.databaseUrl,
          SVC_ENV: 'test',
          SVC_CHAINS_FILE: chainsFile,
          SVC_MNEMONIC: t.config.mnemonic!,
        },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

async function until(id: string, predicate: (p: Row) => boolean): Promise<Row> {
  const deadline = Date.now() + 20_000;
  let last: Row | null = null;
  for (;;) {
    const res = await m.get(`/v1/payments/${id}`);
    last = res.body as Row;
    if (predicate(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out; last seen ${JSON.stringify(last?.status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('pays a Sui USDC payment with a signed transaction, prints its digest, and the payment confirms', async () => {
  const created = await m.post('/v1/payments', { chain: 'sui', token: 'USDC', amount: '25', currency: 'USDC' });
  expect(created.status).toBe(201);
  const p = created.body as Row;
  const payerUsdc = sui.server.chain.balanceOf(DEV_SUI_PAYER.toSuiAddress(), DEV_SUI_USDC);

  const run = await devPay(['--payment', p.id]);
  expect(run.stderr).toContain(`sent 25 USDC on sui/mainnet to ${p.paymentAddress} in transaction`);
  expect(run).toMatchObject({ code: 0 });
  const digest = run.stdout.trim();
  expect(sui.server.chain.transaction(digest)).toMatchObject({
    status: 'SUCCESS',
    sender: DEV_SUI_PAYER.toSuiAddress(),
  });
  expect(sui.server.chain.balanceOf(p.paymentAddress, DEV_SUI_USDC)).toBe(25_000_000n);
  expect(sui.server.chain.balanceOf(DEV_SUI_PAYER.toSuiAddress(), DEV_SUI_USDC)).toBe(payerUsdc - 25_000_000n);

  const done = await until(p.id, (x) => x.status === 'confirmed');
  expect(done.receivedAmount).toBe('25');
  expect(done.blockchainTransactions).toEqual([
    expect.objectContaining({ chain: 'sui', network: 'mainnet', txHash: digest }),
  ]);
});

test('pays native SUI (9 decimals) in parts: --amount, then the rest', async () => {
  const created = await m.post('/v1/payments', { chain: 'sui', token: 'SUI', amount: '1.5', currency: 'SUI' });
  expect(created.status).toBe(201);
  const p = created.body as Row;
  const part = await devPay(['--payment', p.id, '--amount', '0.5']);
  expect(part.code).toBe(0);
  await until(p.id, (x) => x.status === 'underpaid' && x.receivedAmount === '0.5');
  const rest = await devPay(['--payment', p.id]);
  expect(rest.stderr).toContain('sent 1 SUI on sui/mainnet');
  const done = await until(p.id, (x) => x.status === 'confirmed');
  expect(done.receivedAmount).toBe('1.5');
  expect(sui.server.chain.balanceOf(p.paymentAddress, SUI)).toBe(1_500_000_000n);
});
