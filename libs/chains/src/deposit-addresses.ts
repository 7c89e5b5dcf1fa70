// Deposit addresses per family (issue 19 › Keys). The signing process holds the seed and derives
// (DepositAddressDeriver); the API holds only what the signer published: account xpubs for
// families with public derivation (PublicDepositAddresses), and a pool of pre-derived addresses
// for the others (claimPooledAddress). Same paths and indexes as before the split, so every
// existing deposit address is unchanged.
import type { EntityManager } from 'typeorm';
import { checkIndex, seedMaterial, xpubChildAddress } from './derivation';
import type { SeedMaterial } from './family';
import { CHAIN_KINDS, ChainKind, family } from './families';

/** Families whose deposit addresses come from a pool the signer fills. */
export const POOLED_KINDS: readonly ChainKind[] = CHAIN_KINDS.filter((k) => family(k).depositAddresses.type === 'pool');

/** Deposit addresses from the seed: the signing process only (apps/signer, tests). */
export class DepositAddressDeriver {
  private readonly seed: SeedMaterial;

  constructor(mnemonic: string) {
    this.seed = seedMaterial(mnemonic);
  }

  derive(kind: ChainKind, index: number | bigint): string {
    const i = checkIndex(index);
    const scheme = family(kind).depositAddresses;
    return scheme.type === 'xpub' ? scheme.address(this.seed.xpub(scheme.accountPath), i) : scheme.derive(this.seed, i);
  }

  /** The extended public key of a BIP-32 path (what the signer publishes). */
  xpub(path: string): string {
    return this.seed.xpub(path);
  }

  /** What the signer publishes under `path`: a family's gas tank as the family says, else the path's xpub. */
  published(path: string): string {
    for (const kind of CHAIN_KINDS) {
      const tank = family(kind).gasTank;
      if (tank?.path === path) return tank.publish(this.seed);
    }
    return this.seed.xpub(path);
  }
}

/**
 * The account paths whose public material the seedless processes need: every family's
 * publicAccountPaths, xpub deposit account, xpub refund-wallet account and gas tank.
 */
export function publishedAccountPaths(): string[] {
  const paths = new Set<string>();
  for (const kind of CHAIN_KINDS) {
    const f = family(kind);
    for (const p of f.publicAccountPaths) paths.add(p);
    if (f.depositAddresses.type === 'xpub') paths.add(f.depositAddresses.accountPath);
    if (f.refundWallet?.type === 'xpub') paths.add(f.refundWallet.accountPath);
    if (f.gasTank) paths.add(f.gasTank.path);
  }
  return [...paths];
}

/**
 * The operator's gas tank on a family's rails from what the signer published (`published`
 * answers a path's published value and throws while it is missing); null when the family has none.
 */
export function gasTankAddress(kind: ChainKind, published: (path: string) => string): string | null {
  const tank = family(kind).gasTank;
  return tank ? tank.address(published(tank.path)) : null;
}

/** What the signer does for the seedless processes: publish the account xpubs, fill the pools. */
export async function provisionDepositKeys(
  db: EntityManager,
  deriver: DepositAddressDeriver,
  levels: PoolLevels = DEFAULT_POOL_LEVELS,
): Promise<Record<string, number>> {
  await publishAccountXpubs(db, deriver, publishedAccountPaths());
  return topUpDepositPools(db, deriver, levels);
}

/** Deposit addresses from published xpubs: what the API holds (no key material). */
export class PublicDepositAddresses {
  /** `xpubs` answers a published account path's xpub (and throws when it is not published). */
  constructor(private readonly xpubs: (path: string) => string) {}

  /** Whether deposit address i of this family comes from an xpub (else from the pool). */
  isPublic(kind: ChainKind): boolean {
    return family(kind).depositAddresses.type === 'xpub';
  }

  address(kind: ChainKind, index: number | bigint): string {
    const scheme = family(kind).depositAddresses;
    if (scheme.type !== 'xpub') throw new Error(`${kind} deposit addresses come from the pool, not from an xpub`);
    return scheme.address(this.xpubs(scheme.accountPath), checkIndex(index));
  }

  /**
   * The account xpub of a family whose deposit address i is xpubChildAddress(xpub, i) (EVM), which
   * an XpubAddressWorker can derive ahead off the caller's thread; null for any other family.
   * Throws like address() while the xpub is not published.
   */
  evmXpub(kind: ChainKind): string | null {
    const scheme = family(kind).depositAddresses;
    return scheme.type === 'xpub' && scheme.address === xpubChildAddress ? this.xpubs(scheme.accountPath) : null;
  }
}

/**
 * Publishes the xpubs of `paths` (idempotent). A path already published with another xpub means
 * this seed is not the one the database's addresses came from: refused, so a wrong seed can never
 * hand out addresses nobody can spend from.
 */
export async function publishAccountXpubs(
  db: EntityManager,
  deriver: DepositAddressDeriver,
  paths: readonly string[],
): Promise<void> {
  const rows = paths.map((path) => ({ path, xpub: deriver.published(path) }));
  await db.query(
    `INSERT INTO account_xpubs (path, xpub) SELECT p, x FROM unnest($1::varchar[], $2::varchar[]) AS t(p, x) ON CONFLICT (path) DO NOTHING`,
    [rows.map((r) => r.path), rows.map((r) => r.xpub)],
  );
  const stored = await loadAccountXpubs(db);
  for (const r of rows) {
    if (stored.get(r.path) !== r.xpub) {
      throw new Error(
        `the database's deposit addresses come from another seed (account ${r.path} differs): refusing to run with this SVC_MNEMONIC`,
      );
    }
  }
}

export async function loadAccountXpubs(db: EntityManager): Promise<Map<string, string>> {
  const rows: Array<{ path: string; xpub: string }> = await db.query(`SELECT path, xpub FROM account_xpubs`);
  return new Map(rows.map((r) => [r.path, r.xpub]));
}

export interface PoolLevels {
  /** below this many unclaimed addresses a family's pool is refilled */
  lowWater: number;
  /** ... up to this many */
  target: number;
}

export const DEFAULT_POOL_LEVELS: PoolLevels = { lowWater: 200, target: 1000 };

/**
 * Tops every pooled family's pool up to `target` once it is below `lowWater`; returns how many
 * addresses were added per family. Indexes come from deposit_address_index_seq (the sequence every
 * deposit address draws from). One signer at a time (advisory lock), so two never overfill.
 */
export async function topUpDepositPools(
  db: EntityManager,
  deriver: DepositAddressDeriver,
  levels: PoolLevels = DEFAULT_POOL_LEVELS,
): Promise<Record<string, number>> {
  const added: Record<string, number> = {};
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('deposit_address_pool'))`);
    for (const kind of POOLED_KINDS) {
      const [{ n }]: Array<{ n: number }> = await tx.query(
        `SELECT count(*)::int AS n FROM deposit_address_pool WHERE address_kind = $1`,
        [kind],
      );
      if (n >= levels.lowWater) continue;
      const want = levels.target - n;
      const indexes: Array<{ i: string }> = await tx.query(
        `SELECT nextval('deposit_address_index_seq') AS i FROM generate_series(1, $1)`,
        [want],
      );
      const usable = indexes.map((r) => BigInt(r.i)).filter((i) => i < 2n ** 31n);
      await tx.query(
        `INSERT INTO deposit_address_pool (address_kind, address_index, address)
         SELECT $1, i, a FROM unnest($2::bigint[], $3::varchar[]) AS t(i, a)`,
        [kind, usable.map(String), usable.map((i) => deriver.derive(kind, i))],
      );
      added[kind] = usable.length;
    }
  });
  return added;
}

/**
 * Claims one pooled deposit address in the caller's transaction (the payment's): a rollback puts
 * it back. SKIP LOCKED, so concurrent creates never wait on each other. null when the pool is empty.
 */
export async function claimPooledAddress(
  tx: EntityManager,
  kind: ChainKind,
): Promise<{ index: bigint; address: string } | null> {
  const rows: Array<{ address_index: string; address: string }> = await tx.query(
    // a CTE, so the driver answers rows (a bare DELETE … RETURNING answers [rows, count] through TypeORM)
    `WITH claimed AS (
       DELETE FROM deposit_address_pool WHERE (address_kind, address_index) = (
         SELECT address_kind, address_index FROM deposit_address_pool WHERE address_kind = $1
         ORDER BY address_index LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING address_index, address)
     SELECT address_index, address FROM claimed`,
    [kind],
  );
  return rows.length ? { index: BigInt(rows[0].address_index), address: rows[0].address } : null;
}
