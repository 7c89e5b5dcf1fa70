// New heads over WebSocket (issue 23 › Detection): where the chains file gives a `wsUrl` (the
// devnet's Anvil answers WebSocket on its HTTP port), the watcher reads the finalizing block the
// moment the node announces it; the cursor walk stays the source of truth and polling the
// fallback. Each listener here polls only every 30 s once caught up, so a payment confirmed within
// seconds was woken by the subscription; the same listener without `wsUrl` is the control.
import { createServer } from 'node:net';
import { Harness, startHarness } from './support/listener-harness';

jest.setTimeout(120_000);

const SLOW_POLL = { pollIntervalMs: 30_000, subscribedPollIntervalMs: 30_000 };
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function payAndFinalise(amount: string): Promise<string> {
  const p = await h.m.payment({ chain: 'bnb', token: 'USDC', amount, currency: 'USDC' });
  await h.pay(p, amount);
  await h.finalise('bnb');
  return p.id;
}

/** A port nothing listens on. */
const deadPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

test('the devnet chains file gives the WebSocket endpoint', () => {
  const bnb = h.devnet.chains.find((c) => c.entry.chain === 'bnb')!;
  expect(bnb.entry.wsUrl).toBe(bnb.node.url.replace('http://', 'ws://'));
});

test('with wsUrl: a new head wakes the walk, and the payment confirms long before the next poll', async () => {
  const l = await h.listener({ evm: SLOW_POLL });
  try {
    await new Promise((r) => setTimeout(r, 500)); // the subscription is up (it only wakes: nothing is lost before)
    const started = Date.now();
    const id = await payAndFinalise('3');
    await h.until(id, (p) => p.status === 'confirmed', 'confirmed by a head over WebSocket', 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  } finally {
    await h.stopListener(l);
  }
});

test('without wsUrl (control): the same listener waits for its poll', async () => {
  const file = h.chainsFileWith((entries) => entries.forEach((e) => delete e.wsUrl));
  const l = await h.listener({ evm: SLOW_POLL, chainsFile: file });
  try {
    const id = await payAndFinalise('4');
    await new Promise((r) => setTimeout(r, 4_000));
    expect((await h.getPayment(id)).status).toBe('waiting_for_payment');
  } finally {
    await h.stopListener(l);
  }
});

test('a wsUrl nobody answers: polling detects as before', async () => {
  const port = await deadPort();
  const file = h.chainsFileWith((entries) => entries.forEach((e) => (e.wsUrl = `ws://127.0.0.1:${port}`)));
  const l = await h.listener({ evm: { pollIntervalMs: 50, newHeads: { reconnectBaseMs: 50 } }, chainsFile: file });
  try {
    const id = await payAndFinalise('5');
    await h.until(id, (p) => p.status === 'confirmed', 'confirmed by polling', 20_000);
  } finally {
    await h.stopListener(l);
  }
});
