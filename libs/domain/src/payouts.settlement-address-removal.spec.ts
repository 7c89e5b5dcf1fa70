// money contract › Settlement addresses › DELETE, one row a test.
import { decideSettlementRemoval } from './payouts';

const rail = { chain: 'bnb', network: 'mainnet' };

describe('DELETE /v1/settlement-addresses/:id', () => {
  test('pending: deleted (204)', () => {
    expect(decideSettlementRemoval({ ...rail, status: 'pending', isDefault: false }, 0)).toEqual({ kind: 'delete' });
  });

  test('active, not the default: retired (200)', () => {
    expect(decideSettlementRemoval({ ...rail, status: 'active', isDefault: false }, 2)).toEqual({
      kind: 'retire',
      lastOnRail: false,
    });
  });

  test('the default while another address is active: 409 Choose another default for <chain>/<network> first.', () => {
    expect(decideSettlementRemoval({ ...rail, status: 'active', isDefault: true }, 2)).toEqual({
      kind: 'conflict',
      message: 'Choose another default for bnb/mainnet first.',
    });
  });

  test('the only active address: retired, and the rail has none left (its payouts wait, held)', () => {
    expect(decideSettlementRemoval({ ...rail, status: 'active', isDefault: true }, 1)).toEqual({
      kind: 'retire',
      lastOnRail: true,
    });
  });

  test('retired: answered as it is (DELETE is idempotent)', () => {
    expect(decideSettlementRemoval({ ...rail, status: 'retired', isDefault: false }, 0)).toEqual({
      kind: 'already_retired',
    });
  });
});
