// The Sui devnet (see ./sui-devnet.ts for what it speaks and executes). Dev tooling only.
export * from './chain';
export * from './execute';
export * from './server';
export * from './sui-devnet';
export * from './payer';
export * from './accounts';
export * from './dev';
