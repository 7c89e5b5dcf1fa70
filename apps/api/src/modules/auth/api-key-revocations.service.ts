import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { LoggedRequest, RequestLogger } from '@svc/runtime';
import { API_KEY_REVOKED_CHANNEL } from '@svc/workspaces';

const RECONNECT_MS = 1_000;
/** TCP keepalive on the LISTEN socket, and a query on it this often: a silent drop is found within seconds. */
const KEEPALIVE_MS = 5_000;
/** A heartbeat that has not answered in this long means the connection is gone. */
const HEARTBEAT_TIMEOUT_MS = 3_000;
/** The cache is trusted only while a heartbeat answered this recently. */
const TRUST_MS = KEEPALIVE_MS + HEARTBEAT_TIMEOUT_MS;

/**
 * LISTEN connections of this process. A request's round trip runs on whichever is free, so a
 * request waits for about one trip (not the rest of the trip in flight and then one more), and a
 * backend that stalls holds only the requests of its own trip.
 */
export const REVOCATION_LISTENERS = 2;

/** One LISTEN connection and its state. */
interface Listener {
  client: Client | null;
  listening: boolean;
  /** When the connection last proved alive (LISTEN answered, or a heartbeat did). */
  aliveAt: number;
  /** The request round trip in flight on it. */
  trip: Promise<boolean> | null;
  heartbeat: NodeJS.Timeout | undefined;
  reconnect: NodeJS.Timeout | undefined;
  drop: ((why: string, req?: LoggedRequest) => void) | null;
}

/**
 * Tells the key guard when its cache may be trusted (a revoked key answers 401 at once, with no
 * cache window). `apikey:revoke` notifies API_KEY_REVOKED_CHANNEL in the revoking transaction; this
 * process LISTENs on connections of its own (REVOCATION_LISTENERS) and evicts the key on the first
 * notification. While no connection listens nothing is cached (every request reads the key), and
 * whenever one comes back the cache starts empty, so a notification missed meanwhile cannot leave
 * a revoked key in it. A connection can also die silently (a NAT or a failover drops it without a
 * FIN): TCP keepalive and a heartbeat query every 5 s find that out, and the cache is trusted only
 * while a connection's last heartbeat answered within 8 s (issue 21 › 9).
 */
@Injectable()
export class ApiKeyRevocations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new RequestLogger('api-keys');
  private readonly listeners: Listener[] = Array.from({ length: REVOCATION_LISTENERS }, () => ({
    client: null,
    listening: false,
    aliveAt: 0,
    trip: null,
    heartbeat: undefined,
    reconnect: undefined,
    drop: null,
  }));
  /** The requests that came while every listening connection had a trip out: they share the next trip to start. */
  private next: { answer: Promise<boolean>; start: (trip: Promise<boolean>) => void; req?: LoggedRequest } | null =
    null;
  private stopped = false;
  /** Bumped by every revocation and reconnect: a lookup that began before it must not be cached. */
  private generation = 0;
  private readonly subscribers = new Set<(hash: string | null) => void>();

  constructor(@Inject(SVC_CONFIG) private readonly config: SvcConfig) {}

  /** Whether entries read now may be cached, and cached ones trusted: while a connection listens and answered lately. */
  get cacheable(): boolean {
    const now = Date.now();
    return this.listeners.some((l) => l.listening && now - l.aliveAt < TRUST_MS);
  }

  /**
   * True once every revocation committed before this call has been handled; false when no
   * connection listens or the trip's connection does not answer (then the caller reads the key).
   * A NOTIFY reaches this process asynchronously, so a request right after a revoking commit (or
   * right after a LISTEN backend was killed) could otherwise be served from the cache: one round
   * trip on a listening connection, started after this call, closes that window, because
   * PostgreSQL sends a session its pending notifications before it answers a query, and the socket
   * delivers them in order. The trip runs on a free connection; when none is free, the calls share
   * the next trip to start, on the first connection that frees. A round trip that loses its
   * connection logs it with the `req` of the request that started the trip.
   */
  confirm(req?: LoggedRequest): Promise<boolean> {
    if (!this.listeners.some((l) => l.listening)) return Promise.resolve(false);
    if (this.next) return this.next.answer;
    const free = this.listeners.find((l) => l.listening && !l.trip);
    if (free) return this.startRoundTrip(free, req);
    let start!: (trip: Promise<boolean>) => void;
    const answer = new Promise<boolean>((resolve) => (start = resolve));
    this.next = { answer, start, req };
    return answer;
  }

  private startRoundTrip(listener: Listener, req: LoggedRequest | undefined): Promise<boolean> {
    const trip = this.roundTrip(listener, req).finally(() => {
      if (listener.trip === trip) listener.trip = null;
      this.startNext();
    });
    listener.trip = trip;
    return trip;
  }

  /** Starts the shared next trip on a free listening connection; answers false when none listens any more. */
  private startNext(): void {
    const next = this.next;
    if (!next) return;
    const free = this.listeners.find((l) => l.listening && !l.trip);
    if (free) {
      this.next = null;
      next.start(this.startRoundTrip(free, next.req));
    } else if (!this.listeners.some((l) => l.listening)) {
      this.next = null;
      next.start(Promise.resolve(false));
    }
  }

  private async roundTrip(listener: Listener, req: LoggedRequest | undefined): Promise<boolean> {
    const client = listener.client;
    if (!client || !listener.listening) return false;
    const ok = await this.beat(listener, client, req);
    return ok && listener.listening && listener.client === client;
  }

  get epoch(): number {
    return this.generation;
  }

  /** `hash` is a revoked key's hash; null means "forget everything" (a listener reconnected). */
  onRevoked(fn: (hash: string | null) => void): void {
    this.subscribers.add(fn);
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all(this.listeners.map((l) => this.listen(l)));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await Promise.all(
      this.listeners.map(async (l) => {
        clearTimeout(l.reconnect);
        clearInterval(l.heartbeat);
        const client = l.client;
        l.client = null;
        l.listening = false;
        await client?.end().catch(() => undefined);
      }),
    );
    this.startNext();
  }

  /** One query on a LISTEN connection; no answer within HEARTBEAT_TIMEOUT_MS drops it (and reconnects). */
  private async beat(listener: Listener, client: Client, req?: LoggedRequest): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no heartbeat answer in ${HEARTBEAT_TIMEOUT_MS} ms`)),
        HEARTBEAT_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([client.query('SELECT 1'), timeout]);
      if (listener.client === client) listener.aliveAt = Date.now();
      return true;
    } catch (err) {
      if (listener.client === client) listener.drop?.((err as Error).message, req);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private revoked(hash: string | null): void {
    this.generation++;
    for (const fn of this.subscribers) fn(hash);
  }

  private async listen(listener: Listener): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.config.databaseUrl,
      application_name: 'svc-api-key-revocations',
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_MS,
    });
    const retry = (why: string, req?: LoggedRequest) => {
      if (this.stopped || listener.client !== client) return;
      listener.client = null;
      listener.listening = false;
      clearInterval(listener.heartbeat);
      this.revoked(null);
      this.logger
        .during(req)
        .warn(`LISTEN ${API_KEY_REVOKED_CHANNEL} lost (${why}); keys are read on every request until it is back`);
      client.end().catch(() => undefined);
      listener.reconnect = setTimeout(() => void this.listen(listener), RECONNECT_MS);
      this.startNext();
    };
    listener.drop = retry;
    client.on('notification', (n) => this.revoked(n.payload || null)); // no payload: forget every key
    client.on('error', (err) => retry(err.message));
    client.on('end', () => retry('connection ended'));
    listener.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
      this.revoked(null); // whatever was cached before this connection cannot be vouched for
      listener.aliveAt = Date.now();
      listener.listening = true;
      clearInterval(listener.heartbeat);
      listener.heartbeat = setInterval(() => void this.beat(listener, client), KEEPALIVE_MS);
      listener.heartbeat.unref();
      this.startNext();
    } catch (err) {
      retry((err as Error).message);
    }
  }
}
