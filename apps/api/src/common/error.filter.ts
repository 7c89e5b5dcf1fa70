import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { assertUnreachable } from '@svc/domain';
import { DomainError, DomainErrorCode } from '@svc/core';
import { RequestLogger } from '@svc/runtime';
import type { AuthedRequest } from '../modules/auth/auth.decorators';

/** pg-pool's error when `connectionTimeoutMillis` passes with every connection in use. */
const POOL_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string | string[];
  [extra: string]: unknown;
}

export function errorBody(
  statusCode: number,
  message: string | string[],
  extra: Record<string, unknown> = {},
): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra };
}

/**
 * Every error leaves as `{statusCode, error, message}`. A 5xx never shows its cause: the body
 * carries a request id and the log carries the stack. A request whose key's revocation is not
 * settled yet (KeyCheckedByHandler) is answered once it is: 401 when the key was revoked, whatever
 * the error was (a revoked key never learns what was wrong with its body).
 */
@Catch()
export class GlobalErrorFilter implements ExceptionFilter {
  /** its lines carry the request's `req` (request-log.ts) */
  private readonly logger = new RequestLogger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const body = this.toBody(exception, req);
    const keyCheck = (req as AuthedRequest).caller?.keyCheck;
    if (!keyCheck) return this.send(res, exception, body);
    keyCheck.confirm().then(
      () => this.send(res, exception, body),
      (revoked: unknown) => this.send(res, revoked, this.toBody(revoked, req)),
    );
  }

  private send(res: Response, exception: unknown, body: ErrorBody): void {
    if (res.headersSent) return;
    if (exception instanceof DomainError && exception.retryAfterSeconds !== null) {
      res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    res.status(body.statusCode).json(body);
  }

  private toBody(exception: unknown, req: Request): ErrorBody {
    if (exception instanceof DomainError) {
      const status = httpStatusOf(exception.code);
      if (status < 500) return errorBody(status, exception.messages, exception.extra);
      // A 503 names its cause (an exhausted or unreachable dependency), never an internal detail.
      if (status === HttpStatus.SERVICE_UNAVAILABLE) return errorBody(status, exception.messages);
    }
    // pg-pool gave up waiting for a free connection (POOL_CONNECTION_TIMEOUT_MS): busy, not broken.
    if (exception instanceof Error && exception.message === POOL_TIMEOUT_MESSAGE) {
      this.logger.during(req).warn(`${req.method} ${req.path}: no database connection within the pool timeout`);
      return errorBody(
        HttpStatus.SERVICE_UNAVAILABLE,
        'The service is busy: no database connection was free. Try again.',
      );
    }
    // Nest's own (the validation pipe's 400, unknown routes' 404).
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) return errorBody(status, messageOf(exception));
    }
    // the request id of the request log line and of the X-Request-Id header (libs/runtime logging)
    const requestId = (req as { id?: unknown }).id ? String((req as { id?: unknown }).id) : randomUUID();
    this.logger
      .during(req)
      .error(
        `${req.method} ${req.originalUrl} failed (request ${requestId})`,
        (exception as Error)?.stack ?? String(exception),
      );
    return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, `Internal server error (request ${requestId}).`);
  }
}

/** The one place a domain error becomes an HTTP status (house style 9). */
export function httpStatusOf(code: DomainErrorCode): HttpStatus {
  switch (code) {
    case 'invalid_input':
      return HttpStatus.BAD_REQUEST;
    case 'unauthenticated':
      return HttpStatus.UNAUTHORIZED;
    case 'forbidden':
      return HttpStatus.FORBIDDEN;
    case 'not_found':
      return HttpStatus.NOT_FOUND;
    case 'conflict':
      return HttpStatus.CONFLICT;
    case 'gone':
      return HttpStatus.GONE;
    case 'rate_limited':
      return HttpStatus.TOO_MANY_REQUESTS;
    case 'unavailable':
      return HttpStatus.SERVICE_UNAVAILABLE;
    default:
      return assertUnreachable(code);
  }
}

function messageOf(exception: HttpException): string | string[] {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.every((m) => typeof m === 'string')) return message;
  return exception.message;
}
