export * from './envelope';
export * from './event-types';
export * from './queue';
export * from './retry-schedule';
export * from './url-guard';
export * from './verify';
