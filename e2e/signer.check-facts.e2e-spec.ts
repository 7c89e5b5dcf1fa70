// issue 23 › Sweeps, third pass (docs/performance.md › Issue 23: sweeps › Third pass): a planned
// row carries what the planner's check read (block B, the deposit's balances at B, the gas
// estimate, the fee quote). The signer's first pass decides on those facts instead of reading them
// again while they are fresh (a minute: the estimate and quote; an hour: the balances), the gas
// tank's top-up of our own deposit key is a 21,000-gas transfer not estimated, and the top-up mined
// above B counts as funds received.
// The chain is read through a proxy that records every call.
import { randomUUID } from 'node:crypto';
import { EvmRpc } from '@svc/chains';
import {
  CHECK_BALANCES_MAX_AGE_MS,
  CHECK_FACTS_MAX_AGE_MS,
  CheckFacts,
  depositKey,
  GAS_TANK_KEY,
  OutboundService,
  PLAIN_TRANSFER_GAS,
} from '@svc/outbound';
import { RpcProxy, RpcRequest, startRpcProxy } from './support/rpc-proxy';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

jest.setTimeout(120_000);

let h: SignerHarness;
let proxy: RpcProxy;
let s: OutboundService;
let index = 100n;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 1 });
  proxy = await startRpcProxy(h.node.url);
  s = await h.service({ rpc: () => new EvmRpc([proxy.url]) });
  await h.payer.sendNative(s.address(GAS_TANK_KEY), ether('1'));
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/** A deposit holding `amount` of the token, checked (the planner's check) and planned with the facts. */
async function plannedWithFacts(amount: bigint) {
  const i = ++index;
  const deposit = s.address(depositKey(i));
  await h.payer.sendToken(h.token, deposit, amount);
  const to = freshAddress();
  const check = await s.check({
    chain: h.chain,
    network: h.network,
    from: depositKey(i),
    to,
    token: h.token,
    amount: 'all',
  });
  if (!check.ok || !check.facts) throw new Error(`the check refused: ${JSON.stringify(check)}`);
  const planned = await s.planTokenSweep({
    chain: h.chain,
    network: h.network,
    sweepId: randomUUID(),
    depositIndex: i,
    to,
    token: h.token,
    checked: check.facts,
  });
  return { deposit, to, facts: check.facts, planned };
}

/** Calls that read `address`'s balances or estimate a transfer from it. */
const readsOf = (calls: RpcRequest[], address: string) =>
  calls.filter((c) => {
    const p = JSON.stringify(c.params ?? []).toLowerCase();
    const a = address.toLowerCase();
    if (c.method === 'eth_getBalance') return p.includes(a);
    if (c.method === 'eth_call') return p.includes(a.slice(2)); // balanceOf(address) calldata
    if (c.method === 'eth_estimateGas') return p.includes(`"from":"${a}"`);
    return false;
  });

test('facts taken from the row: nothing of the deposit read again, the top-up is 21,000 gas unestimated, and the sweep signs once it is mined above the facts block', async () => {
  const amount = ether('12.5');
  const { deposit, to, facts, planned } = await plannedWithFacts(amount);
  expect(planned.checked).toEqual<CheckFacts>({
    block: facts.block,
    at: facts.at,
    native: 0n,
    token: amount,
    gasLimit: facts.gasLimit,
    quote: facts.quote,
  });
  expect((await s.get(planned.id)).checked).toEqual(planned.checked);

  proxy.calls.length = 0;
  const t = await h.drive(s, planned.id);
  expect(t.state).toBe('completed');
  expect(readsOf(proxy.calls, deposit)).toEqual([]);
  // no estimate at all: the sweep's is the check's, the top-up is a plain transfer to our own deposit key
  expect(proxy.calls.filter((c) => c.method === 'eth_estimateGas')).toEqual([]);
  expect(t.gasLimit).toBe(facts.gasLimit);

  const [topUp] = await s.topUps(t.id);
  expect(topUp).toMatchObject({ state: 'completed', toAddress: deposit, gasLimit: PLAIN_TRANSFER_GAS });
  expect(topUp.blockNumber as bigint).toBeGreaterThan(facts.block); // counted as received, not as still open
  expect(topUp.amountAtomic).toBe((t.gasLimit as bigint) * facts.quote.price);
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(0n);
  expect(await h.nativeBalance(deposit)).toBe(((t.gasLimit as bigint) - (t.gasUsed as bigint)) * facts.quote.price);
  expect(await s.attempts(t.id)).toHaveLength(1);
});

test('facts older than a minute: the estimate and the quote are read again, the balances stay those at the facts block', async () => {
  const amount = ether('3');
  const { deposit, to, planned } = await plannedWithFacts(amount);
  h.clock.advance(CHECK_FACTS_MAX_AGE_MS / 1000 + 1);

  proxy.calls.length = 0;
  const t = await h.drive(s, planned.id);
  expect(t.state).toBe('completed');
  const reads = readsOf(proxy.calls, deposit).map((c) => c.method);
  // once, for the top-up's decision; the transfer then signs with the gas limit decided with it
  expect(reads.filter((m) => m === 'eth_estimateGas')).toHaveLength(1);
  expect(reads).not.toContain('eth_getBalance');
  expect(reads).not.toContain('eth_call');
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(0n);
});

test('facts older than an hour are all read again from the chain', async () => {
  const amount = ether('2');
  const { deposit, to, planned } = await plannedWithFacts(amount);
  h.clock.advance(CHECK_BALANCES_MAX_AGE_MS / 1000 + 1);

  proxy.calls.length = 0;
  const t = await h.drive(s, planned.id);
  expect(t.state).toBe('completed');
  const reads = readsOf(proxy.calls, deposit).map((c) => c.method);
  expect(reads).toEqual(expect.arrayContaining(['eth_getBalance', 'eth_call', 'eth_estimateGas']));
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(0n);
});

test('the facts pin the block: tokens that arrive after it stay for the next sweep, and what moved is exactly the facts amount', async () => {
  const amount = ether('7');
  const { deposit, to, planned } = await plannedWithFacts(amount);
  await h.payer.sendToken(h.token, deposit, ether('1')); // paid after the check's block

  const t = await h.drive(s, planned.id);
  expect(t.state).toBe('completed');
  expect(t.amountAtomic).toBe(amount);
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(ether('1'));
});

test('a lagging RPC (head below the facts block, no balances for the deposit) does not change what is signed', async () => {
  const amount = ether('4');
  const { deposit, to, facts, planned } = await plannedWithFacts(amount);
  const behind = `0x${(facts.block - 3n).toString(16)}`;
  proxy.intercept = (call) => {
    if (call.method === 'eth_blockNumber') return { result: behind };
    if (call.method === 'eth_getBalance' && JSON.stringify(call.params).toLowerCase().includes(deposit.toLowerCase())) {
      return { result: '0x0' };
    }
    return undefined;
  };
  try {
    const first = await s.advance(planned.id);
    // the facts decide: a top-up of exactly the fee, and the sweep itself signed once it landed
    const [topUp] = await s.topUps(first.id);
    expect(topUp.amountAtomic).toBe(facts.gasLimit * facts.quote.price);
  } finally {
    proxy.intercept = null;
  }
  const t = await h.drive(s, planned.id);
  expect(t.state).toBe('completed');
  expect(await s.topUps(t.id)).toHaveLength(1);
  expect(await h.tokenBalance(to)).toBe(amount);
  expect(await h.tokenBalance(deposit)).toBe(0n);
});

describe('a chain of 3 confirmations', () => {
  let h3: SignerHarness;
  let proxy3: RpcProxy;
  let s3: OutboundService;

  beforeAll(async () => {
    h3 = await startSignerHarness({ confirmations: 3 });
    proxy3 = await startRpcProxy(h3.node.url);
    s3 = await h3.service({ rpc: () => new EvmRpc([proxy3.url]) });
    await h3.payer.sendNative(s3.address(GAS_TANK_KEY), ether('1'));
  });
  afterAll(async () => {
    await proxy3?.close();
    await h3?.close();
  });

  test('a top-up mined above the facts block with a receipt of status 1, not final yet, is funds received: the sweep signs on the facts', async () => {
    const deposit = s3.address(depositKey(1));
    const amount = ether('9');
    await h3.payer.sendToken(h3.token, deposit, amount);
    const to = freshAddress();
    const req = {
      chain: h3.chain,
      network: h3.network,
      from: depositKey(1),
      to,
      token: h3.token,
      amount: 'all' as const,
    };
    const check = await s3.check(req);
    if (!check.ok || !check.facts) throw new Error(`the check refused: ${JSON.stringify(check)}`);
    const planned = await s3.planTokenSweep({
      chain: h3.chain,
      network: h3.network,
      sweepId: randomUUID(),
      depositIndex: 1n,
      to,
      token: h3.token,
      checked: check.facts,
    });

    proxy3.calls.length = 0;
    await s3.advance(planned.id); // the top-up, signed and sent (Anvil mines it at once)
    const t = await s3.advance(planned.id); // its receipt (1 of 3 confirmations), then the sweep
    const [topUp] = await s3.topUps(planned.id);
    expect(topUp.state).toBe('mined');
    expect(topUp.blockNumber as bigint).toBeGreaterThan(check.facts.block);
    expect(['submitted', 'mined']).toContain(t.state);
    expect(readsOf(proxy3.calls, deposit)).toEqual([]);

    const done = await h3.drive(s3, planned.id);
    expect(done.state).toBe('completed');
    expect(await h3.tokenBalance(to)).toBe(amount);
    expect(await h3.tokenBalance(deposit)).toBe(0n);
    expect(await s3.topUps(planned.id)).toHaveLength(1);
  });
});
