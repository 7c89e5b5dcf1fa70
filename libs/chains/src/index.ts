export * from './registry';
export * from './derivation';
export * from './addresses';
export * from './observed-transfer';
export * from './evm/evm-transfers';
export * from './evm/evm-transfer-reader';
export * from './rpc-url';
export * from './evm/bloom';
