import { Logger } from '@nestjs/common';
import { WebSocketServer, WebSocket } from 'ws';
import { NewHeadsSubscription } from './evm-heads';

/** A node's eth_subscribe over a real WebSocket server: answers the subscription, sends heads on demand. */
function node() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const clients: WebSocket[] = [];
  let subscriptions = 0;
  server.on('connection', (ws) => {
    clients.push(ws);
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.method === 'eth_subscribe' && msg.params[0] === 'newHeads') {
        subscriptions += 1;
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: '0xabc' }));
      }
    });
  });
  const ready = new Promise<void>((r) => server.once('listening', () => r()));
  return {
    ready,
    url: () => `ws://127.0.0.1:${(server.address() as { port: number }).port}/v3/a1b2c3d4e5f6a7b8c9d0`,
    subscriptions: () => subscriptions,
    head(n: number) {
      const params = { subscription: '0xabc', result: { number: `0x${n.toString(16)}`, hash: '0x00' } };
      for (const c of clients) c.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params }));
    },
    drop() {
      for (const c of clients.splice(0)) c.terminate();
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const until = async (what: string, ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('heads arrive as the node announces them, and again after the connection drops', async () => {
  const n = node();
  await n.ready;
  const heads: bigint[] = [];
  const warnings: string[] = [];
  const logger = new Logger('test');
  jest.spyOn(logger, 'log').mockImplementation(() => undefined);
  jest.spyOn(logger, 'warn').mockImplementation((m: unknown) => void warnings.push(String(m)));
  const sub = new NewHeadsSubscription(n.url(), (h) => heads.push(h), logger, { reconnectBaseMs: 20 });
  sub.start();
  try {
    await until('subscribed', () => sub.live);
    n.head(7);
    await until('head 7', () => heads.length === 1);
    n.drop();
    await until('resubscribed', () => n.subscriptions() === 2 && sub.live);
    n.head(8);
    await until('head 8', () => heads.length === 2);
    expect(heads).toEqual([7n, 8n]);
  } finally {
    sub.stop();
    await n.close();
  }
});

test('an endpoint that refuses: warned once with the URL redacted, retried, never live', async () => {
  const n = node();
  await n.ready;
  const url = n.url();
  await n.close();
  const warnings: string[] = [];
  const logger = new Logger('test');
  jest.spyOn(logger, 'warn').mockImplementation((m: unknown) => void warnings.push(String(m)));
  const sub = new NewHeadsSubscription(url, () => undefined, logger, { reconnectBaseMs: 10, reconnectMaxMs: 20 });
  sub.start();
  await new Promise((r) => setTimeout(r, 300));
  sub.stop();
  expect(sub.live).toBe(false);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('polling meanwhile');
  expect(warnings[0]).not.toContain('a1b2c3d4e5f6a7b8c9d0');
});
