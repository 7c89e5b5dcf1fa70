// Key roles and what they may do (money contract › Permissions). Pure: the API's guard asks.
import { ApiKeyRole, assertUnreachable } from './types';

export const PERMISSIONS = [
  'settlement.write',
  'settlement.route',
  'refunds.write',
  'secrets',
  'operator.read',
] as const;
/**
 * settlement.write: add a settlement address, cancel or retire one; settlement.route: choose the
 * default, route products; refunds.write: create refunds; secrets: read or rotate the checkout
 * secret, create, change (URL, filters, secret) or delete webhook endpoints and redeliver, create keys; operator.read: the operator's health view
 * (RPC errors, chain heads: docs/api-guide.md › Health), owner and admin. Everything else any role may do.
 */
export type Permission = (typeof PERMISSIONS)[number];

export function roleHasPermission(role: ApiKeyRole, permission: Permission): boolean {
  switch (role) {
    case 'owner':
      return true;
    case 'admin':
      return permission !== 'settlement.write';
    case 'developer':
      return false;
    default:
      return assertUnreachable(role);
  }
}

/** money contract › Permissions: the 403 message, verbatim. */
export const permissionDeniedMessage = (role: ApiKeyRole, permission: Permission): string =>
  `This API key (role ${role}) lacks the permission ${permission}.`;
