// The signer against real things: a fresh PostgreSQL database (migrated), one Anvil with a real
// OpenZeppelin ERC-20 deployed, a chain registry pointing at it (also written as a chains file for
// child processes), a seed of its own and a clock the test moves.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Contract, Wallet } from 'ethers';
import type { DataSource } from 'typeorm';
import { BUILT_IN_CHAINS, ChainRegistry, generateMnemonic, mergeChainsFile } from '@svc/chains';
import { createDataSource } from '@svc/db';
import {
  AnvilNode,
  ChainsFileEntry,
  DEV_PAYER_ADDRESS,
  DEV_PAYER_KEY,
  DevPayer,
  deployToken,
  startAnvil,
  writeChainsFile,
} from '@svc/devnet';
import { isFinalOutboundState } from '@svc/domain';
import { EvmKeyring, FeePolicy, OutboundService, OutboundTransfer, SignerKeyRef, SignerOptions } from '@svc/outbound';
import { ENGINE_SUITES_PAY_ANY_DESTINATION } from './engine-destinations';
import { createTestDatabase, dropTestDatabase } from './test-app';

export class TestClock {
  private t = Date.now();
  now = (): Date => new Date(this.t);
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}

export interface SignerHarnessOptions {
  chain?: string;
  chainId?: number;
  confirmations?: number;
  /** `berlin`: no base fee, so the signer signs legacy transactions */
  hardfork?: string;
  tokenDecimals?: number;
  feePolicy?: Partial<FeePolicy>;
}

export interface SignerHarness {
  chain: string;
  network: 'mainnet';
  node: AnvilNode;
  /** the ERC-20 (symbol USDC in the registry) */
  token: string;
  payer: DevPayer;
  mnemonic: string;
  keyring: EvmKeyring;
  registry: ChainRegistry;
  chainsFile: string;
  databaseUrl: string;
  db: DataSource;
  clock: TestClock;
  /** A signer as another process would have it: its own connection pool, same database (and seed, unless given). */
  service(options?: SignerOptions & { mnemonic?: string }): Promise<OutboundService>;
  nativeBalance(address: string): Promise<bigint>;
  tokenBalance(address: string): Promise<bigint>;
  /** A native refund of `amountAtomic` from `from` (a refund wallet, say) to a fresh buyer, planned by `s`. */
  planNativeRefund(
    s: OutboundService,
    from: SignerKeyRef,
    amountAtomic: bigint,
  ): Promise<{ planned: OutboundTransfer; buyer: string }>;
  /** advance() until final, mining a block whenever a transaction waits for confirmations */
  drive(s: OutboundService, id: string, maxSteps?: number): Promise<OutboundTransfer>;
  close(): Promise<void>;
}

export async function startSignerHarness(o: SignerHarnessOptions = {}): Promise<SignerHarness> {
  const chain = o.chain ?? 'bnb';
  const chainId = o.chainId ?? 56;
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-signer-'));
  const [node, database] = await Promise.all([startAnvil({ chainId, hardfork: o.hardfork }), createTestDatabase()]);
  const token = await deployToken({
    rpcUrl: node.url,
    privateKey: DEV_PAYER_KEY,
    name: 'Dev USDC',
    symbol: 'USDC',
    decimals: o.tokenDecimals ?? 18,
    mintTo: [DEV_PAYER_ADDRESS],
  });
  const entry: ChainsFileEntry = {
    chain,
    network: 'mainnet',
    kind: 'evm',
    chainId,
    rpcUrls: [node.url],
    confirmations: o.confirmations ?? 2,
    watched: true,
    tokens: [
      { symbol: 'USDC', address: token, decimals: o.tokenDecimals ?? 18, watched: true },
      { symbol: chain === 'bnb' ? 'BNB' : 'ETH', native: true, decimals: 18, watched: true },
    ],
  };
  const chainsFile = path.join(dir, 'chains.json');
  writeChainsFile(chainsFile, [entry]);
  const registry = new ChainRegistry(mergeChainsFile(BUILT_IN_CHAINS, { chains: [entry] }, 'signer harness'));
  const db = createDataSource(database.url, 4);
  await db.initialize();
  await db.runMigrations({ transaction: 'all' });
  const mnemonic = generateMnemonic();
  const clock = new TestClock();
  const payer = new DevPayer(node.url, DEV_PAYER_KEY, chainId);
  const pools: DataSource[] = [];
  const provider = payer.provider;

  const h: SignerHarness = {
    chain,
    network: 'mainnet',
    node,
    token,
    payer,
    mnemonic,
    keyring: new EvmKeyring(mnemonic),
    registry,
    chainsFile,
    databaseUrl: database.url,
    db,
    clock,
    async service({ mnemonic: seed, ...options } = {}) {
      const pool = createDataSource(database.url, 4);
      await pool.initialize();
      pools.push(pool);
      return new OutboundService(pool, registry, new EvmKeyring(seed ?? mnemonic), clock, {
        feePolicy: o.feePolicy,
        destinations: ENGINE_SUITES_PAY_ANY_DESTINATION,
        ...options,
      });
    },
    nativeBalance: (address) => provider.getBalance(address),
    async tokenBalance(address) {
      const c = new Contract(token, ['function balanceOf(address) view returns (uint256)'], provider);
      return (await c.balanceOf(address)) as bigint;
    },
    async planNativeRefund(s, from, amountAtomic) {
      const buyer = freshAddress();
      const planned = await s.planRefund({
        chain,
        network: 'mainnet',
        refundId: randomUUID(),
        from,
        to: buyer,
        token: null,
        amountAtomic,
      });
      return { planned, buyer };
    },
    async drive(s, id, maxSteps = 30) {
      let t = await s.get(id);
      for (let i = 0; i < maxSteps && !isFinalOutboundState(t.state); i++) {
        t = await s.advance(id);
        if (t.state === 'mined') await node.mine(1);
      }
      return t;
    },
    async close() {
      payer.close();
      await Promise.all(pools.map((p) => p.destroy()));
      await db.destroy();
      await node.stop();
      await dropTestDatabase(database.name);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

/** A fresh EOA nobody holds the key of (a settlement address, a buyer). */
export const freshAddress = (): string => Wallet.createRandom().address;

export const ether = (n: string): bigint => {
  const [i, f = ''] = n.split('.');
  return BigInt(i) * 10n ** 18n + BigInt((f + '0'.repeat(18)).slice(0, 18));
};
