import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { DeliveryRepository } from './delivery.repository';
import { WebhookQueue } from './webhook-queue';

const BATCH = 500;
const RECONNECT_MS = 1_000;
/** Notifications this close together share one relay step (commits at 100/s: 2 to 3 per step). */
const COALESCE_MS = 5;
/** The channel the outbox trigger notifies on every insert (migration Webhooks1763800000000). */
export const EVENTS_CHANNEL = 'svc_events';

/**
 * The outbox relay: hands committed events to the delivery queue. Woken by NOTIFY at commit
 * (LISTEN on its own connection), and by a timer every SVC_JOB_INTERVAL_MS in case a
 * notification was missed. Each step claims a batch with FOR UPDATE SKIP LOCKED, creates the
 * deliveries and stamps the events in one transaction, then enqueues one job per delivery. If
 * the enqueue fails (Redis down), the rows are there and the sweeper enqueues them later.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('relay');
  private listener: Client | null = null;
  private timer: NodeJS.Timeout | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private soon: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: DeliveryRepository,
    private readonly queue: WebhookQueue,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
    this.timer = setInterval(() => this.kick(), this.config.jobIntervalMs);
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.reconnect);
    clearTimeout(this.soon);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    await this.running;
  }

  /** A commit was notified: run within a few milliseconds, together with the commits that follow. */
  private kickSoon(): void {
    if (this.soon || this.stopped) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.kick();
    }, COALESCE_MS);
  }

  /** Runs the relay now, or once more right after the run in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        while (!this.stopped && (await this.step()) === BATCH);
      } while (this.again && !this.stopped);
    } catch (err) {
      this.logger.warn(`relay step failed: ${(err as Error).message}`);
    }
  }

  /** One batch; returns how many events it claimed. */
  async step(): Promise<number> {
    const { claimed, deliveryIds } = await this.repo.dispatch(BATCH, this.clock.now());
    if (deliveryIds.length) {
      await this.queue.addNew(deliveryIds).catch((err: Error) => {
        this.logger.warn(`${deliveryIds.length} deliveries not enqueued (${err.message}); the sweeper will`);
      });
    }
    return claimed;
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.databaseUrl });
    const retry = (why: string) => {
      if (this.stopped || this.listener !== client) return;
      this.listener = null;
      this.logger.warn(`LISTEN ${EVENTS_CHANNEL} lost (${why}); polling until it is back`);
      client.end().catch(() => undefined);
      this.reconnect = setTimeout(() => void this.listen(), RECONNECT_MS);
    };
    client.on('notification', () => this.kickSoon());
    client.on('error', (err) => retry(err.message));
    client.on('end', () => retry('connection ended'));
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.kick(); // whatever was committed while not listening
    } catch (err) {
      retry((err as Error).message);
    }
  }
}
