import * as net from 'node:net';
import * as tls from 'node:tls';

/**
 * A small HTTP/1.1 client for webhook POSTs: one string written per request on a kept-alive
 * connection, and only the answer's status read (its head parsed, its body skipped by its framing
 * so the connection can serve the next request). It replaces node:http's client, which cost the
 * worker 3–4 times as much CPU per request (docs/performance.md › Webhooks › Issue 23, third
 * pass). What node:http did and this keeps: no redirect followed (a 3xx is the answer), 1xx
 * answers skipped, chunked, length-delimited and close-delimited bodies, a kept-alive connection
 * the server closed meanwhile tried once more on a new one, `lookup` (the SSRF guard) on every new
 * connection, TLS with the certificate checked and SNI, idle connections closed after a while and
 * never holding the process open.
 */

/** Where a connection goes; `key` names one pool of kept-alive connections. */
export interface Origin {
  key: string;
  isHttps: boolean;
  /** host name or IP address, without IPv6 brackets */
  host: string;
  port: number;
  /** SNI name (https): the host unless it is an IP address */
  servername?: string;
  lookup?: net.LookupFunction;
}

/** The answer's status, or why there was none. */
export type Http1Result = { status: number } | { error: NodeJS.ErrnoException };

const HEAD_MAX = 64 * 1024;
const LINE_MAX = 4 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

export interface Http1Options {
  /** kept-alive connections per origin at most (others are closed after their answer) */
  maxFree: number;
  /** an idle kept-alive connection is closed after this long */
  idleMs: number;
}

export class Http1Client {
  private readonly free = new Map<string, Connection[]>();
  private readonly open = new Set<Connection>();

  constructor(private readonly opts: Http1Options) {}

  /**
   * Writes `request` (the whole head and body) on a kept-alive connection to `origin`, or a new
   * one, and resolves with the answer's status as soon as its head is read; the body is skipped
   * afterwards, within `drainMs`. A kept-alive connection that the server had closed (no byte of
   * an answer, reset or closed) is tried once more on a new connection. Never rejects; `cancel`
   * (the caller's timeout) closes the connection.
   */
  request(origin: Origin, request: string, drainMs: number): { answer: Promise<Http1Result>; cancel: () => void } {
    let cancelled = false;
    let current: Connection | null = null;
    const answer = new Promise<Http1Result>((resolve) => {
      const attempt = (mayRetry: boolean) => {
        try {
          const conn = this.take(origin, !mayRetry);
          current = conn;
          conn.start(request, drainMs, (r, retryable) => {
            if (cancelled) return;
            if ('error' in r && retryable && mayRetry) return attempt(false);
            resolve(r);
          });
        } catch (err) {
          // a connection that cannot even be opened (options refused by node): a failed attempt, not a crash
          resolve({ error: err as NodeJS.ErrnoException });
        }
      };
      attempt(true);
    });
    return {
      answer,
      cancel: () => {
        cancelled = true;
        current?.destroy();
      },
    };
  }

  /** Closes every connection, idle or busy. */
  close(): void {
    for (const c of this.open) c.destroy();
    this.free.clear();
  }

  private take(origin: Origin, fresh: boolean): Connection {
    const idle = fresh ? undefined : this.free.get(origin.key);
    const conn = idle?.pop(); // the most recently used first (lifo): the others may time out
    if (idle && !idle.length) this.free.delete(origin.key);
    if (conn) {
      conn.reuse();
      return conn;
    }
    const dialled = new Connection(origin, this);
    this.open.add(dialled);
    return dialled;
  }

  /** @internal the answer is complete and the connection can serve another request */
  release(conn: Connection): void {
    const idle = this.free.get(conn.origin.key) ?? [];
    if (idle.length >= this.opts.maxFree) {
      conn.destroy();
      return;
    }
    idle.push(conn);
    this.free.set(conn.origin.key, idle);
    conn.idle(this.opts.idleMs);
  }

  /** @internal the connection closed */
  forget(conn: Connection): void {
    this.open.delete(conn);
    const idle = this.free.get(conn.origin.key);
    const i = idle?.indexOf(conn) ?? -1;
    if (idle && i >= 0) {
      idle.splice(i, 1);
      if (!idle.length) this.free.delete(conn.origin.key);
    }
  }
}

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

type Done = (r: Http1Result, retryable: boolean) => void;

/** One connection and the answer it is reading (one request at a time). */
class Connection {
  private readonly socket: net.Socket;
  private done: Done | null = null;
  private answered = false;
  private reused = false;
  private received = false;
  private state: State = 'done';
  private pending: Buffer | null = null;
  private remaining = 0;
  private keepAlive = true;
  private drainTimer: NodeJS.Timeout | undefined;
  private drainMs = 0;
  private lastError: NodeJS.ErrnoException | null = null;

  constructor(
    readonly origin: Origin,
    private readonly client: Http1Client,
  ) {
    const options = { host: origin.host, port: origin.port, lookup: origin.lookup };
    this.socket = origin.isHttps
      ? tls.connect({ ...options, servername: origin.servername || undefined })
      : net.connect({ ...options, noDelay: true });
    if (origin.isHttps) this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err: NodeJS.ErrnoException) => (this.lastError = err));
    this.socket.on('timeout', () => this.socket.destroy()); // idle too long
    this.socket.on('close', () => this.onClose());
  }

  start(request: string, drainMs: number, done: Done): void {
    this.done = done;
    this.drainMs = drainMs;
    this.answered = false;
    this.received = false;
    this.state = 'head';
    this.pending = null;
    this.keepAlive = true;
    this.socket.write(request);
  }

  reuse(): void {
    this.reused = true;
    this.socket.setTimeout(0);
    this.socket.ref();
  }

  idle(idleMs: number): void {
    this.socket.setTimeout(idleMs);
    this.socket.unref();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'done') {
      this.socket.destroy(); // bytes nobody asked for
      return;
    }
    this.received = true;
    try {
      this.read(chunk);
    } catch (err) {
      this.fail(err as NodeJS.ErrnoException, false);
      this.socket.destroy();
    }
  }

  private onClose(): void {
    clearTimeout(this.drainTimer);
    this.client.forget(this);
    if (this.state === 'done' || !this.done) return;
    if (this.state === 'until-close') return this.finish();
    const err = this.lastError ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    // a kept-alive connection the server closed before it read the request: once more on a new one
    const retryable = this.reused && !this.received && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
    this.fail(err, retryable);
  }

  private fail(err: NodeJS.ErrnoException, retryable: boolean): void {
    this.state = 'done';
    const done = this.done;
    this.done = null;
    if (!this.answered) done?.({ error: err }, retryable);
  }

  /** The answer is complete: the connection serves the next request, or closes. */
  private finish(): void {
    clearTimeout(this.drainTimer);
    this.state = 'done';
    this.done = null;
    if (this.keepAlive && !this.socket.destroyed && !this.pending?.length) this.client.release(this);
    else this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    const buf = this.pending?.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let at = 0;
    for (;;) {
      if (this.state === 'done') {
        if (at < buf.length) this.keepAlive = false; // bytes beyond the answer: never reused
        return this.finish();
      }
      if (at >= buf.length) return;
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(CRLFCRLF, at);
          if (end < 0) {
            if (buf.length - at > HEAD_MAX) throw protocolError('answer head too large');
            this.pending = buf.subarray(at);
            return;
          }
          const text = buf.toString('latin1', at, end);
          at = end + 4;
          this.head(text);
          break;
        }
        case 'until-close':
          return; // skipped; the close ends it
        case 'length':
        case 'chunk-data': {
          const n = Math.min(this.remaining, buf.length - at);
          this.remaining -= n;
          at += n;
          if (!this.remaining) {
            if (this.state === 'length') this.state = 'done';
            else {
              this.state = 'chunk-end';
              this.remaining = 2;
            }
          }
          break;
        }
        case 'chunk-end':
          // the CRLF after a chunk's data, possibly split across reads
          if (buf[at] !== CRLF[2 - this.remaining]) throw protocolError('invalid chunk end');
          at++;
          if (!--this.remaining) this.state = 'chunk-size';
          break;
        case 'chunk-size':
        case 'trailers': {
          const end = buf.indexOf(CRLF, at);
          if (end < 0) {
            if (buf.length - at > LINE_MAX) throw protocolError('chunk line too long');
            this.pending = buf.subarray(at);
            return;
          }
          const line = buf.toString('latin1', at, end);
          at = end + 2;
          if (this.state === 'trailers') {
            if (!line) this.state = 'done';
            break;
          }
          const size = line.split(';', 1)[0].trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw protocolError('invalid chunk size');
          this.remaining = parseInt(size, 16);
          this.state = this.remaining ? 'chunk-data' : 'trailers';
          break;
        }
      }
    }
  }

  /** An answer's head: its status (1xx skipped) and how its body is delimited. */
  private head(text: string): void {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]);
    if (!m) throw protocolError('invalid answer status line');
    const minor = Number(m[1]);
    const status = Number(m[2]);
    let length: number | null = null;
    let chunked = false;
    let close = minor === 0;
    let untilClose = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      const colon = line.indexOf(':');
      if (colon <= 0) throw protocolError('invalid answer header');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== null && length !== Number(value)))
          throw protocolError('invalid content-length');
        length = Number(value);
      } else if (name === 'transfer-encoding') {
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
        untilClose = !chunked; // another coding last: the body ends with the connection
      } else if (name === 'connection') {
        const tokens = value.toLowerCase();
        if (/(?:^|,)\s*close\s*(?:,|$)/.test(tokens)) close = true;
        else if (minor === 0 && /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(tokens)) close = false;
      }
    }
    if (status >= 100 && status < 200 && status !== 101) {
      this.state = 'head'; // an informational answer (100 Continue, 103 Early Hints): the real one follows
      return;
    }
    // 101 (switching protocols, never asked for): the answer, and the connection is not reused
    this.keepAlive = !close && status !== 101;
    if (status === 204 || status === 304) this.state = 'done';
    else if (chunked) this.state = 'chunk-size';
    else if (length !== null && !untilClose) {
      this.remaining = length;
      this.state = length ? 'length' : 'done';
    } else {
      this.state = 'until-close';
      this.keepAlive = false;
    }
    this.answered = true;
    this.done?.({ status }, false);
    // the body is skipped within drainMs, or the connection is closed
    if (this.state !== 'done') {
      this.drainTimer = setTimeout(() => this.socket.destroy(), this.drainMs);
      this.drainTimer.unref();
    }
  }
}

function protocolError(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`invalid HTTP answer: ${message}`), { code: 'EPROTO' });
}
