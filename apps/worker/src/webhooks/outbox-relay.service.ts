import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { PgListener } from '@svc/runtime';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryService } from './delivery.service';
import { WebhookQueue } from './webhook-queue';
import { DEFAULT_CONCURRENCY, WORKER_OPTIONS, WorkerOptions } from './worker-options';

const BATCH = 500;
/** Notifications this close together share one relay step (commits at 100/s: 2 to 3 per step). */
const COALESCE_MS = 5;
/** The channel the outbox trigger notifies on every insert (migration Webhooks1763800000000). */
export const EVENTS_CHANNEL = 'svc_events';

/**
 * The outbox relay: turns committed events into deliveries and attempts them. Woken by NOTIFY at
 * commit (LISTEN on its own connection), and by a timer every SVC_JOB_INTERVAL_MS in case a
 * notification was missed. Each step claims a batch with FOR UPDATE SKIP LOCKED, creates the
 * deliveries and stamps the events in one statement (one commit), which also returns what each
 * first attempt needs; the relay then attempts them at once in this process's delivery slots
 * (DeliveryService.attemptClaimed), without a job in Redis. Only what waits for later (the next
 * slot of the retry schedule, a struggling endpoint's turn) becomes a delayed job. A crash
 * mid-attempt leaves the delivery pending in PostgreSQL, where the sweeper finds it.
 * Backpressure: the relay holds at most eight times the slots' worth of deliveries in hand, so a
 * burst waits in the outbox, not in memory; it claims again as soon as there is room for a batch
 * of twice the slots, while the six times the slots still in hand keep the slots busy during the
 * claim's round trip (claim and attempts overlap: the claim's statement takes tens of ms under a
 * burst, which the old bound of four times, claimed again at half, could not cover).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('relay');
  private readonly listener: PgListener;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private soon: NodeJS.Timeout | undefined;
  /**
   * First attempts started by the relay and not finished yet: a count (a Set of up to 512
   * promises grew and shrank its table with every batch, tables a scavenge had to copy).
   */
  private inHand = 0;
  /** Resolves onModuleDestroy's wait once no first attempt is in hand. */
  private drainWaiter: (() => void) | null = null;
  private readonly highWater: number;
  /** The relay claims again once no more than this many deliveries are in hand. */
  private readonly lowWater: number;
  private roomWaiter: (() => void) | null = null;
  /** What a first attempt calls to go back to the queue: one function for them all, not one per delivery. */
  private readonly requeue = (id: string, delayMs: number): Promise<unknown> => this.queue.requeue(id, delayMs);
  /** A first attempt has finished (attemptClaimed never rejects): one function for them all. */
  private readonly finished = (): void => {
    this.inHand--;
    if (this.roomWaiter && this.inHand <= this.lowWater) this.roomWaiter();
    if (this.inHand === 0) this.drainWaiter?.();
  };

  constructor(
    private readonly repo: DeliveryRepository,
    private readonly deliveries: DeliveryService,
    private readonly queue: WebhookQueue,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    @Inject(WORKER_OPTIONS) options: WorkerOptions,
  ) {
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.highWater = 8 * concurrency;
    this.lowWater = this.highWater - 2 * concurrency;
    this.listener = new PgListener({
      databaseUrl: config.databaseUrl,
      channel: EVENTS_CHANNEL,
      onNotify: () => this.kickSoon(),
      onListening: () => this.kick(), // whatever was committed while not listening
      onLost: (why) => this.logger.warn(`LISTEN ${EVENTS_CHANNEL} lost (${why}); polling until it is back`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listener.start();
    this.timer = setInterval(() => this.kick(), this.config.jobIntervalMs);
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    // the deliveries in hand whose attempt has not started stay pending in PostgreSQL (DeliveryService.stop)
    this.deliveries.stop();
    clearInterval(this.timer);
    clearTimeout(this.soon);
    await this.listener.stop();
    this.roomWaiter?.();
    await this.running;
    // attempts in flight finish and are recorded while the database and the queue are still open
    if (this.inHand > 0) await new Promise<void>((resolve) => (this.drainWaiter = resolve));
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
        for (;;) {
          await this.room();
          if (this.stopped) break;
          const limit = Math.min(BATCH, this.highWater - this.inHand);
          if ((await this.step(limit)) < limit) break;
        }
      } while (this.again && !this.stopped);
    } catch (err) {
      this.logger.warn(`relay step failed: ${(err as Error).message}`);
    }
  }

  /** One batch; returns how many events it claimed. Their deliveries' first attempts start at once. */
  async step(limit = BATCH): Promise<number> {
    const { claimed, deliveries } = await this.repo.dispatch(limit, this.clock.now());
    for (const d of deliveries) {
      this.inHand++;
      void this.deliveries.attemptClaimed(d, this.requeue).then(this.finished, this.finished);
    }
    return claimed;
  }

  /** Resolves once there is room for a batch (at most lowWater first attempts in hand), or at stop. */
  private room(): Promise<void> {
    if (this.inHand <= this.lowWater || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.roomWaiter = () => {
        this.roomWaiter = null;
        resolve();
      };
    });
  }
}
