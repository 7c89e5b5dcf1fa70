import type { DataSource } from 'typeorm';
import { BUILT_IN_CHAINS, ChainRegistry, mergeChainsFile } from '@svc/chains';
import { macDestinations, SignerContext } from './context';
import type { EvmKeyring } from './keys/keyring';
import type { EvmRpcClient } from '@svc/chains';

// issue 18 case 8 / runtime contract › SVC_CHAINS_FILE: every rail's fee policy has a cap: the
// chain's maxFeePerGas from the chains file, else the chain's built-in default; a caller's explicit
// fee policy still wins.
describe('the fee cap of a rail', () => {
  const context = (registry: ChainRegistry, feePolicy = {}) =>
    new SignerContext(
      {} as DataSource,
      registry,
      {} as EvmKeyring,
      { now: () => new Date() },
      {
        feePolicy,
        rpc: () => ({}) as EvmRpcClient,
        destinations: macDestinations({ key: Buffer.alloc(32, 1), devClock: false }),
      },
    );

  test('the built-in default per chain (bnb: 100 gwei)', () => {
    const ctx = context(new ChainRegistry(BUILT_IN_CHAINS));
    expect(ctx.rail('bnb', 'mainnet').policy.maxFeePerGas).toBe(100_000_000_000n);
    expect(ctx.rail('base', 'mainnet').policy.maxFeePerGas).toBe(50_000_000_000n);
  });

  test("the chains file's maxFeePerGas; an explicit fee policy overrides it", () => {
    const file = { chains: [{ chain: 'bnb', network: 'mainnet', maxFeePerGas: '7000000000' }] };
    const registry = new ChainRegistry(mergeChainsFile(BUILT_IN_CHAINS, file, 'test'));
    expect(context(registry).rail('bnb', 'mainnet').policy.maxFeePerGas).toBe(7_000_000_000n);
    expect(context(registry, { maxFeePerGas: 5n }).rail('bnb', 'mainnet').policy.maxFeePerGas).toBe(5n);
  });
});

// issue 19 › Keys: a signer always checks what it pays (docs/money-out.md › Destinations)
test('no signer without a destination guard, nor with a destination key shorter than 32 bytes', () => {
  const registry = new ChainRegistry(BUILT_IN_CHAINS);
  expect(() => new SignerContext({} as DataSource, registry, {} as EvmKeyring, { now: () => new Date() })).toThrow(
    'the signer needs a destination guard (SVC_DESTINATION_KEY)',
  );
  expect(() => macDestinations({ key: Buffer.alloc(16), devClock: false })).toThrow('must be 32 bytes');
});

// docs/performance.md › Issue 23: sweeps › Third pass: a run advances senders side by side, one
// sender's steps never overlap (rail-runner.ts)
describe('SignerContext.serial', () => {
  const ctx = new SignerContext(
    {} as DataSource,
    new ChainRegistry(BUILT_IN_CHAINS),
    {} as EvmKeyring,
    { now: () => new Date() },
    { destinations: macDestinations({ key: Buffer.alloc(32, 1), devClock: false }) },
  );
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  test("one sender's steps run one after the other, in call order, a failed one not stopping the next; other senders overlap", async () => {
    const log: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      ctx.serial('bnb', 'mainnet', '0xAbC', step('a1', true)),
      ctx.serial('bnb', 'mainnet', '0xabc', step('a2')),
      ctx.serial('bnb', 'mainnet', '0xdef', step('b1')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    // the same address in any case is one sender: a2 starts after a1 ended; b1 ran beside a1
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });
});
