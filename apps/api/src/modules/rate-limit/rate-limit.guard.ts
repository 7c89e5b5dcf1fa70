import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import * as ipaddr from 'ipaddr.js';
import { rateLimited } from '@svc/core';
import { assertUnreachable } from '@svc/domain';
import { LimitCheck, LimitName, RateLimitService } from './rate-limit.service';

export const RATE_LIMIT = 'svc:rateLimit';

/** What an anonymous route is: a write (mints a payment or changes a session) or a read, and of what. */
interface RateLimitSpec {
  kind: 'write' | 'read';
  /** the route parameter naming the target, and what it is */
  target: { param: string; limit: LimitName; name: 'slug' | 'session' | 'payment' | 'receipt' | 'invoice' };
}

/**
 * Limits per client address and per (client, target) (docs/configuration.md › Rate limits); a
 * refusal is 429 with Retry-After. No limit is shared by every client of a target: one client's
 * flood of a link, session or payment must not answer 429 to the other buyers (issue 21, item 2).
 */
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

  /** `true` at once on a route without a limit (no promise for Nest's guard chain to wait on, issue 23). */
  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const spec = this.reflector.getAllAndOverride<RateLimitSpec | undefined>(RATE_LIMIT, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    if (!spec) return true;
    return this.limited(ctx, spec);
  }

  private async limited(ctx: ExecutionContext, spec: RateLimitSpec): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const client = clientKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const target = targetKey(spec.target.name, String(req.params[spec.target.param] ?? ''));
    const checks: LimitCheck[] = [
      { limit: spec.kind === 'read' ? 'readsPerClient' : 'writesPerClient', key: client },
      { limit: spec.target.limit, key: `${client}|${spec.target.name}:${target}` },
    ];
    const waitMs = await this.limits.consume(checks);
    if (waitMs === null) return true;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    throw rateLimited(`Too many requests: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
  }
}

/**
 * The rate-limit key of a client address: an IPv4 address (IPv4-mapped IPv6 included) as itself,
 * an IPv6 address by its /64, the smallest block a subscriber is usually given (RFC 6177), so
 * one host cannot multiply its limits by walking its own prefix.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`;
}

/**
 * The target as the API looks it up: ids (UUIDs, `cs_…`, `inv_…`) are matched whatever their
 * case, so they count in lower case, or each spelling would get a budget of its own. Slugs
 * are looked up exactly and count as sent.
 */
export function targetKey(name: RateLimitSpec['target']['name'], value: string): string {
  switch (name) {
    case 'slug':
      return value;
    case 'session':
    case 'payment':
    case 'receipt':
    case 'invoice':
      return value.toLowerCase();
    default:
      return assertUnreachable(name);
  }
}
