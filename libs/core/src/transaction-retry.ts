import { DataSource, EntityManager } from 'typeorm';

/** deadlock detected, serialization failure: the transaction did nothing and may simply run again */
const RETRYABLE_PG_CODES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

/**
 * Runs `work` in a transaction, again (up to five times, with a short jittered pause) when
 * PostgreSQL aborted it for a deadlock or a serialization failure. Anything else is thrown.
 */
export async function inRetriedTransaction<T>(db: DataSource, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= MAX_ATTEMPTS || code === undefined || !RETRYABLE_PG_CODES.has(code)) throw err;
      await new Promise((r) => setTimeout(r, 10 * attempt + Math.floor(Math.random() * 20)));
    }
  }
}
