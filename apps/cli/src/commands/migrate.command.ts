import { DataSource } from 'typeorm';
import { parseOptions } from '../cli-args';
import { connect, ensureDatabase } from './database';

/** A fixed key for pg_advisory_lock, so concurrent `migrate` runs apply migrations one at a time. */
export const MIGRATION_LOCK_KEY = '5870192634401177601';

export function parseMigrateArgs(args: string[]): void {
  parseOptions('migrate', args, {});
}

/** runtime contract › Operator CLI › `migrate`: create the database if missing, run pending migrations; safe concurrently. */
export class MigrateCommand {
  constructor(
    private readonly db: DataSource,
    private readonly databaseUrl: string,
  ) {}

  async run(): Promise<void> {
    const created = await ensureDatabase(this.databaseUrl);
    if (created) process.stdout.write(`created database ${new URL(this.databaseUrl).pathname.slice(1)}\n`);
    await connect(this.db);
    // The lock lives on its own connection; runMigrations takes the pool's other one.
    const lock = this.db.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const applied = await this.db.runMigrations({ transaction: 'all' });
      process.stdout.write(
        applied.length
          ? `migrated: ${applied.length} applied (${applied.map((m) => m.name).join(', ')})\n`
          : 'up to date\n',
      );
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await lock.release();
    }
  }
}
