import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { ApiKeyRole, Permission } from '@svc/domain';

export const IS_PUBLIC = 'svc:isPublic';
/** A route that needs no API key (`/v1/public/...`, health, changelog). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const REQUIRED_PERMISSION = 'svc:requiredPermission';
/** A merchant route only roles holding this permission may call (money contract › Permissions); others get 403. */
export const RequirePermission = (permission: Permission) => SetMetadata(REQUIRED_PERMISSION, permission);

export interface Caller {
  workspaceId: string;
  role: ApiKeyRole;
}

export type AuthedRequest = Request & { caller?: Caller };

/** The workspace of the API key that made the request. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const caller = ctx.switchToHttp().getRequest<AuthedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a public route');
  return caller;
});
