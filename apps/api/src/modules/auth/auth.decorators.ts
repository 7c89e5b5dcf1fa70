import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { ApiKeyRole, Permission } from '@svc/domain';

export const IS_PUBLIC = 'svc:isPublic';
/** A route that needs no API key (`/v1/public/...`, health, changelog). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const REQUIRED_PERMISSION = 'svc:requiredPermission';
/** A merchant route only roles holding this permission may call (money contract › Permissions); others get 403. */
export const RequirePermission = (permission: Permission) => SetMetadata(REQUIRED_PERMISSION, permission);

export const KEY_CHECKED_BY_HANDLER = 'svc:keyCheckedByHandler';
/**
 * A merchant route whose handler settles its key's revocation itself (issue 23): a key served from
 * the guard's cache does not wait for the revocation round trip in the guard; the caller carries a
 * KeyCheck instead, which the route settles before it answers, either by a write statement that
 * checks the key row (`revoked_at IS NULL`) in itself, or by the round trip. Every error the route
 * answers waits for the round trip first (GlobalErrorFilter), so a revoked key gets 401, never a
 * 4xx of its body.
 */
export const KeyCheckedByHandler = () => SetMetadata(KEY_CHECKED_BY_HANDLER, true);

/**
 * A cached key's revocation, not yet settled for this request (KeyCheckedByHandler). Each settles
 * once; a revoked key makes it reject with 401.
 */
export interface KeyCheck {
  /** the key's hash, for a write statement that goes in only while the key row is not revoked */
  readonly keyHash: string;
  /** the revocation round trip (ApiKeyRevocations.confirm), or a read of the key when the cache cannot vouch */
  confirm(): Promise<void>;
  /** a write statement that checked the key row went in: the key was not revoked when it ran */
  written(): void;
  /** a checked write did not go in (the key may be revoked): the key row is read again now */
  recheck(): Promise<void>;
}

export interface Caller {
  workspaceId: string;
  role: ApiKeyRole;
  /** set only on KeyCheckedByHandler routes, when the key came from the cache */
  keyCheck?: KeyCheck;
}

/** Resolves once the caller's key is known not revoked (at once when there is nothing left to settle). */
export function keyConfirmed(caller: Caller | undefined): Promise<void> {
  return caller?.keyCheck ? caller.keyCheck.confirm() : Promise.resolve();
}

export type AuthedRequest = Request & { caller?: Caller };

/** The workspace of the API key that made the request. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const caller = ctx.switchToHttp().getRequest<AuthedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a public route');
  return caller;
});
