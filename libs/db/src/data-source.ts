import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from '@svc/migrations';

/** How long a query waits for a free pooled connection before it fails (instead of hanging). */
export const POOL_CONNECTION_TIMEOUT_MS = 10_000;

/** One definition of the connection for api, cli and tests; synchronize is off everywhere. */
export function dataSourceOptions(databaseUrl: string, poolSize = 20): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A null or undefined value in a find/update/delete `where` is a bug, not "no condition":
    // TypeORM's default drops the condition and matches every row (a null idempotency key once
    // answered with another payment). Match SQL NULL with IsNull() where that is meant.
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    extra: { max: poolSize, connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS },
  };
}

export function createDataSource(databaseUrl: string, poolSize?: number): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl, poolSize));
}
