import {
  destinationMac,
  destinationMacVerifies,
  destinationMessage,
  RefundDestination,
  SettlementDestination,
} from './destinations';

const KEY = Buffer.alloc(32, 7);
const settlement: SettlementDestination = {
  kind: 'settlement_address',
  workspaceId: 'w1',
  id: 'a1',
  chain: 'bnb',
  network: 'mainnet',
  address: '0x5E5e5e5E5e5E5E5E5E5E5E5e5e5E5e5E5e5E5e5e',
  activatesAt: new Date('2026-01-01T00:00:00.000Z'),
};
const refund: RefundDestination = {
  kind: 'refund',
  workspaceId: 'w1',
  id: 'a1',
  chain: 'bnb',
  network: 'mainnet',
  tokenAddress: null,
  address: '0x5E5e5e5E5e5E5E5E5E5E5E5e5e5E5e5E5e5E5e5e',
};

test('the MAC is HMAC-SHA256 of the canonical message, 64 hex characters, and verifies', () => {
  const mac = destinationMac(KEY, settlement);
  expect(mac).toMatch(/^[0-9a-f]{64}$/);
  expect(destinationMacVerifies(KEY, settlement, mac)).toBe(true);
  expect(destinationMacVerifies(Buffer.alloc(32, 8), settlement, mac)).toBe(false);
});

test('the encoding is unambiguous: fields cannot run into each other', () => {
  const a = destinationMessage({ ...settlement, workspaceId: 'w1', id: 'a1' });
  const b = destinationMessage({ ...settlement, workspaceId: 'w1a', id: '1' });
  expect(a).not.toBe(b);
  const c = destinationMessage({ ...settlement, chain: 'bnb","mainnet', network: '' });
  expect(c).not.toBe(destinationMessage(settlement));
});

test('every field is covered: a change to any one makes the MAC fail', () => {
  const mac = destinationMac(KEY, settlement);
  for (const change of [
    { workspaceId: 'w2' },
    { id: 'a2' },
    { chain: 'arc' },
    { network: 'testnet' },
    { address: '0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5f' },
    { activatesAt: new Date('2025-12-31T00:00:00.000Z') },
  ]) {
    expect(destinationMacVerifies(KEY, { ...settlement, ...change }, mac)).toBe(false);
  }
  const refundMac = destinationMac(KEY, refund);
  expect(
    destinationMacVerifies(KEY, { ...refund, tokenAddress: '0x00000000000000000000000000000000000000aa' }, refundMac),
  ).toBe(false);
});

test('a settlement MAC never verifies as a refund of the same id and address (the kind is covered)', () => {
  expect(destinationMacVerifies(KEY, refund, destinationMac(KEY, settlement))).toBe(false);
});

test('a missing or malformed MAC does not verify', () => {
  expect(destinationMacVerifies(KEY, settlement, null)).toBe(false);
  expect(destinationMacVerifies(KEY, settlement, '')).toBe(false);
  expect(destinationMacVerifies(KEY, settlement, destinationMac(KEY, settlement).toUpperCase())).toBe(false);
});
