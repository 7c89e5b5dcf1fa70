// @svc/signer: the crash-safe EVM "money out" machinery (docs/money-out.md › The signer).
export * from './context';
export * from './fees/fees';
export * from './keys/keyring';
export * from './keys/sui-keyring';
export * from './rails/sui/sui-node';
export * from './rpc/evm-rpc-client';
export * from './rpc/evm-rail';
export * from './outbound/funds';
export * from './outbound/outbound.errors';
export * from './outbound/outbound.repository';
export * from './outbound/outbound.service';
export * from './outbound/outbound-transfer';
export * from './outbound/purpose-handler';
export * from './outbound/pay-check';
export * from './outbound/rail-runner';
export * from './refund-wallets';
export * from './signer.module';
