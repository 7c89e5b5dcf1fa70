import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { API_KEY_REVOKED_CHANNEL } from '@svc/workspaces';

const RECONNECT_MS = 1_000;

/**
 * Tells the key guard when its cache may be trusted (money contract › Permissions: "a revoked
 * key answers 401 at once (no cache window)"). `apikey:revoke` notifies API_KEY_REVOKED_CHANNEL
 * in the revoking transaction; this process LISTENs on its own connection and evicts the key.
 * While that connection is down nothing is cached (every request reads the key), and when it
 * comes back the cache starts empty, so a notification missed meanwhile cannot leave a revoked key in it.
 */
@Injectable()
export class ApiKeyRevocations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('api-keys');
  private listener: Client | null = null;
  private listening = false;
  private reconnect: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Bumped by every revocation and reconnect: a lookup that began before it must not be cached. */
  private generation = 0;
  private readonly subscribers = new Set<(hash: string | null) => void>();

  constructor(@Inject(SVC_CONFIG) private readonly config: SvcConfig) {}

  /** Whether entries read now may be cached: true while LISTEN is up. */
  get cacheable(): boolean {
    return this.listening;
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
    const listener = this.listener;
    this.listener = null;
    this.listening = false;
    await listener?.end().catch(() => undefined);
  }

  private revoked(hash: string | null): void {
    this.generation++;
    for (const fn of this.subscribers) fn(hash);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.databaseUrl });
    const retry = (why: string) => {
      if (this.stopped || this.listener !== client) return;
      this.listener = null;
      this.listening = false;
      this.revoked(null);
      this.logger.warn(
        `LISTEN ${API_KEY_REVOKED_CHANNEL} lost (${why}); keys are read on every request until it is back`,
      );
      client.end().catch(() => undefined);
      this.reconnect = setTimeout(() => void this.listen(), RECONNECT_MS);
    };
    client.on('notification', (n) => this.revoked(n.payload || null)); // no payload: forget every key
    client.on('error', (err) => retry(err.message));
    client.on('end', () => retry('connection ended'));
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
      this.revoked(null); // whatever was cached before this connection cannot be vouched for
      this.listening = true;
    } catch (err) {
      retry((err as Error).message);
    }
  }
}
