// House style 6: synchronize is off everywhere, and this test fails when the entities and the
// hand-written migrations disagree.
import 'reflect-metadata';
import type { DataSource, QueryRunner } from 'typeorm';
import { createDataSource } from '@svc/db';
import { createTestDatabase, dropTestDatabase } from './support/test-app';

/**
 * The schema builder's reading of the database, with its statements sent one at a time. TypeORM's
 * PostgresQueryRunner.loadTables reads every enum column's type name with Promise.all on one
 * connection, which makes pg warn about a busy client (and jest.environment.js fail the test); the
 * service never loads tables (synchronize is off), only this test does.
 */
async function drift(ds: DataSource): Promise<string[]> {
  const create = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>): QueryRunner => {
    const runner = create(...args);
    const query = runner.query.bind(runner);
    let last: Promise<unknown> = Promise.resolve();
    runner.query = (...q: Parameters<QueryRunner['query']>) => {
      const next = last.then(() => query(...q));
      last = next.catch(() => undefined);
      return next;
    };
    return runner;
  };
  try {
    return (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
  } finally {
    ds.createQueryRunner = create;
  }
}

test('the migrations produce exactly the schema the entities describe', async () => {
  const database = await createTestDatabase('svc_e2e_schema');
  const ds = createDataSource(database.url, 2);
  try {
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    expect(await drift(ds)).toEqual([]);

    // every migration down, then up again, leaves the same schema
    for (let i = 0; i < ds.migrations.length; i++) await ds.undoLastMigration({ transaction: 'all' });
    const tables: Array<{ n: string }> = await ds.query(
      `SELECT count(*)::text AS n FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
    );
    expect(tables[0].n).toBe('0');
    await ds.runMigrations({ transaction: 'all' });
    expect(await drift(ds)).toEqual([]);
  } finally {
    await ds.destroy();
    await dropTestDatabase(database.name);
  }
});
