import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { LoggedRequest } from '@svc/runtime';

/**
 * The request's logger only (pino-http's `req.log`, libs/runtime request-log.ts), for a handler
 * whose service logs during the request: not the raw request, whose query a handler could read
 * behind the documented parameters' back (e2e/openapi › every route documents its query).
 */
export const RequestLog = createParamDecorator((_: unknown, ctx: ExecutionContext): LoggedRequest => ({
  log: ctx.switchToHttp().getRequest<LoggedRequest>().log,
}));
