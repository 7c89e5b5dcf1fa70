export * from './clock.service';
export * from './config.provider';
export * from './core.module';
export * from './deposit-keys.module';
export * from './sql.service';
export * from './errors';
export * from './transaction-retry';
export * from './grouped-statements';
