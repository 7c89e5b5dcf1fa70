// Dev tooling only (npm run dev, dev:pay, e2e, bench): never loaded by a production process.
export * from './anvil';
export * from './token';
export * from './devnet';
export * from './payer';
export * from './fund';
export * from './sui';
