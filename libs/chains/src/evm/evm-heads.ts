// New heads over WebSocket (`eth_subscribe` "newHeads", issue 23 › Detection): the watcher reads
// the block that makes a transfer final the moment the node announces it, instead of at its next
// poll. The subscription only wakes the walk: the cursor walk over HTTP stays the source of truth
// (a subscription drops heads on reconnect), and polling goes on as the fallback.
import type { Logger } from '@nestjs/common';
import WebSocket from 'ws';
import { redactRpcText } from '../rpc-url';

export interface NewHeadsOptions {
  /** first wait before reconnecting; doubles up to reconnectMaxMs */
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** a ping every this often; a socket that has not answered the previous one is dropped */
  pingIntervalMs: number;
  handshakeTimeoutMs: number;
}

export const DEFAULT_NEW_HEADS_OPTIONS: NewHeadsOptions = {
  reconnectBaseMs: 500,
  reconnectMaxMs: 30_000,
  pingIntervalMs: 15_000,
  handshakeTimeoutMs: 10_000,
};

const SUBSCRIBE_ID = 1;

export class NewHeadsSubscription {
  private socket: WebSocket | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private failures = 0;
  private subscribed = false;
  private lastError: string | null = null;
  private readonly options: NewHeadsOptions;

  constructor(
    private readonly url: string,
    private readonly onHead: (head: bigint) => void,
    private readonly logger: Logger,
    options: Partial<NewHeadsOptions> = {},
  ) {
    this.options = { ...DEFAULT_NEW_HEADS_OPTIONS, ...options };
  }

  /** Subscribed and answering: heads arrive as the node makes them. */
  get live(): boolean {
    return this.subscribed;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.subscribed = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => undefined); // a terminate() during the handshake still emits one
    this.socket?.terminate();
    this.socket = null;
  }

  private connect(): void {
    const ws = new WebSocket(this.url, { handshakeTimeout: this.options.handshakeTimeoutMs });
    this.socket = ws;
    let answered = true;
    ws.on('open', () => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: SUBSCRIBE_ID, method: 'eth_subscribe', params: ['newHeads'] }));
      this.pingTimer = setInterval(() => {
        if (!answered) return ws.terminate(); // silent for a whole interval: dropped, then reconnected
        answered = false;
        ws.ping();
      }, this.options.pingIntervalMs);
    });
    ws.on('pong', () => (answered = true));
    ws.on('message', (data) => {
      answered = true;
      this.message(ws, String(data));
    });
    ws.on('error', (err) => this.failed(err.message));
    ws.on('close', () => {
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      this.subscribed = false;
      if (this.socket === ws) this.socket = null;
      if (this.stopped) return;
      const wait = Math.min(
        this.options.reconnectMaxMs,
        this.options.reconnectBaseMs * 2 ** Math.min(10, this.failures),
      );
      this.failures += 1;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        if (!this.stopped) this.connect();
      }, wait);
    });
  }

  private message(ws: WebSocket, text: string): void {
    let msg: { id?: unknown; result?: unknown; error?: { message?: string }; method?: unknown; params?: unknown };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.id === SUBSCRIBE_ID) {
      if (msg.error || typeof msg.result !== 'string') {
        this.failed(`eth_subscribe newHeads refused: ${msg.error?.message ?? 'no subscription id'}`);
        ws.close();
        return;
      }
      this.subscribed = true;
      this.failures = 0;
      if (this.lastError !== null) this.logger.log(`new heads over WebSocket again (was: ${this.lastError})`);
      else this.logger.log(`new heads over WebSocket from ${redactRpcText(this.url, [this.url])}`);
      this.lastError = null;
      return;
    }
    if (msg.method !== 'eth_subscription') return;
    const number = (msg.params as { result?: { number?: unknown } } | undefined)?.result?.number;
    if (typeof number !== 'string' || !/^0x[0-9a-f]+$/i.test(number)) return;
    this.onHead(BigInt(number));
  }

  private failed(raw: string): void {
    const message = redactRpcText(`new heads subscription: ${raw}`, [this.url]);
    if (message !== this.lastError) this.logger.warn(`${message}; polling meanwhile`);
    this.lastError = message;
  }
}
