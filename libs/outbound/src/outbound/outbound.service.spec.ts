// The outbound engine at shutdown: once the runners have stopped (Nest's onApplicationShutdown),
// its rails' kept-alive connections to their nodes are closed, not left for the idle timeout.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { BUILT_IN_CHAINS, ChainRegistry, SUI_COIN_TYPE } from '@svc/chains';
import { EvmKeyring } from '../keys/keyring';
import type { SuiKeyring } from '../keys/sui-keyring';
import { OutboundService } from './outbound.service';

test('onApplicationShutdown closes the Sui rail connections to its node', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ data: { address: { balance: { totalBalance: '5' } } } })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const connections = () => new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sui = BUILT_IN_CHAINS.find((c) => c.kind === 'sui' && c.network === 'mainnet')!;
    const registry = new ChainRegistry([{ ...sui, rpcUrls: [url] }]);
    const service = new OutboundService(
      {} as DataSource,
      registry,
      EvmKeyring.fromXpubs(() => 'unused'),
      { now: () => new Date() },
      { suiKeyring: {} as SuiKeyring },
    );
    const rail = service.rail(sui.chain, sui.network);
    expect(await rail.balance('0x1', { ...sui.tokens[0], address: SUI_COIN_TYPE })).toBe(5n);
    expect(await connections()).toBe(1); // kept alive
    await service.onApplicationShutdown();
    for (let i = 0; i < 50 && (await connections()) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await connections()).toBe(0);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
