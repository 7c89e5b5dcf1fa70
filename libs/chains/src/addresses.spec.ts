import { depositAddressForm, parseSettlementAddress, watchAddress } from './addresses';
import { family } from './families';
import { sameAddress } from './registry';

describe('address spellings per chain kind', () => {
  const checksummed = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

  it('EVM: the watch set uses lower-case 0x…, payments store the checksummed spelling', () => {
    expect(watchAddress('evm', checksummed)).toBe(checksummed.toLowerCase());
    expect(depositAddressForm('evm', checksummed.toLowerCase())).toBe(checksummed);
    expect(depositAddressForm('evm', checksummed.toUpperCase().replace('0X', '0x'))).toBe(checksummed);
    expect(watchAddress('evm', '0x1234')).toBeNull();
  });

  it('Sui: 0x + 64 lower-case hex digits, short forms widened', () => {
    expect(watchAddress('sui', '0x2')).toBe(`0x${'0'.repeat(63)}2`);
    expect(watchAddress('sui', `0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(depositAddressForm('sui', `0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(watchAddress('sui', 'not-an-address')).toBeNull();
  });

  it('Solana and Tron addresses are case-sensitive and kept as they are', () => {
    expect(watchAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(watchAddress('solana', ' EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v ')).toBe(
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    );
  });

  it('token contracts and coin types compare per kind', () => {
    expect(
      sameAddress('evm', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d'),
    ).toBe(true);
    expect(sameAddress('sui', '0x2::sui::SUI', `0x${'0'.repeat(63)}2::sui::SUI`)).toBe(true);
    expect(sameAddress('sui', '0x2::sui::SUI', '0x2::coin::COIN')).toBe(false);
  });
});

describe("codec.sameAddress: one address in two spellings, per family (the signer's destination check)", () => {
  const checksummed = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

  it('EVM: checksum case does not matter; only 20-byte hex addresses compare', () => {
    const c = family('evm').codec;
    expect(c.sameAddress(checksummed, checksummed.toLowerCase())).toBe(true);
    expect(c.sameAddress(checksummed, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267')).toBe(false);
    expect(c.sameAddress('0x1234', '0x1234')).toBe(false);
    expect(c.sameAddress(` ${checksummed}`, checksummed)).toBe(false);
  });

  it('Sui: the short form and hex case are one address', () => {
    const c = family('sui').codec;
    expect(c.sameAddress('0x2', `0x${'0'.repeat(63)}2`)).toBe(true);
    expect(c.sameAddress(`0x${'AB'.repeat(32)}`, `0x${'ab'.repeat(32)}`)).toBe(true);
    expect(c.sameAddress('0x2', '0x3')).toBe(false);
    expect(c.sameAddress('0x2::sui::SUI', '0x2::sui::SUI')).toBe(false);
  });

  it('Solana and Tron: only the same string (base58 is case-sensitive)', () => {
    for (const kind of ['solana', 'tron'] as const) {
      const c = family(kind).codec;
      expect(c.sameAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
      expect(c.sameAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t')).toBe(false);
      expect(c.sameAddress('', '')).toBe(false);
    }
  });
});

describe('settlement addresses (money contract › Settlement addresses)', () => {
  const checksummed = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

  it('EVM: 0x + 40 hex, stored checksummed; a mixed-case spelling must carry a valid checksum', () => {
    expect(parseSettlementAddress('evm', 'bnb', checksummed.toLowerCase())).toEqual({ address: checksummed });
    expect(parseSettlementAddress('evm', 'bnb', ` ${checksummed} `)).toEqual({ address: checksummed });
    expect(parseSettlementAddress('evm', 'bnb', checksummed.replace('f39Fd', 'f39FD'))).toEqual({
      error: expect.stringContaining('wrong checksum'),
    });
    expect(parseSettlementAddress('evm', 'bnb', '0x1234')).toEqual({
      error: 'address must be an EVM address on bnb (0x followed by 40 hex characters).',
    });
    expect(parseSettlementAddress('evm', 'bnb', `0x${'0'.repeat(40)}`)).toEqual({
      error: expect.stringContaining('zero address'),
    });
  });

  it('Sui: exactly 0x + 64 hex, lower-cased (no short forms)', () => {
    expect(parseSettlementAddress('sui', 'sui', `0x${'AB'.repeat(32)}`)).toEqual({ address: `0x${'ab'.repeat(32)}` });
    expect(parseSettlementAddress('sui', 'sui', '0x2')).toEqual({
      error: 'address must be a Sui address on sui (0x followed by 64 hex characters).',
    });
  });

  it('Solana and Tron: base58 as they are', () => {
    expect(parseSettlementAddress('tron', 'tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toEqual({
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(parseSettlementAddress('solana', 'solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toEqual({
      address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    });
    expect('error' in parseSettlementAddress('tron', 'tron', '0xabc')).toBe(true);
  });
});
