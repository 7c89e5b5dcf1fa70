import { depositAddressForm, watchAddress } from './addresses';
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
