import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** PostgreSQL error codes the CLI treats specially. */
export const PG_INVALID_CATALOG_NAME = '3D000'; // the database does not exist
export const PG_UNDEFINED_TABLE = '42P01';
const PG_DUPLICATE_DATABASE = '42P04';
const PG_UNIQUE_VIOLATION = '23505'; // a concurrent CREATE DATABASE can also surface as this

const pgCode = (err: unknown): string | undefined => (err as { code?: string } | null)?.code;

export async function connect(db: DataSource): Promise<DataSource> {
  return db.isInitialized ? db : db.initialize();
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * runtime contract › `migrate` creates the database named in DATABASE_URL if missing. Probes
 * the database itself first, so an operator whose database exists needs no access to
 * `postgres`; otherwise creates it from the `postgres` database of the same server. A
 * concurrent creator winning the race is success, not an error.
 * Returns true when this call created the database.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const probe = new Client({ connectionString: databaseUrl });
  try {
    await probe.connect();
    return false;
  } catch (err) {
    if (pgCode(err) !== PG_INVALID_CATALOG_NAME) throw err;
  } finally {
    await probe.end().catch(() => undefined);
  }

  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
    return true;
  } catch (err) {
    const code = pgCode(err);
    if (code === PG_DUPLICATE_DATABASE || code === PG_UNIQUE_VIOLATION) return false;
    throw err;
  } finally {
    await admin.end().catch(() => undefined);
  }
}
