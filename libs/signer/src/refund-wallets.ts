// Workspaces' refund wallets (money contract › Refunds 4): one EVM address per workspace, the
// same on every EVM chain, m/44'/60'/2'/0/i with i from refund_wallet_index_seq, and its Sui
// address m/44'/784'/2'/0'/i' with the same i (a `sui` row beside the `evm` one). A separate
// hardened account keeps them apart from deposit addresses (which the listener watches and the
// payout runs sweep); the index is allocated once and kept in refund_wallets.
import type { DataSource, EntityManager } from 'typeorm';
import { EvmAccounts, SuiAccounts, type ChainKind } from '@svc/chains';
import { RefundWalletEntity } from '@svc/db';
import type { Clock } from './context';
import { refundWalletKey, SignerKeyRef } from './keys/keyring';

export interface RefundWallet {
  workspaceId: string;
  address: string;
  key: SignerKeyRef;
}

/** Addresses only: the API can list refund wallets with it; spending stays with the signer's keyring. */
export class RefundWallets {
  constructor(
    private readonly db: DataSource,
    private readonly accounts: EvmAccounts,
    private readonly clock: Clock,
    private readonly sui: SuiAccounts | null = null,
  ) {}

  /** The workspace's refund wallet on a family's rails (the same index on every family). */
  ensureFor(kind: ChainKind, workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet> {
    switch (kind) {
      case 'evm':
        return this.ensure(workspaceId, m);
      case 'sui':
        return this.ensureSui(workspaceId, m);
      default:
        throw new Error(`no refund wallet on ${kind} rails`);
    }
  }

  /** The workspace's EVM refund wallet, allocated on first use. */
  async ensure(workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet> {
    const existing = await this.find(workspaceId, m);
    if (existing) return existing;
    const [{ i }]: Array<{ i: string }> = await m.query(`SELECT nextval('refund_wallet_index_seq') AS i`);
    const index = BigInt(i);
    await m
      .createQueryBuilder()
      .insert()
      .into(RefundWalletEntity)
      .values({
        workspaceId,
        addressKind: 'evm',
        addressIndex: index,
        address: this.accounts.address('refund_wallet', index),
        createdAt: this.clock.now(),
      })
      .orIgnore() // a concurrent first use won; its index stands, ours is skipped
      .execute();
    return (await this.find(workspaceId, m)) as RefundWallet;
  }

  async find(workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet | null> {
    const row = await m.findOne(RefundWalletEntity, { where: { workspaceId, addressKind: 'evm' } });
    return row ? { workspaceId, address: row.address, key: refundWalletKey(row.addressIndex) } : null;
  }

  /**
   * The workspace's Sui refund wallet: the Sui address of the EVM wallet's index (allocated first
   * when there is none), so one index stands for the workspace's refund wallet on every family.
   */
  async ensureSui(workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet> {
    if (!this.sui) throw new Error("RefundWallets was built without the seed's Sui accounts");
    const existing = await this.findSui(workspaceId, m);
    if (existing) return existing;
    const evm = await this.ensure(workspaceId, m);
    await m
      .createQueryBuilder()
      .insert()
      .into(RefundWalletEntity)
      .values({
        workspaceId,
        addressKind: 'sui',
        addressIndex: evm.key.index,
        address: this.sui.address('refund_wallet', evm.key.index),
        createdAt: this.clock.now(),
      })
      .orIgnore()
      .execute();
    return (await this.findSui(workspaceId, m)) as RefundWallet;
  }

  async findSui(workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet | null> {
    const row = await m.findOne(RefundWalletEntity, { where: { workspaceId, addressKind: 'sui' } });
    return row ? { workspaceId, address: row.address, key: refundWalletKey(row.addressIndex) } : null;
  }
}

/**
 * The seed's part of the refund wallets (issue 19 › Keys): a Sui address is ed25519 and hardened at
 * every level, so no public key lets the API derive it. The signing process gives every workspace
 * its refund-wallet index (the `evm` row, if the API has not allocated it yet) and that index's Sui
 * address, a batch at a time on each of its intervals; the API lists what is there. Returns how many
 * workspaces got their Sui address.
 */
export async function provisionRefundWallets(wallets: RefundWallets, db: DataSource, batch = 500): Promise<number> {
  const rows: Array<{ id: string }> = await db.query(
    `SELECT w.id FROM workspaces w
      WHERE NOT EXISTS (SELECT 1 FROM refund_wallets r WHERE r.workspace_id = w.id AND r.address_kind = 'sui')
      ORDER BY w.created_at, w.id LIMIT $1`,
    [batch],
  );
  for (const { id } of rows) await wallets.ensureSui(id);
  return rows.length;
}
