// LISTEN on a PostgreSQL channel over a connection of its own (not one borrowed from the pool),
// reconnecting after a drop: a missed notification is only a delay, since every user also runs
// on a timer, but a listener that dies silently would turn every wake-up into a wait for it.
import { Client } from 'pg';

const RECONNECT_MS = 1_000;

export interface PgListenerOptions {
  databaseUrl: string;
  channel: string;
  /** a notification arrived (its payload, if any) */
  onNotify(payload: string | undefined): void;
  /** after every (re)connect: act on whatever was committed while not listening */
  onListening?(): void;
  /** the connection was lost or refused; it is tried again after `reconnectMs` */
  onLost(why: string): void;
  reconnectMs?: number;
}

export class PgListener {
  private client: Client | null = null;
  private reconnect: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: PgListenerOptions) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const { channel } = this.options;
    const client = new Client({ connectionString: this.options.databaseUrl });
    const retry = (why: string) => {
      if (this.stopped || this.client !== client) return;
      this.client = null;
      this.options.onLost(why);
      client.end().catch(() => undefined);
      this.reconnect = setTimeout(() => void this.start(), this.options.reconnectMs ?? RECONNECT_MS);
    };
    client.on('notification', (n) => this.options.onNotify(n.payload));
    client.on('error', (err) => retry(err.message));
    client.on('end', () => retry('connection ended'));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      this.options.onListening?.();
    } catch (err) {
      retry((err as Error).message);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
