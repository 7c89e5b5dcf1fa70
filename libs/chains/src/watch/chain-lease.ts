// Claiming a chain through the database: a session advisory lock per (chain, network), held on
// one dedicated connection for as long as this listener copy works the chain. Every cursor write
// goes through that connection, so a copy that lost its connection (and with it the lock) can no
// longer move the cursor; the write is also conditional on the cursor it read (compare-and-set).
// Correctness does not rest on the lock alone: the credit is idempotent per transfer.
import { DataSource, QueryRunner } from 'typeorm';
import { redactRpcText } from '../rpc-url';
import type { ProcessedBlock } from '@svc/db';
import type { Network } from '@svc/domain';

/**
 * Where a watcher stands on its chain, whatever the chain's kind (the row of chain_cursors; its
 * columns keep their first, EVM names: next_block, genesis_hash).
 */
export interface ChainCursor {
  /** the next block number (EVM) or checkpoint sequence number (Sui) to read */
  position: bigint;
  /** EVM: the processed blocks kept for reorg checks, oldest first, the last one is position - 1; Sui: none */
  recent: ProcessedBlock[];
  /** what identifies the chain read: the hash of block 0 (EVM) or the chain identifier (Sui); null on an old row */
  anchor: string | null;
}

/** The lock or its connection is gone: stop working the chain and claim it again. */
export class LeaseLostError extends Error {}

const LOCK_NAMESPACE = 'svc.listener';

export class ChainLease {
  private released = false;

  private constructor(
    private readonly runner: QueryRunner,
    readonly chain: string,
    readonly network: Network,
  ) {}

  /** The lease when no other copy holds the chain, else null. */
  static async tryClaim(db: DataSource, chain: string, network: Network): Promise<ChainLease | null> {
    const runner = db.createQueryRunner();
    try {
      await runner.connect();
      const rows: Array<{ ok: boolean }> = await runner.query(
        `SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok`,
        [LOCK_NAMESPACE, `${chain}/${network}`],
      );
      if (rows[0]?.ok) return new ChainLease(runner, chain, network);
    } catch (err) {
      await runner.release().catch(() => undefined);
      throw err;
    }
    await runner.release();
    return null;
  }

  async load(): Promise<ChainCursor | null> {
    const rows = await this.q<{ next_block: string; recent_blocks: ProcessedBlock[]; genesis_hash: string | null }>(
      `SELECT next_block, recent_blocks, genesis_hash FROM chain_cursors WHERE chain = $1 AND network = $2`,
      [this.chain, this.network],
    );
    if (!rows.length) return null;
    return { position: BigInt(rows[0].next_block), recent: rows[0].recent_blocks, anchor: rows[0].genesis_hash };
  }

  /** Creates or replaces the cursor (a new chain, or a devnet that was reset). */
  async reset(cursor: ChainCursor, head: bigint): Promise<void> {
    await this.q(
      `INSERT INTO chain_cursors (chain, network, next_block, recent_blocks, genesis_hash, head, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (chain, network) DO UPDATE SET next_block = EXCLUDED.next_block, recent_blocks = EXCLUDED.recent_blocks,
         genesis_hash = EXCLUDED.genesis_hash, head = EXCLUDED.head, updated_at = now()`,
      [
        this.chain,
        this.network,
        cursor.position.toString(),
        JSON.stringify(cursor.recent),
        cursor.anchor,
        head.toString(),
      ],
    );
  }

  /** Moves the cursor from `from` to `cursor.position`; clears the last error. */
  async advance(from: bigint, cursor: ChainCursor, head: bigint): Promise<void> {
    const rows = await this.q(
      `UPDATE chain_cursors SET next_block = $4, recent_blocks = $5, head = $6, last_error = NULL, last_error_at = NULL, updated_at = now()
       WHERE chain = $1 AND network = $2 AND next_block = $3 RETURNING 1`,
      [
        this.chain,
        this.network,
        from.toString(),
        cursor.position.toString(),
        JSON.stringify(cursor.recent),
        head.toString(),
      ],
    );
    if (!rows.length) throw new LeaseLostError(`${this.chain}/${this.network}: the cursor moved under this copy`);
  }

  /** When the last complete pass to the chain head began (the expiry job waits for it), or null. */
  async passMark(): Promise<Date | null> {
    const rows = await this.q<{ pass_started_at: Date | null }>(
      `SELECT pass_started_at FROM chain_cursors WHERE chain = $1 AND network = $2`,
      [this.chain, this.network],
    );
    return rows[0]?.pass_started_at ?? null;
  }

  /** Records that a pass to the chain head that began at `startedAt` is complete; the mark never moves back. */
  async markPass(startedAt: Date): Promise<void> {
    await this.q(
      `UPDATE chain_cursors SET pass_started_at = GREATEST(pass_started_at, $3) WHERE chain = $1 AND network = $2`,
      [this.chain, this.network, startedAt],
    );
  }

  /**
   * Health only: the head seen while idle (clearing the last error), or the last error. The
   * error is stored with every URL cut to scheme://host[:port] (health shows it; RPC URLs carry keys).
   */
  async report(head: bigint | null, error: { message: string; at: Date } | null): Promise<void> {
    await this.q(
      error
        ? `UPDATE chain_cursors SET head = COALESCE($3, head), last_error = $4, last_error_at = $5 WHERE chain = $1 AND network = $2`
        : `UPDATE chain_cursors SET head = COALESCE($3, head), last_error = NULL, last_error_at = NULL WHERE chain = $1 AND network = $2`,
      error
        ? [this.chain, this.network, head?.toString() ?? null, redactRpcText(error.message).slice(0, 1000), error.at]
        : [this.chain, this.network, head?.toString() ?? null],
    );
  }

  /** Unlocks and returns the connection; when the connection is broken, dropping it ends the lock anyway. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await this.runner.query(`SELECT pg_advisory_unlock(hashtext($1), hashtext($2))`, [
        LOCK_NAMESPACE,
        `${this.chain}/${this.network}`,
      ]);
    } catch {
      /* the connection is gone, and the lock with it */
    }
    await this.runner.release().catch(() => undefined);
  }

  /** Rows of a SELECT, or the RETURNING rows of an UPDATE. */
  private async q<R = any>(sql: string, params: unknown[]): Promise<R[]> {
    if (this.released) throw new LeaseLostError(`${this.chain}/${this.network}: lease released`);
    try {
      const result = await this.runner.query(sql, params, true);
      return (result as { records: R[] }).records;
    } catch (err) {
      throw new LeaseLostError(`${this.chain}/${this.network}: cursor connection failed: ${(err as Error).message}`);
    }
  }
}
