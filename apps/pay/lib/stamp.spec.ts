// The island asks for a fresh server render only when what the page shows moved (stamp.ts).
import { sessionStamp } from './stamp';
import { session } from './session.fixture';
import type { PublicSession } from './types';

const stamp = sessionStamp(session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1' }));

test.each<[string, PublicSession]>([
  ['the session status', session('cancelled', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1' })],
  ['late', session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1', late: true })],
  ['the payment status', session('processing', 'underpaid', { returnUrl: 'https://shop.example/?sig=1' })],
  ['a return URL appearing or going', session('processing', 'waiting_for_payment')],
  ['the pinned chain', session('processing', 'waiting_for_payment', { returnUrl: 'x', pinnedChain: 'bnb' })],
])('moves with %s', (_what, changed) => {
  expect(sessionStamp(changed)).not.toBe(stamp);
});

test('moves with the amount received, the chain, and a new payment', () => {
  const s = session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1' });
  for (const payment of [
    { ...s.payment!, receivedAmount: '10' },
    { ...s.payment!, chain: 'sui' },
    { ...s.payment!, id: 'p2' },
  ]) {
    expect(sessionStamp({ ...s, payment })).not.toBe(stamp);
  }
});

test('does not move with a fresh signature on the same return URL (the API signs it at each read)', () => {
  const again = session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=2' });
  expect(sessionStamp(again)).toBe(stamp);
});
