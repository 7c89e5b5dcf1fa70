import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { ApiError } from './api-error';

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
 * carries a request id and the log carries the stack.
 */
@Catch()
export class GlobalErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const body = this.toBody(exception, req);
    if (res.headersSent) return;
    res.status(body.statusCode).json(body);
  }

  private toBody(exception: unknown, req: Request): ErrorBody {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) {
        const extra = exception instanceof ApiError ? exception.extra : {};
        return errorBody(status, messageOf(exception), extra);
      }
    }
    const requestId = randomUUID();
    this.logger.error(
      `${req.method} ${req.originalUrl} failed (request ${requestId})`,
      (exception as Error)?.stack ?? String(exception),
    );
    return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, `Internal server error (request ${requestId}).`);
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
