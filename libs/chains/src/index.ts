export * from './registry';
export * from './derivation';
export * from './addresses';
