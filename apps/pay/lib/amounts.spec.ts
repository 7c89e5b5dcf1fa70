import { amountDue, amountOver, amountToSend, fromAtomic, normalizeUsdInput, toAtomic } from './amounts';
import type { PaymentView } from './types';

const payment = (over: Partial<PaymentView> = {}): PaymentView => ({
  id: 'p',
  chain: 'bnb',
  network: 'mainnet',
  chainId: 56,
  chainKind: 'evm',
  token: 'USDC',
  tokenAddress: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
  decimals: 18,
  expectedAmount: '25',
  expectedAmountAtomic: '25000000000000000000',
  receivedAmount: '0',
  paymentAddress: '0x1111111111111111111111111111111111111111',
  status: 'waiting_for_payment',
  expiresAt: '2026-09-21T12:30:00.000Z',
  ...over,
});

test('toAtomic / fromAtomic are exact', () => {
  expect(toAtomic('12.345678', 6)).toBe(12_345_678n);
  expect(toAtomic('25', 18)).toBe(25n * 10n ** 18n);
  expect(toAtomic('0.10', 1)).toBe(1n);
  expect(toAtomic('0.123', 2)).toBeNull();
  expect(toAtomic('1e5', 2)).toBeNull();
  expect(fromAtomic(36_500_000n, 6)).toBe('36.5');
  expect(fromAtomic(10n ** 18n, 18)).toBe('1');
  expect(fromAtomic(1n, 18)).toBe('0.000000000000000001');
  expect(fromAtomic(7n, 0)).toBe('7');
});

test('underpaid: the rest is due, and the wallet is asked for the rest', () => {
  const p = payment({ status: 'underpaid', receivedAmount: '10' });
  expect(amountDue(p)).toEqual({ units: '15', atomic: 15n * 10n ** 18n });
  expect(amountToSend(p)).toEqual({ units: '15', atomic: 15n * 10n ** 18n });
  expect(amountOver(p)).toBeNull();
});

test('waiting: the whole amount; overpaid: the difference', () => {
  expect(amountToSend(payment())).toEqual({ units: '25', atomic: 25n * 10n ** 18n });
  expect(amountOver(payment({ status: 'overpaid', receivedAmount: '25.5' }))).toBe('0.5');
});

test('an unregistered token (no decimals) has no atomic amount', () => {
  expect(amountToSend(payment({ decimals: null, expectedAmountAtomic: null, tokenAddress: null }))).toEqual({
    units: '25',
    atomic: null,
  });
  expect(amountDue(payment({ decimals: null, status: 'underpaid' }))).toBeNull();
});

test('the buyer may type a decimal comma', () => {
  expect(normalizeUsdInput(' 37,50 ')).toBe('37.50');
  expect(normalizeUsdInput('37.5')).toBe('37.5');
  expect(normalizeUsdInput('1,000')).toBe('1,000'); // a thousands separator is left for the API to refuse
});
