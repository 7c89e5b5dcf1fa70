// Workspaces' refund wallets (money contract › Refunds 4): one EVM address per workspace, the
// same on every EVM chain, m/44'/60'/2'/0/i with i from refund_wallet_index_seq. A separate
// hardened account keeps them apart from deposit addresses (which the listener watches and the
// payout runs sweep); the index is allocated once and kept in refund_wallets.
import type { DataSource, EntityManager } from 'typeorm';
import { EvmAccounts } from '@svc/chains';
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
  ) {}

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
}
