// Refund wallets (money contract › Refunds 4): one EVM address per workspace from its own
// hardened account (m/44'/60'/2'/0/i), allocated once from refund_wallet_index_seq, never shared.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import type { DataSource } from 'typeorm';
import { generateMnemonic } from '@svc/chains';
import { createDataSource } from '@svc/db';
import { EvmKeyring, RefundWallets, seedRefundWalletKeys } from '@svc/outbound';
import { createTestDatabase, dropTestDatabase } from './support/test-app';

let db: DataSource;
let name: string;
const mnemonic = generateMnemonic();

beforeAll(async () => {
  const database = await createTestDatabase();
  name = database.name;
  db = createDataSource(database.url, 4);
  await db.initialize();
  await db.runMigrations({ transaction: 'all' });
});
afterAll(async () => {
  await db.destroy();
  await dropTestDatabase(name);
});

const workspace = async () => {
  const id = randomUUID();
  await db.query(`INSERT INTO workspaces (id, name) VALUES ($1, 'ws')`, [id]);
  return id;
};

test('one wallet per workspace, the same on every call and under concurrent first use', async () => {
  const wallets = new RefundWallets(db, seedRefundWalletKeys(mnemonic), { now: () => new Date() });
  const [w1, w2] = [await workspace(), await workspace()];
  const first = await Promise.all(Array.from({ length: 5 }, () => wallets.ensure(w1)));
  expect(new Set(first.map((w) => w.address)).size).toBe(1);
  const other = await wallets.ensure(w2);
  expect(other.address).not.toBe(first[0].address);
  expect(await wallets.ensure(w1)).toEqual(first[0]);
  expect(await wallets.find(randomUUID())).toBeNull();

  // m/44'/60'/2'/0/i, and the signer's keyring spends from exactly that address
  const { key, address } = first[0];
  expect(key.kind).toBe('refund_wallet');
  expect(address).toBe(HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/2'/0/${key.index}`).address);
  expect(new EvmKeyring(mnemonic).address(key)).toBe(address);
});
