import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyRole, Permission, permissionDeniedMessage, roleHasPermission } from '@svc/domain';
import { forbidden, SqlService, unauthenticated } from '@svc/core';
import { LoggedRequest, RequestLogger } from '@svc/runtime';
import { API_KEY_RE, hashApiKey } from '@svc/workspaces';
import { ApiKeyRevocations } from './api-key-revocations.service';
import {
  AuthedRequest,
  Caller,
  IS_PUBLIC,
  KEY_CHECKED_BY_HANDLER,
  KeyCheck,
  REQUIRED_PERMISSION,
} from './auth.decorators';

const CACHE_MS = 30_000;
/** A key used after half its cache life is re-read in the background (once), so a busy key never expires under load. */
const REFRESH_AFTER_MS = CACHE_MS / 2;
const CACHE_MAX = 10_000;
/** `last_used_at` moves at most this often per key (apikey:list shows it to the minute). */
const LAST_USED_EVERY_MS = 60_000;

interface Cached {
  caller: Caller;
  until: number;
}

/**
 * Every merchant route requires `x-api-key` (spec: Authentication 1). Keys are looked up by
 * hash; a found key is cached for 30 s and dropped from the cache the moment it is revoked
 * (ApiKeyRevocations). A cache hit costs one round trip on the revocation listener's own
 * connection, shared by every request that arrives meanwhile, instead of a query on the pool.
 * On a KeyCheckedByHandler route a cache hit does not wait for that round trip here: the request
 * carries a KeyCheck its handler settles before it answers (auth.decorators.ts).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** its lines carry the request's `req` (request-log.ts) */
  private readonly logger = new RequestLogger('api-keys');
  private readonly cache = new Map<string, Cached>();
  /** When this process last moved each key's last_used_at. */
  private readonly touched = new Map<string, number>();
  /** Keys being re-read in the background (at most one read per key at a time). */
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly reflector: Reflector,
    private readonly sql: SqlService,
    private readonly revocations: ApiKeyRevocations,
  ) {
    revocations.onRevoked((hash) => (hash === null ? this.cache.clear() : this.cache.delete(hash)));
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()])) return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key === '')
      throw unauthenticated('Missing API key: send it in the x-api-key header.');
    if (!API_KEY_RE.test(key)) throw unauthenticated('Invalid API key.');
    const hash = hashApiKey(key);
    const caller = await this.lookup(hash, req, this.reflector.get(KEY_CHECKED_BY_HANDLER, ctx.getHandler()) === true);
    if (!caller) throw unauthenticated('Invalid API key.');
    await this.touch(hash, req);
    req.caller = caller;
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    if (permission && !roleHasPermission(caller.role, permission)) {
      throw forbidden(permissionDeniedMessage(caller.role, permission));
    }
    return true;
  }

  private async lookup(hash: string, req: LoggedRequest, checkedLater: boolean): Promise<Caller | null> {
    const hit = this.cache.get(hash);
    if (checkedLater && hit && hit.until > Date.now() && this.revocations.cacheable) {
      if (hit.until - Date.now() < CACHE_MS - REFRESH_AFTER_MS) this.refresh(hash, req);
      return {
        workspaceId: hit.caller.workspaceId,
        role: hit.caller.role,
        keyCheck: new PendingKeyCheck(hash, this, req),
      };
    }
    // a cached key is trusted only once every revocation committed before this request is handled
    if (hit && hit.until > Date.now() && this.revocations.cacheable && (await this.revocations.confirm(req))) {
      // still cached: the same entry, or a newer one a re-read cached meanwhile (a read is cached
      // only when no revocation was announced while it ran); gone if the key was revoked
      const current = this.cache.get(hash);
      if (current) {
        if (current.until - Date.now() < CACHE_MS - REFRESH_AFTER_MS) this.refresh(hash, req);
        return current.caller;
      }
    }
    return this.read(hash);
  }

  /**
   * The revocation barrier of a KeyCheck (what `lookup` does for a cache hit, later): once every
   * revocation committed before this call has reached this process, the key still cached; else
   * the key as read now. 401 when it is revoked.
   */
  async settle(hash: string, req: LoggedRequest): Promise<void> {
    if (this.revocations.cacheable && (await this.revocations.confirm(req)) && this.cache.has(hash)) return;
    await this.reread(hash);
  }

  /** The key as read now on the pool (cached again when found); 401 when it is revoked. */
  async reread(hash: string): Promise<void> {
    if (!(await this.read(hash))) throw unauthenticated('Invalid API key.');
  }

  /**
   * Re-reads a cached key before its entry expires, off the request path: without it, every
   * request in flight when a busy key's entry expired would read the key at once (64 reads on the
   * pool under 64 connections). A revoked key is dropped by its notification, not by this.
   * A failure is logged with the request that started the re-read.
   */
  private refresh(hash: string, req: LoggedRequest): void {
    if (this.refreshing.has(hash)) return;
    this.refreshing.add(hash);
    this.read(hash)
      .catch((err: Error) => this.logger.during(req).warn(`key re-read failed: ${err.message}`))
      .finally(() => this.refreshing.delete(hash));
  }

  /** Reads the key on the pool, and caches it when no revocation was announced meanwhile. */
  private async read(hash: string): Promise<Caller | null> {
    const epoch = this.revocations.epoch;
    const rows = await this.sql.rows<{ workspace_id: string; role: ApiKeyRole }>(
      'api_key_by_hash',
      'SELECT workspace_id, role FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    if (!rows.length) {
      this.cache.delete(hash);
      return null;
    }
    const caller = { workspaceId: rows[0].workspace_id, role: rows[0].role };
    // a revocation announced while this read ran may be newer than what it saw: do not keep it
    if (this.revocations.cacheable && this.revocations.epoch === epoch) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(hash, { caller, until: Date.now() + CACHE_MS });
    }
    return caller;
  }

  /**
   * Moves `last_used_at` at most once a minute per key: this process skips keys it touched in the
   * last minute, and the UPDATE matches no row when another process did (so it writes nothing).
   */
  private async touch(hash: string, req: LoggedRequest): Promise<void> {
    const now = Date.now();
    if ((this.touched.get(hash) ?? 0) > now - LAST_USED_EVERY_MS) return;
    if (this.touched.size >= CACHE_MAX) this.touched.clear();
    this.touched.set(hash, now);
    try {
      await this.sql.rows(
        'api_key_last_used',
        `UPDATE api_keys SET last_used_at = now() WHERE key_hash = $1 AND revoked_at IS NULL
           AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') RETURNING id`,
        [hash],
      );
    } catch (err) {
      this.logger.during(req).warn(`last_used_at not recorded: ${(err as Error).message}`);
    }
  }
}

const SETTLED = Promise.resolve();

/** A request's KeyCheck (auth.decorators.ts): settled once, by the first of its three ways. */
class PendingKeyCheck implements KeyCheck {
  private settled: Promise<void> | null = null;

  constructor(
    readonly keyHash: string,
    private readonly guard: Pick<ApiKeyGuard, 'settle' | 'reread'>,
    private readonly req: LoggedRequest,
  ) {}

  confirm(): Promise<void> {
    return (this.settled ??= this.guard.settle(this.keyHash, this.req));
  }

  written(): void {
    this.settled ??= SETTLED;
  }

  recheck(): Promise<void> {
    return (this.settled = this.guard.reread(this.keyHash));
  }
}
