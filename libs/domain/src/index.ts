export * from './types';
export * from './amounts';
export * from './ids';
export * from './session-projection';
export * from './session-decisions';
export * from './payment-engine';
export * from './permissions';
export * from './documents';
