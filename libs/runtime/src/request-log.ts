// A line written during an API request carries that request's `req` field (id, method, path),
// like its request line. nestjs-pino did that with a per-request AsyncLocalStorage, which on
// Node 20 turns on async_hooks for every promise of the process (issue 23: 9–28 % of the API's
// main-thread CPU per request); the API does not mount it. A call site that logs during a request
// is handed the request and writes through pino-http's `req.log` (a child logger bound to the
// request), giving the line the context would have given it. Without a request (a background
// path, or a request pino-http did not see) the line goes to Nest's Logger as before.
import { Logger } from '@nestjs/common';
import { Logger as PinoNestLogger, PinoLogger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

/** What pino-http leaves on a request it logs: `log`, its logger bound to the request's `req` (libs/runtime logging). */
export interface LoggedRequest {
  log?: Pino;
}

/** The methods of Nest's Logger the call sites use. */
export interface ContextLog {
  log(message: string): void;
  warn(message: string): void;
  error(message: string, stack?: string): void;
}

/**
 * Nest's `Logger` for a context, plus `during(req)`: the same logger writing through the
 * request's `req.log`. `logger.during(req).warn(m)` writes exactly the line `logger.warn(m)` wrote
 * inside nestjs-pino's request context (same level, `context`, message, error and stack), and
 * `during(undefined)` is the logger itself. Nothing is allocated until a line is written.
 */
export class RequestLogger extends Logger {
  constructor(context: string) {
    super(context);
  }

  during(req: LoggedRequest | null | undefined): ContextLog {
    const log = req?.log;
    return log ? new BoundLog(this.context as string, log) : this;
  }
}

/**
 * nestjs-pino's Logger over a given pino logger (instead of its PinoLogger, which reads the
 * request context), called as Nest's Logger calls it: the context as the last argument, and
 * `error` without a stack padded with `undefined` (@nestjs/common logger.service.js).
 */
class BoundLog implements ContextLog {
  private readonly out: PinoNestLogger;

  constructor(
    private readonly context: string,
    log: Pino,
  ) {
    // PinoLogger, with no context of its own, passes its arguments to pino unchanged: the request's pino serves as one
    this.out = new PinoNestLogger(log as unknown as PinoLogger, {});
  }

  log(message: string): void {
    this.out.log(message, this.context);
  }

  warn(message: string): void {
    this.out.warn(message, this.context);
  }

  error(message: string, stack?: string): void {
    this.out.error(message, stack, this.context);
  }
}
