// The service's Sui keys (issue 22 › keys): the Sui gas tank m/44'/784'/1'/0'/0' and the workspace
// refund wallet's Sui address m/44'/784'/2'/0'/i' (the EVM wallet's i), one definition
// (libs/chains sui-accounts.ts) for the signer, the API and the devnet; GET /v1/refund-wallets lists
// the Sui address with its balances, `svc gas-tank --json` the Sui tank with its SUI.
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { EvmAccounts } from '@svc/chains';
import { DevSui, DEV_SUI_USDC, SUI, fundDevSuiAccount, startDevSui, writeChainsFile } from '@svc/devnet';
import {
  provisionRefundWallets,
  RefundWallets,
  seedRefundWalletKeys,
  SuiKeyring,
  SUI_GAS_TANK_KEY,
  refundWalletKey,
} from '@svc/outbound';
import { merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(90_000);

type Row = Record<string, any>;
const ROOT = path.resolve(__dirname, '..');

let sui: DevSui;
let chainsFile: string;
let t: TestApp;
let m: Awaited<ReturnType<typeof merchant>>;

beforeAll(async () => {
  sui = await startDevSui({ checkpointIntervalMs: 100 });
  chainsFile = path.join(mkdtempSync(path.join(tmpdir(), 'svc-sui-keys-')), 'chains.json');
  writeChainsFile(chainsFile, [sui.entry]);
  t = await startTestApp({ SVC_CHAINS_FILE: chainsFile });
  m = await merchant(t);
});

afterAll(async () => {
  await t?.close();
  await sui?.stop();
});

const mnemonic = () => t.config.mnemonic as string;

test('the keyring derives the Sui gas tank and refund wallets at their paths', () => {
  const keyring = new SuiKeyring(mnemonic());
  expect(keyring.gasTankAddress).toBe(Ed25519Keypair.deriveKeypair(mnemonic(), "m/44'/784'/1'/0'/0'").toSuiAddress());
  expect(keyring.address(refundWalletKey(3))).toBe(
    Ed25519Keypair.deriveKeypair(mnemonic(), "m/44'/784'/2'/0'/3'").toSuiAddress(),
  );
  expect(keyring.address(SUI_GAS_TANK_KEY)).not.toBe(keyring.address(refundWalletKey(0)));
});

test('GET /v1/refund-wallets lists the Sui address of the EVM wallet index once the signer derived it', async () => {
  // the API holds no seed: before the signer process wrote the Sui address, only EVM rails are listed
  expect(((await m.get('/v1/refund-wallets')).body as Row[]).some((w) => w.chain === 'sui')).toBe(false);
  const wallets = new RefundWallets(t.db, seedRefundWalletKeys(mnemonic()), { now: () => new Date() });
  expect(await provisionRefundWallets(wallets, t.db)).toBeGreaterThanOrEqual(1); // what apps/signer runs each interval
  expect(await provisionRefundWallets(wallets, t.db)).toBe(0);
  const rows = (await m.get('/v1/refund-wallets')).body as Row[];
  const row = rows.find((w) => w.chain === 'sui' && w.network === 'mainnet') as Row;
  expect(row).toBeDefined();
  const [{ address_index }]: Array<{ address_index: string }> = await t.db.query(
    `SELECT address_index FROM refund_wallets WHERE address_kind = 'evm'`,
  );
  const i = BigInt(address_index);
  expect(row.address).toBe(new SuiKeyring(mnemonic()).address(refundWalletKey(i)));
  expect(row.address).not.toBe(new EvmAccounts(mnemonic()).address('refund_wallet', i));
  expect(row.balances).toEqual(
    expect.arrayContaining([
      { token: 'USDC', amount: '0' },
      { token: 'SUI', amount: '0' },
    ]),
  );

  await fundDevSuiAccount(sui, row.address, { sui: 2n * 10n ** 9n, usdc: 7_500_000n });
  const again = ((await m.get('/v1/refund-wallets')).body as Row[]).find((w) => w.chain === 'sui') as Row;
  expect(again.address).toBe(row.address); // allocated once
  expect(again.balances).toEqual(
    expect.arrayContaining([
      { token: 'USDC', amount: '7.5' },
      { token: 'SUI', amount: '2' },
    ]),
  );
  expect(sui.server.chain.balanceOf(row.address, DEV_SUI_USDC)).toBe(7_500_000n);
});

test('svc gas-tank --json lists the Sui gas tank and its SUI', async () => {
  const tank = new SuiKeyring(mnemonic()).gasTankAddress;
  await fundDevSuiAccount(sui, tank, { sui: 3n * 10n ** 9n, usdc: 0n });
  expect(sui.server.chain.balanceOf(tank, SUI)).toBe(3n * 10n ** 9n);
  const out = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(
      process.execPath,
      ['scripts/svc.js', 'gas-tank', '--json'],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          ...process.env,
          DATABASE_URL: t.config.databaseUrl,
          SVC_ENV: 'test',
          SVC_CHAINS_FILE: chainsFile,
          SVC_MNEMONIC: mnemonic(),
        },
      },
      (err, stdout) => resolve({ code: err ? -1 : 0, stdout }),
    ),
  );
  expect(out.code).toBe(0);
  const lines = out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
  expect(lines.find((l) => l.chain === 'sui')).toEqual({
    chain: 'sui',
    network: 'mainnet',
    address: tank,
    symbol: 'SUI',
    decimals: 9,
    balance: '3',
    balanceAtomic: '3000000000',
    error: null,
  });
});

test('a Sui refund toAddress that is not a Sui address is a 400 naming the field', async () => {
  const created = await m.post('/v1/payments', { chain: 'sui', token: 'USDC', amount: '5', currency: 'USDC' });
  expect(created.status).toBe(201);
  for (const toAddress of ['not-an-address', '0x2137e661663739E2a6252B065B57B32Cfa8Dbb9C', '0x12zz']) {
    const res = await m.post(`/v1/payments/${created.body.id}/refund`, { toAddress });
    expect([toAddress, res.status, res.body.error]).toEqual([toAddress, 400, 'Bad Request']);
    expect(res.body.message).toMatch(/^toAddress\b/);
  }
});
