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
 * Tells the key guard when its cache may be trusted (money contract › Permissions: "a revoked
 * key answers 401 at once (no cache window)"). `apikey:revoke` notifies API_KEY_REVOKED_CHANNEL
 * in the revoking transaction; this process LISTENs on its own connection and evicts the key.
 * While that connection is down nothing is cached (every request reads the key), and when it
 * comes back the cache starts empty, so a notification missed meanwhile cannot leave a revoked key in it.
 * A connection can also die silently (a NAT or a failover drops it without a FIN): TCP keepalive
 * and a heartbeat query every 5 s find that out, and the cache is trusted only while the last
 * heartbeat answered within 8 s (issue 21 › 9).
 */
@Injectable()
export class ApiKeyRevocations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new RequestLogger('api-keys');
  private listener: Client | null = null;
  private listening = false;
  private reconnect: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private drop: ((why: string, req?: LoggedRequest) => void) | null = null;
  private inFlight: Promise<boolean> | null = null;
  private queued: Promise<boolean> | null = null;
  /** When the LISTEN connection last proved alive (LISTEN answered, or a heartbeat did). */
  private aliveAt = 0;
  private stopped = false;
  /** Bumped by every revocation and reconnect: a lookup that began before it must not be cached. */
  private generation = 0;
  private readonly subscribers = new Set<(hash: string | null) => void>();

  constructor(@Inject(SVC_CONFIG) private readonly config: SvcConfig) {}

  /** Whether entries read now may be cached, and cached ones trusted: while LISTEN is up and answered lately. */
  get cacheable(): boolean {
    return this.listening && Date.now() - this.aliveAt < TRUST_MS;
  }

  /**
   * True once every revocation committed before this call has been handled; false when the LISTEN
   * connection is down or does not answer (then the caller reads the key). A NOTIFY reaches this
   * process asynchronously, so a request right after a revoking commit (or right after the LISTEN
   * backend was killed) could otherwise be served from the cache: one round trip on the LISTEN
   * connection closes that window, because PostgreSQL sends a session its pending notifications
   * before it answers a query, and the socket delivers them in order. Calls share round trips: all
   * that arrive while one is in flight wait for the next one, which starts after them. A round
   * trip that loses the connection logs it with the `req` of the request that started the trip.
   */
  confirm(req?: LoggedRequest): Promise<boolean> {
    if (!this.listening) return Promise.resolve(false);
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.startRoundTrip(req);
    this.queued = this.inFlight.then(() => {
      this.queued = null;
      return this.startRoundTrip(req);
    });
    return this.queued;
  }

  private startRoundTrip(req: LoggedRequest | undefined): Promise<boolean> {
    const trip = this.roundTrip(req).finally(() => {
      if (this.inFlight === trip) this.inFlight = null;
    });
    this.inFlight = trip;
    return trip;
  }

  private async roundTrip(req: LoggedRequest | undefined): Promise<boolean> {
    const client = this.listener;
    if (!client || !this.listening) return false;
    const ok = await this.beat(client, req);
    return ok && this.listening && this.listener === client;
  }

  get epoch(): number {
    return this.generation;
  }

  /** `hash` is a revoked key's hash; null means "forget everything" (the listener reconnected). */
  onRevoked(fn: (hash: string | null) => void): void {
    this.subscribers.add(fn);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    clearInterval(this.heartbeat);
    const listener = this.listener;
    this.listener = null;
    this.listening = false;
    await listener?.end().catch(() => undefined);
  }

  /** One query on the LISTEN connection; no answer within HEARTBEAT_TIMEOUT_MS drops it (and reconnects). */
  private async beat(client: Client, req?: LoggedRequest): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no heartbeat answer in ${HEARTBEAT_TIMEOUT_MS} ms`)),
        HEARTBEAT_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([client.query('SELECT 1'), timeout]);
      if (this.listener === client) this.aliveAt = Date.now();
      return true;
    } catch (err) {
      if (this.listener === client) this.drop?.((err as Error).message, req);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private revoked(hash: string | null): void {
    this.generation++;
    for (const fn of this.subscribers) fn(hash);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.config.databaseUrl,
      application_name: 'svc-api-key-revocations',
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_MS,
    });
    const retry = (why: string, req?: LoggedRequest) => {
      if (this.stopped || this.listener !== client) return;
      this.listener = null;
      this.listening = false;
      clearInterval(this.heartbeat);
      this.revoked(null);
      this.logger
        .during(req)
        .warn(`LISTEN ${API_KEY_REVOKED_CHANNEL} lost (${why}); keys are read on every request until it is back`);
      client.end().catch(() => undefined);
      this.reconnect = setTimeout(() => void this.listen(), RECONNECT_MS);
    };
    this.drop = retry;
    client.on('notification', (n) => this.revoked(n.payload || null)); // no payload: forget every key
    client.on('error', (err) => retry(err.message));
    client.on('end', () => retry('connection ended'));
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
      this.revoked(null); // whatever was cached before this connection cannot be vouched for
      this.aliveAt = Date.now();
      this.listening = true;
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => void this.beat(client), KEEPALIVE_MS);
      this.heartbeat.unref();
    } catch (err) {
      retry((err as Error).message);
    }
  }
}
