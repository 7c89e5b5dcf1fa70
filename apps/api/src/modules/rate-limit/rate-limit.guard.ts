import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { rateLimited } from '@svc/core';
import { LimitCheck, LimitName, RateLimitService } from './rate-limit.service';

export const RATE_LIMIT = 'svc:rateLimit';

/** What an anonymous route is: a write (mints a payment or changes a session) or a read, and of what. */
interface RateLimitSpec {
  kind: 'write' | 'read';
  /** the route parameter naming the target, and what it is */
  target: { param: string; limit: LimitName; name: 'slug' | 'session' | 'payment' | 'receipt' | 'invoice' };
}

/** Limits per client address and per target (docs/configuration.md › Rate limits); a refusal is 429 with Retry-After. */
export const RateLimit = (
  kind: RateLimitSpec['kind'],
  name: RateLimitSpec['target']['name'],
  param = name === 'slug' ? 'slug' : name === 'invoice' ? 'publicId' : 'id',
) =>
  SetMetadata(RATE_LIMIT, {
    kind,
    target: {
      param,
      name,
      limit: kind === 'read' ? 'readsPerTarget' : name === 'slug' ? 'writesPerSlug' : 'writesPerSession',
    },
  } satisfies RateLimitSpec);

/**
 * Global guard, a no-op on routes without `@RateLimit`. The client is `req.ip`: the socket's
 * address, or the buyer's from X-Forwarded-For when the request comes from SVC_TRUSTED_PROXIES
 * (Express `trust proxy`, set in app.factory.ts), so the hosted pages' server is not one client.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const spec = this.reflector.getAllAndOverride<RateLimitSpec | undefined>(RATE_LIMIT, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    if (!spec) return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const target = String(req.params[spec.target.param] ?? '');
    const checks: LimitCheck[] = [
      { limit: spec.kind === 'read' ? 'readsPerClient' : 'writesPerClient', key: client },
      { limit: spec.target.limit, key: `${spec.target.name}:${target}` },
    ];
    const waitMs = await this.limits.consume(checks);
    if (waitMs === null) return true;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    throw rateLimited(`Too many requests: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
  }
}
