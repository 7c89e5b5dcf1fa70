// Workspaces' refund wallets (money contract › Refunds 4): one index per workspace, i from
// refund_wallet_index_seq, allocated once and kept in refund_wallets, and one address per chain
// family from that i, made as the family table says (`refundWallet`): EVM m/44'/60'/2'/0/i from the
// account xpub (the API allocates it), Sui m/44'/784'/2'/0'/i' from the seed (the signer writes it).
// A separate hardened account keeps them apart from deposit addresses (which the listener watches
// and the payout runs sweep).
import type { DataSource, EntityManager } from 'typeorm';
import { CHAIN_KINDS, checkIndex, family, seedMaterial, type ChainKind, type SeedMaterial } from '@svc/chains';
import { RefundWalletEntity } from '@svc/db';
import type { Clock } from './context';
import { refundWalletKey, SignerKeyRef } from './keys/keyring';

export interface RefundWallet {
  workspaceId: string;
  address: string;
  key: SignerKeyRef;
}

/** What refund-wallet addresses are made from. */
export interface RefundWalletKeys {
  /** a published account xpub (the API: PublishedKeys; the signing process: its seed's) */
  xpub(path: string): string;
  /** the seed (the signing process only), for families whose refund wallet only the seed derives */
  readonly seed: SeedMaterial | null;
}

/** The signing process's refund-wallet keys: everything from the seed. */
export function seedRefundWalletKeys(mnemonic: string): RefundWalletKeys {
  const seed = seedMaterial(mnemonic);
  return { xpub: (path) => seed.xpub(path), seed };
}

/**
 * The family whose row holds a workspace's refund-wallet index: the first of the table whose
 * refund wallet comes from an xpub, so the API (no seed) can allocate it.
 */
const INDEX_KIND: ChainKind = (() => {
  const kind = CHAIN_KINDS.find((k) => family(k).refundWallet?.type === 'xpub');
  if (!kind) throw new Error('no chain family has refund wallets from an xpub');
  return kind;
})();

/** Addresses only: the API can list refund wallets with it; spending stays with the signer's keyring. */
export class RefundWallets {
  constructor(
    private readonly db: DataSource,
    private readonly keys: RefundWalletKeys,
    private readonly clock: Clock,
  ) {}

  /** The workspace's refund wallet on a family's rails (the same index on every family), made on first use. */
  async ensureFor(kind: ChainKind, workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet> {
    const scheme = family(kind).refundWallet;
    if (!scheme) throw new Error(`no refund wallet on ${kind} rails`);
    const existing = await this.findFor(kind, workspaceId, m);
    if (existing) return existing;
    let index: bigint;
    if (kind === INDEX_KIND) {
      const [{ i }]: Array<{ i: string }> = await m.query(`SELECT nextval('refund_wallet_index_seq') AS i`);
      index = BigInt(i);
    } else {
      index = (await this.ensure(workspaceId, m)).key.index;
    }
    let address: string;
    if (scheme.type === 'xpub') {
      address = scheme.address(this.keys.xpub(scheme.accountPath), checkIndex(index));
    } else {
      if (!this.keys.seed) throw new Error(`RefundWallets was built without the seed: ${kind} refund wallets need it`);
      address = scheme.derive(this.keys.seed, checkIndex(index));
    }
    await m
      .createQueryBuilder()
      .insert()
      .into(RefundWalletEntity)
      .values({ workspaceId, addressKind: kind, addressIndex: index, address, createdAt: this.clock.now() })
      .orIgnore() // a concurrent first use won; its index stands, ours is skipped
      .execute();
    return (await this.findFor(kind, workspaceId, m)) as RefundWallet;
  }

  /** The workspace's refund wallet on a family's rails if its row exists (no allocation, no seed). */
  async findFor(
    kind: ChainKind,
    workspaceId: string,
    m: EntityManager = this.db.manager,
  ): Promise<RefundWallet | null> {
    const row = await m.findOne(RefundWalletEntity, { where: { workspaceId, addressKind: kind } });
    return row ? { workspaceId, address: row.address, key: refundWalletKey(row.addressIndex) } : null;
  }

  /** The row that holds the workspace's refund-wallet index (allocated on first use). */
  ensure(workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet> {
    return this.ensureFor(INDEX_KIND, workspaceId, m);
  }

  find(workspaceId: string, m: EntityManager = this.db.manager): Promise<RefundWallet | null> {
    return this.findFor(INDEX_KIND, workspaceId, m);
  }
}

/**
 * The seed's part of the refund wallets (issue 19 › Keys): on a family whose refund wallet only the
 * seed derives (`refundWallet.type: 'seed'`, e.g. Sui: ed25519, hardened at every level), no public
 * key lets the API derive it. The signing process gives every workspace its refund-wallet index (if
 * the API has not allocated it yet) and that index's address on each such family, a batch at a time
 * on each of its intervals; the API lists what is there. Returns how many addresses it wrote.
 */
export async function provisionRefundWallets(wallets: RefundWallets, db: DataSource, batch = 500): Promise<number> {
  let written = 0;
  for (const kind of CHAIN_KINDS.filter((k) => family(k).refundWallet?.type === 'seed')) {
    const rows: Array<{ id: string }> = await db.query(
      `SELECT w.id FROM workspaces w
        WHERE NOT EXISTS (SELECT 1 FROM refund_wallets r WHERE r.workspace_id = w.id AND r.address_kind = $2)
        ORDER BY w.created_at, w.id LIMIT $1`,
      [batch, kind],
    );
    for (const { id } of rows) await wallets.ensureFor(kind, id);
    written += rows.length;
  }
  return written;
}
