// The listener under hostile conditions (issue 9), with real payments on Anvil and an RPC proxy
// in front of the node: an RPC URL that carries keys.
import { INestApplicationContext } from '@nestjs/common';
import { WatchersService } from '../apps/listener/src/watchers/watchers.service';
import { Harness, startHarness, waitFor } from './support/listener-harness';
import { RpcProxy, startRpcProxy } from './support/rpc-proxy';

jest.setTimeout(90_000);

let h: Harness;
let proxy: RpcProxy;

beforeAll(async () => {
  h = await startHarness();
  // The cursor walks past the devnet's set-up blocks (the funding of the dev payer, which is
  // deposit address 1 of the test mnemonic) before any payment exists.
  const l = await h.listener();
  await waitFor('the first walk', () => bnbStatus(l).lag === '0');
  await h.stopListener(l);
});
afterEach(async () => {
  while (h.listeners.length) await h.stopListener(h.listeners[0]);
  await proxy?.close();
});
afterAll(async () => {
  await h?.close();
});

const bnbNode = () => h.devnet.get('bnb').node;
const bnbStatus = (l: INestApplicationContext) =>
  l
    .get(WatchersService)
    .status()
    .find((s) => s.chain === 'bnb' && s.network === 'mainnet')!;

/** A listener whose bnb RPC URL is `proxy` (with `suffix`: a path and query carrying keys). */
async function listenerBehindProxy(suffix = '', options: Parameters<Harness['listener']>[0] = {}) {
  proxy = await startRpcProxy(bnbNode().url);
  const url = `${proxy.url}${suffix}`;
  return h.listener({
    ...options,
    chainsFile: h.chainsFileWith((entries) => (entries.find((e) => e.chain === 'bnb')!.rpcUrls = [url])),
  });
}

describe('RPC errors are stored and logged with the host only', () => {
  test('an RPC URL with a key in its path and query: chain_cursors.last_error, the log and health name scheme://host:port only', async () => {
    const SECRET_PATH = 'sk_live_9f8e7d6c5b4a39281706';
    const SECRET_QUERY = 'QK_0123456789abcdefXYZ';
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      }) as typeof stream.write);
    const spies = [capture(process.stdout), capture(process.stderr)];
    try {
      const l = await listenerBehindProxy(`/v3/${SECRET_PATH}?apikey=${SECRET_QUERY}`, {
        logLevels: ['log', 'warn', 'error'],
      });
      const host = proxy.url; // http://127.0.0.1:<port>
      proxy.mode = 'unauthorized'; // a 401 whose body repeats the path, key included
      const row = await waitFor('the error stored on the cursor', async () => {
        const rows: Array<{ last_error: string | null }> = await h.t.db.query(
          `SELECT last_error FROM chain_cursors WHERE chain = 'bnb' AND network = 'mainnet'`,
        );
        return rows[0]?.last_error?.includes('401') && rows[0];
      });
      proxy.mode = 'down'; // a transport error too
      await waitFor('a transport error', () => bnbStatus(l).lastError && !bnbStatus(l).lastError!.includes('401'));
      l.get(WatchersService).logHealth();
      const status = bnbStatus(l);

      expect(row.last_error).toContain(host);
      expect(status.endpoint).toBe(host);
      const logged = written.join('');
      expect(logged).toContain(`rpc=${host}`);
      for (const text of [row.last_error!, status.lastError!, logged]) {
        expect(text).not.toContain(SECRET_PATH);
        expect(text).not.toContain(SECRET_QUERY);
        expect(text).not.toContain('/v3/');
      }
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });
});
