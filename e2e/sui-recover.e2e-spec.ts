// `svc recover --payment <id> --tx <digest>` on Sui (issue 22): the transaction's balance changes
// to the payment's address in its coin type are credited (the Sui family reader in libs/chains/src/sui,
// the recovery path's minimal Sui reader); a second run changes nothing (exit 0, already
// credited); a digest the node does not know exits 1; a transaction paying another coin type or
// another address exits 3 (the spec's 409), as on EVM. No listener runs: only recovery credits.
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DevSui, DEV_SUI_USDC, SUI, startDevSui, writeChainsFile } from '@svc/devnet';
import { merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(120_000);

type Row = Record<string, any>;
const ROOT = path.resolve(__dirname, '..');

let sui: DevSui;
let chainsFile: string;
let t: TestApp;
let m: Awaited<ReturnType<typeof merchant>>;

beforeAll(async () => {
  sui = await startDevSui({ checkpointIntervalMs: 100 });
  chainsFile = path.join(mkdtempSync(path.join(tmpdir(), 'svc-sui-recover-')), 'chains.json');
  writeChainsFile(chainsFile, [sui.entry]);
  t = await startTestApp({ SVC_CHAINS_FILE: chainsFile });
  m = await merchant(t);
});
afterAll(async () => {
  await t?.close();
  await sui?.stop();
});

function recover(paymentId: string, digest: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      ['scripts/svc.js', 'recover', '--payment', paymentId, '--tx', digest, '--json'],
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
    ),
  );
}

test('credits a Sui USDC payment from its digest, once; unknown digests and other coin types are refused', async () => {
  const p = (await m.post('/v1/payments', { chain: 'sui', token: 'USDC', amount: '25', currency: 'USDC' })).body as Row;
  const sent = await sui.payer.pay(p.paymentAddress, DEV_SUI_USDC, 25_000_000n);
  expect(sent.success).toBe(true);

  const first = await recover(p.id, sent.digest);
  expect(first).toMatchObject({ code: 0 });
  expect(JSON.parse(first.stdout)).toMatchObject({
    paymentId: p.id,
    txHash: sent.digest,
    outcome: 'credited',
    previousStatus: 'waiting_for_payment',
    status: 'confirmed',
    receivedAmount: '25',
    transfers: 1,
  });
  const again = await recover(p.id, sent.digest);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'already_credited', receivedAmount: '25' });
  const payment = (await m.get(`/v1/payments/${p.id}`)).body as Row;
  expect(payment.blockchainTransactions).toEqual([expect.objectContaining({ chain: 'sui', txHash: sent.digest })]);

  // a digest no node knows: exit 1
  const unknown = await recover(p.id, '11111111111111111111111111111111');
  expect(unknown.code).toBe(1);

  // SUI sent to a USDC payment's address: not credited (exit 3, the spec's 409)
  const q = (await m.post('/v1/payments', { chain: 'sui', token: 'USDC', amount: '5', currency: 'USDC' })).body as Row;
  const wrong = await sui.payer.pay(q.paymentAddress, SUI, 1_000_000n);
  const refused = await recover(q.id, wrong.digest);
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('no USDC');
});
