/**
 * Domain errors: what services, the ledger and jobs throw. The code is a closed union; the one
 * place that turns a code into an HTTP status is the API's global filter (`httpStatusOf`), and
 * the CLI maps the same codes to exit codes. Messages are the spec's, verbatim.
 */
export const DOMAIN_ERROR_CODES = [
  /** input that fails a rule of the spec (400) */
  'invalid_input',
  /** no key, or a key that is unknown or revoked (401) */
  'unauthenticated',
  /** a key whose role lacks the permission (403) */
  'forbidden',
  /** no such object in the caller's workspace (404) */
  'not_found',
  /** the object's state refuses the action (409) */
  'conflict',
  /** a resource that existed and was removed on purpose, e.g. a legacy subscription product (410) */
  'gone',
  /** too many requests from one client (429) */
  'rate_limited',
  /** a dependency the action needs is out of reach or exhausted (503) */
  'unavailable',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    readonly messages: string | string[],
    /** fields added to the error body, e.g. the bounds of the amount-out-of-bounds 400 */
    readonly extra: Record<string, unknown> = {},
    /** a 429's Retry-After header, in seconds */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
    this.name = 'DomainError';
  }
}

export const badRequest = (message: string | string[], extra?: Record<string, unknown>) =>
  new DomainError('invalid_input', message, extra);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const gone = (message: string) => new DomainError('gone', message);
export const unavailable = (message: string) => new DomainError('unavailable', message);
export const rateLimited = (message: string, retryAfterSeconds: number | null = null) =>
  new DomainError('rate_limited', message, {}, retryAfterSeconds);
