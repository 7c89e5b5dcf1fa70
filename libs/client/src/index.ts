export * from './client';
export * from './webhooks';
