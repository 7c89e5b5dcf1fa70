// House style 6: synchronize is off everywhere, and this test fails when the entities and the
// hand-written migrations disagree.
import 'reflect-metadata';
import { createDataSource } from '@svc/db';
import { createTestDatabase, dropTestDatabase } from './support/test-app';

test('the migrations produce exactly the schema the entities describe', async () => {
  const database = await createTestDatabase('svc_e2e_schema');
  const ds = createDataSource(database.url, 2);
  try {
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    const drift = await ds.driver.createSchemaBuilder().log();
    expect(drift.upQueries.map((q) => q.query)).toEqual([]);

    // every migration down, then up again, leaves the same schema
    for (let i = 0; i < ds.migrations.length; i++) await ds.undoLastMigration({ transaction: 'all' });
    const tables: Array<{ n: string }> = await ds.query(
      `SELECT count(*)::text AS n FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
    );
    expect(tables[0].n).toBe('0');
    await ds.runMigrations({ transaction: 'all' });
    expect((await ds.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  } finally {
    await ds.destroy();
    await dropTestDatabase(database.name);
  }
});
