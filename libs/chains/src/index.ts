export * from './registry';
export * from './derivation';
