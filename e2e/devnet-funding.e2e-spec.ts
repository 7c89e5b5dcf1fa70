// `npm run dev` funds the Demo workspace's refund wallet (issue 20 › 6): fundDevAccount, the code
// scripts/dev.js runs, sends native coin and every dev token to the refund wallet the API itself
// names (GET /v1/refund-wallets, the address the payout process refunds from) on every devnet node,
// and the API then reads those balances from the chain.
import { fundDevAccount } from '@svc/devnet';
import { startTestDevnet, TestDevnet } from './support/anvil';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(120_000);

type Wallet = { chain: string; network: string; address: string; balances: Array<{ token: string; amount: string }> };

let devnet: TestDevnet;
let t: TestApp;
let apiKey: string;

beforeAll(async () => {
  devnet = await startTestDevnet();
  t = await startTestApp({ SVC_CHAINS_FILE: devnet.chainsFile });
  ({ apiKey } = await t.workspace('Demo'));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await devnet?.stop();
});

/** The workspace's refund wallet on each devnet rail, as the API reports it. */
async function devnetWallets(): Promise<Wallet[]> {
  const res = await t.http().get('/v1/refund-wallets').set('x-api-key', apiKey);
  expect(res.status).toBe(200);
  const rails = new Set(devnet.chains.map((c) => `${c.spec.chain}/${c.spec.network}`));
  return (res.body as Wallet[]).filter((w) => rails.has(`${w.chain}/${w.network}`));
}

test('the refund wallet the API names holds native coin and every dev token on every devnet rail', async () => {
  const before = await devnetWallets();
  expect(before).toHaveLength(devnet.chains.length);
  const address = before[0].address;
  for (const w of before) {
    expect(w.address).toBe(address); // one EVM address on every rail
    for (const b of w.balances) expect([w.chain, b.token, b.amount]).toEqual([w.chain, b.token, '0']);
  }

  const sent = await fundDevAccount(devnet, address, { nativeUnits: 10n, tokenUnits: 1000n });
  // arc mainnet and testnet share a node: funded once
  expect(sent.filter((s) => s.chain === 'arc')).toHaveLength(1);

  for (const w of await devnetWallets()) {
    const spec = devnet.get(w.chain, w.network as 'mainnet' | 'testnet').spec;
    const expected = spec.tokens.map((tk) => ({ token: tk.symbol, amount: tk.native ? '10' : '1000' }));
    expect([w.chain, w.network, w.balances]).toEqual([w.chain, w.network, expect.arrayContaining(expected)]);
  }
});
