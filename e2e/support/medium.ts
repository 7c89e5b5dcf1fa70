// The medium test tier: real PostgreSQL (a fresh, migrated database per file), real Nest
// providers, no HTTP. What the ledger, the jobs and the listener's credit side are built from
// (CoreModule + PaymentLedgerModule + whatever a test adds), with their own pool and clock.
// Generalised from credit-context.ts, which is now built on it.
import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { loadConfig, SvcConfig } from '@svc/config';
import { ClockService, CoreModule } from '@svc/core';
import { createDataSource } from '@svc/db';
import { CheckoutSessionRepository, PaymentLedger, PaymentLedgerModule, PaymentRepository } from '@svc/payments';
import { createTestDatabase, dropTestDatabase, PAY_URL, TEST_DATA_KEY, TEST_MNEMONIC } from './test-app';

export interface Medium {
  app: INestApplicationContext;
  db: DataSource;
  config: SvcConfig;
  clock: ClockService;
  ledger: PaymentLedger;
  payments: PaymentRepository;
  sessions: CheckoutSessionRepository;
  close: () => Promise<void>;
}

export interface MediumOptions {
  /** an existing configuration (e.g. a test app's database); otherwise a fresh database is made and dropped on close */
  config?: SvcConfig;
  /** environment overrides for the fresh database's configuration */
  env?: Record<string, string>;
  /** more modules to build with the core and the ledger (the listener's CreditModule, JobsModule …) */
  imports?: Array<Type<unknown> | DynamicModule>;
}

@Module({})
class MediumModule {
  static forRoot(config: SvcConfig, imports: Array<Type<unknown> | DynamicModule>): DynamicModule {
    return { module: MediumModule, imports: [CoreModule.forRoot(config), PaymentLedgerModule, ...imports] };
  }
}

/** A migrated scratch database and its configuration (test mode, dev clock on, the test mnemonic). */
export async function freshDatabase(env: Record<string, string> = {}): Promise<{ config: SvcConfig; name: string }> {
  const database = await createTestDatabase('svc_medium');
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    SVC_ENV: 'test',
    SVC_DEV_CLOCK: '1',
    SVC_MNEMONIC: TEST_MNEMONIC,
    SVC_DATA_KEY: TEST_DATA_KEY,
    PAY_URL,
    BASE_URL: 'http://api.test',
    ...env,
  });
  const migrator = createDataSource(config.databaseUrl, 2);
  await migrator.initialize();
  await migrator.runMigrations({ transaction: 'all' });
  await migrator.destroy();
  return { config, name: database.name };
}

export async function startMedium(options: MediumOptions = {}): Promise<Medium> {
  const fresh = options.config ? null : await freshDatabase(options.env);
  const config = options.config ?? (fresh as { config: SvcConfig }).config;
  const app = await NestFactory.createApplicationContext(MediumModule.forRoot(config, options.imports ?? []), {
    logger: process.env.E2E_LOG ? ['log', 'warn', 'error'] : ['error'],
    abortOnError: false,
  });
  await app.init();
  return {
    app,
    db: app.get(DataSource),
    config,
    clock: app.get(ClockService),
    ledger: app.get(PaymentLedger),
    payments: app.get(PaymentRepository),
    sessions: app.get(CheckoutSessionRepository),
    close: async () => {
      await app.close();
      if (fresh) await dropTestDatabase(fresh.name);
    },
  };
}
