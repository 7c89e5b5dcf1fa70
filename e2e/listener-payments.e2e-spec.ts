// Payments that confirm from real on-chain transfers: the API creates them, the devnet carries the
// money (OpenZeppelin ERC-20s and native coins on Anvil), the listener detects and credits it.
// spec: States and transitions › Payment (table and Other rules), Checkout session; Limits › chain notes.
import { Harness, startHarness } from './support/listener-harness';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.listener();
});
afterAll(async () => {
  await h?.close();
});

const usdcPayment = (amount = '25') => h.m.payment({ chain: 'bnb', token: 'USDC', amount, currency: 'USDC' });

test('exact: 25 USDC (18 decimals) on bnb confirms the payment with its transfer', async () => {
  const p = await usdcPayment('25');
  const sent = await h.pay(p, '25');
  const done = await h.until(p.id, (x) => x.status === 'confirmed');
  expect(done).toMatchObject({ receivedAmount: '25', expectedAmount: '25' });
  expect(done.confirmedAt).not.toBeNull();
  expect(done.blockchainTransactions).toHaveLength(1);
  expect(done.blockchainTransactions[0]).toMatchObject({
    txHash: sent.hash,
    logIndex: sent.logIndex,
    amount: '25',
    blockNumber: String(sent.blockNumber),
    status: 'confirmed',
    tokenAddress: h.devnet.get('bnb').tokens.USDC,
  });
  expect(done.blockchainTransactions[0].toAddress.toLowerCase()).toBe(p.paymentAddress.toLowerCase());
  expect(done.blockchainTransactions[0].confirmations).toBeGreaterThanOrEqual(2);
});

test('under, then topped up: underpaid, then confirmed', async () => {
  const p = await usdcPayment('25');
  await h.pay(p, '10');
  await h.until(p.id, (x) => x.status === 'underpaid' && x.receivedAmount === '10');
  await h.pay(p, '15');
  const done = await h.until(p.id, (x) => x.status === 'confirmed');
  expect(done.receivedAmount).toBe('25');
  expect(done.blockchainTransactions).toHaveLength(2);
});

test('over: overpaid with everything received', async () => {
  const p = await usdcPayment('25');
  await h.pay(p, '25.5');
  const done = await h.until(p.id, (x) => x.status === 'overpaid');
  expect(done.receivedAmount).toBe('25.5');
});

test('native coin: BNB from a top-level transaction, and native USDC (18 decimals) on arc testnet', async () => {
  const bnb = await h.m.payment({ chain: 'bnb', token: 'BNB', amount: '0.25', currency: 'BNB' });
  const arc = await h.m.payment({ chain: 'arc', network: 'testnet', token: 'USDC', amount: '3.5', currency: 'USDC' });
  const sentBnb = await h.pay(bnb, '0.25');
  await h.pay(arc, '3.5');
  const doneBnb = await h.until(bnb.id, (x) => x.status === 'confirmed', 'the BNB payment');
  expect(doneBnb.blockchainTransactions[0]).toMatchObject({
    txHash: sentBnb.hash,
    logIndex: -1,
    tokenAddress: null,
    amount: '0.25',
  });
  const doneArc = await h.until(arc.id, (x) => x.status === 'confirmed', 'the arc payment');
  expect(doneArc.receivedAmount).toBe('3.5');
});

test('USDG (6 decimals) on brokerchain', async () => {
  const p = await h.m.payment({ chain: 'brokerchain', token: 'USDG', amount: '12.345678', currency: 'USDG' });
  await h.pay(p, '12.345678');
  await h.until(p.id, (x) => x.status === 'confirmed' && x.receivedAmount === '12.345678');
});

test('wrong token: USDT sent to a USDC payment is not credited', async () => {
  const p = await usdcPayment('25');
  const wrong = await h.pay(p, '25', { symbol: 'USDT' });
  // a later right-token transfer proves the listener has walked past the wrong one
  const other = await usdcPayment('1');
  await h.pay(other, '1');
  await h.until(other.id, (x) => x.status === 'confirmed', 'a later payment');
  const still = await h.getPayment(p.id);
  expect(still).toMatchObject({ status: 'waiting_for_payment', receivedAmount: '0', blockchainTransactions: [] });
  expect(wrong.blockNumber).toBeLessThan(Number((await h.getPayment(other.id)).blockchainTransactions[0].blockNumber));
});

test('not yet final: nothing changes until the transfer has the required confirmations', async () => {
  const p = await usdcPayment('25');
  await h.pay(p, '25', { mine: false }); // 1 confirmation of the 2 required
  await new Promise((r) => setTimeout(r, 500));
  expect(await h.getPayment(p.id)).toMatchObject({ status: 'waiting_for_payment', receivedAmount: '0' });
  await h.devnet.get('bnb').node.mine(1);
  await h.until(p.id, (x) => x.status === 'confirmed');
});

test('late: a transfer after expiry (dev clock) confirms the expired payment', async () => {
  const p = await usdcPayment('25');
  await h.advanceClock(31 * 60);
  await h.watchersPassed(); // expiry waits for the watcher (runtime contract › Dev clock)
  await h.runJobs();
  await h.until(p.id, (x) => x.status === 'expired', 'expiry');
  await h.pay(p, '25');
  const done = await h.until(p.id, (x) => x.status === 'confirmed');
  expect(done.receivedAmount).toBe('25');
});

test('session end to end: redeem, pay on chain, session completed', async () => {
  const product = await h.m.product({ name: 'Lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '37' });
  const session = await h.m.session({ productId: product.id });
  const quote = await h.t.http().post(`/v1/public/checkout/sessions/${session.id}/redeem`).send({ chain: 'bnb' });
  expect(quote.status).toBeLessThan(300);
  const bound = await h.m.get(`/v1/checkout/sessions/${session.id}`);
  expect(bound.body.status).toBe('processing');
  const payment = await h.getPayment(bound.body.paymentId);
  await h.pay(payment, '37');
  await h.until(payment.id, (x) => x.status === 'confirmed');
  const s = await h.m.get(`/v1/checkout/sessions/${session.id}`);
  expect(s.body).toMatchObject({ status: 'completed', paymentStatus: 'confirmed', receivedAmount: '37', late: false });
  expect(s.body.completedAt).not.toBeNull();
});

test('chain change, then money on the abandoned address: credited there, the session stays on its bound payment', async () => {
  const product = await h.m.product({
    name: 'Mug',
    kind: 'one_off',
    chain: 'bnb',
    token: 'USDC',
    price: '12',
    networks: [
      { chain: 'bnb', token: 'USDC', price: '12' },
      { chain: 'brokerchain', token: 'USDG', price: '12' },
    ],
  });
  const session = await h.m.session({ productId: product.id });
  await h.t.http().post(`/v1/public/checkout/sessions/${session.id}/redeem`).send({ chain: 'bnb' });
  const first = (await h.m.get(`/v1/checkout/sessions/${session.id}`)).body.paymentId as string;
  await h.t.http().post(`/v1/public/checkout/sessions/${session.id}/redeem`).send({ chain: 'brokerchain' });
  const second = (await h.m.get(`/v1/checkout/sessions/${session.id}`)).body.paymentId as string;
  expect(second).not.toBe(first);
  const abandoned = await h.getPayment(first);
  expect(abandoned.status).toBe('expired');
  await h.pay(abandoned, '12');
  await h.until(first, (x) => x.status === 'confirmed', 'the abandoned payment');
  const s = await h.m.get(`/v1/checkout/sessions/${session.id}`);
  expect(s.body).toMatchObject({ paymentId: second, status: 'processing', paymentStatus: 'waiting_for_payment' });
});
