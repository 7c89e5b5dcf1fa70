import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyRole, Permission, permissionDeniedMessage, roleHasPermission } from '@svc/domain';
import { forbidden, SqlService, unauthenticated } from '@svc/core';
import { API_KEY_RE, hashApiKey } from '@svc/workspaces';
import { AuthedRequest, Caller, IS_PUBLIC, REQUIRED_PERMISSION } from './auth.decorators';

const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * Every merchant route requires `x-api-key` (spec: Authentication 1). Keys are looked up by
 * hash; a found key is cached for 30 s so the hot paths do not pay a query per request.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly cache = new Map<string, { caller: Caller; until: number }>();

  constructor(
    private readonly reflector: Reflector,
    private readonly sql: SqlService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()])) return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key === '')
      throw unauthenticated('Missing API key: send it in the x-api-key header.');
    if (!API_KEY_RE.test(key)) throw unauthenticated('Invalid API key.');
    const caller = await this.lookup(hashApiKey(key));
    if (!caller) throw unauthenticated('Invalid API key.');
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

  private async lookup(hash: string): Promise<Caller | null> {
    const hit = this.cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.caller;
    const rows = await this.sql.rows<{ workspace_id: string; role: ApiKeyRole }>(
      'api_key_by_hash',
      'SELECT workspace_id, role FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    if (!rows.length) return null;
    const caller = { workspaceId: rows[0].workspace_id, role: rows[0].role };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { caller, until: Date.now() + CACHE_MS });
    return caller;
  }
}
