import type { ChainConfig } from '@svc/chains';
import { RunnableRails } from './rail-loop';

const rail = (chain: string, kind: ChainConfig['kind'], rpcUrls: string[]): ChainConfig => ({
  chain,
  network: 'mainnet',
  kind,
  chainId: null,
  rpcUrls,
  confirmations: 1,
  watched: true,
  tokens: [],
});

describe('RunnableRails', () => {
  it('keeps a rail that signs with an RPC URL and one that does not sign; skips one that signs without, logged once', () => {
    const lines: string[] = [];
    const logger = { log: (m: string) => void lines.push(m), error: () => undefined, warn: () => undefined };
    const rails = new RunnableRails(logger, 'no payouts on it');
    const all = [rail('bnb', 'evm', ['http://node']), rail('base', 'evm', []), rail('solana', 'solana', [])];
    expect(rails.of(all).map((c) => c.chain)).toEqual(['bnb', 'solana']);
    expect(rails.of(all).map((c) => c.chain)).toEqual(['bnb', 'solana']);
    expect(lines).toEqual(['base/mainnet: no rpcUrls in the chain registry, so no payouts on it']);
  });
});
