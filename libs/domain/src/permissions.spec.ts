import { API_KEY_ROLES } from './types';
import { PERMISSIONS, permissionDeniedMessage, roleHasPermission } from './permissions';

// money contract › Permissions, the table row by row
const TABLE: Record<string, Record<string, boolean>> = {
  'settlement.write': { owner: true, admin: false, developer: false },
  'settlement.route': { owner: true, admin: true, developer: false },
  'refunds.write': { owner: true, admin: true, developer: false },
  secrets: { owner: true, admin: true, developer: false },
  // ours (docs/api-guide.md › Health): the operator view of GET /v1/operator/health
  'operator.read': { owner: true, admin: true, developer: false },
};

describe('roleHasPermission follows the permission table', () => {
  for (const permission of PERMISSIONS) {
    for (const role of API_KEY_ROLES) {
      test(`${permission}: ${role} → ${TABLE[permission][role] ? 'yes' : 'no'}`, () => {
        expect(roleHasPermission(role, permission)).toBe(TABLE[permission][role]);
      });
    }
  }

  test('the 403 message is the contract’s', () => {
    expect(permissionDeniedMessage('developer', 'settlement.write')).toBe(
      'This API key (role developer) lacks the permission settlement.write.',
    );
  });
});
