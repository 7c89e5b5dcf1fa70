export * from './logging';
export * from './request-log';
export * from './log-stream';
export * from './metrics';
export * from './ops-server';
export * from './runtime.module';
export * from './shutdown';
export * from './pg-listener';
