import type { ChainConfig, ChainRegistry } from '@svc/chains';
import type { SvcConfig } from '@svc/core';
import type { RefundLegs, SweepLegs } from '@svc/payments';
import type { OutboundService } from '@svc/outbound';
import { SigningRunner } from './signing-runner.service';

const rail = (chain: string) => ({ chain, network: 'mainnet', kind: 'evm', rpcUrls: ['http://127.0.0.1:1'] });

/** A runner on two EVM rails whose engine records which rail each signing run moved. */
function runner(intervalMs: number) {
  const ran: string[] = [];
  const rails = [rail('bnb'), rail('base')] as unknown as ChainConfig[];
  const outbound = {
    runPending: (chain: string, network: string) => {
      ran.push(`${chain}/${network}`);
      return Promise.resolve({ chain, network, advanced: 0, states: {}, errors: [] });
    },
  } as unknown as OutboundService;
  const tally = { tally: { completed: 0, failed: 0 } };
  const r = new SigningRunner(
    { all: () => rails } as unknown as ChainRegistry,
    outbound,
    tally as unknown as SweepLegs,
    tally as unknown as RefundLegs,
    { payoutIntervalMs: intervalMs } as SvcConfig,
  );
  // the loop (RailLoop) the runner drives: its first run, a planner's notification, the run in progress
  const internals = (
    r as unknown as { loop: { start(ms?: number): void; wake(rail?: string): void; current: unknown } }
  ).loop;
  const settled = async () => {
    for (let i = 0; i < 100 && (internals.current !== null || ran.length === 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { r, ran, internals, settled };
}

describe('SigningRunner: a planner wakes the rail it names', () => {
  test('the first run is every rail; a notification naming a rail runs that rail only', async () => {
    const { r, ran, internals, settled } = runner(60_000);
    try {
      internals.start(0);
      await settled();
      expect(ran.splice(0)).toEqual(['bnb/mainnet', 'base/mainnet']);
      internals.wake('base/mainnet');
      await settled();
      expect(ran.splice(0)).toEqual(['base/mainnet']);
    } finally {
      await r.beforeApplicationShutdown();
    }
  });

  test('a notification naming no rail it signs on runs them all', async () => {
    const { r, ran, internals, settled } = runner(60_000);
    try {
      internals.start(0);
      await settled();
      ran.splice(0);
      internals.wake('tron/mainnet');
      await settled();
      expect(ran.splice(0)).toEqual(['bnb/mainnet', 'base/mainnet']);
    } finally {
      await r.beforeApplicationShutdown();
    }
  });

  test('every rail still runs once per interval however often planners wake one', async () => {
    const { r, ran, internals, settled } = runner(200);
    try {
      internals.start(0);
      await settled();
      ran.splice(0);
      // a wake every 20 ms would put the interval's run off forever if each wake ran the woken rail only
      const until = Date.now() + 600;
      while (Date.now() < until) {
        internals.wake('bnb/mainnet');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await settled();
      expect(ran.filter((k) => k === 'bnb/mainnet').length).toBeGreaterThan(3);
      expect(ran).toContain('base/mainnet');
    } finally {
      await r.beforeApplicationShutdown();
    }
  });
});
