import { RateLimits, SvcConfig } from '@svc/config';

/** Injection token of the validated configuration (read once at boot). */
export const SVC_CONFIG = Symbol('SVC_CONFIG');
export type { RateLimits, SvcConfig };
