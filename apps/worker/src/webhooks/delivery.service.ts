import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleDestroy, Optional } from '@nestjs/common';
import type { Counter } from 'prom-client';
import {
  afterAttempt,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  envelopeBytes,
  privateAllowList,
  RetryLater,
  signTimestampedWebhook,
  signWebhookBody,
} from '@svc/webhooks';
import { dataKeyOf, openSecret, SecretBoxError } from '@svc/config';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { Metrics } from '@svc/runtime';
import { DeliveryForAttempt, DeliveryRepository } from './delivery.repository';
import { EndpointGate, GateSlot } from './endpoint-gate';
import { Slots } from './slots';
import { WebhookSender } from './webhook-sender';
import { DEFAULT_CONCURRENCY, WORKER_OPTIONS, WorkerOptions } from './worker-options';

/** A job may run this much ahead of its delivery's nextAttemptAt (timer skew) and still attempt. */
const EARLY_TOLERANCE_MS = 250;
/** Slots a struggling (failing or slow) endpoint may hold in one worker. */
const STRUGGLING_ENDPOINT_SLOTS = 4;
const USER_AGENT = 'svc-webhooks/1';
/** A delivery whose endpoint secret does not open (SVC_DATA_KEY changed) waits this long, pending. */
const SEALED_SECRET_RETRY_MS = 60_000;
/** Opened endpoint secrets kept in memory (cleared when full). */
const OPENED_SECRETS_KEPT = 1_000;
/** An unexpected error (database down…) in a relayed delivery's first attempt: its job comes after this long. */
const ERROR_RETRY_MS = 5_000;

/**
 * One attempt of one delivery (architecture › Events and webhooks): sign the exact body, POST it,
 * record the attempt, and either finish the delivery or hand the job back to Bull for the next
 * slot of the retry schedule (RetryLater: same job id, delayed). Everything it decides is read
 * from and written to PostgreSQL first.
 */
@Injectable()
export class DeliveryService implements OnModuleDestroy, OnApplicationShutdown {
  private readonly sender: WebhookSender;
  private readonly gate: EndpointGate;
  readonly schedule: readonly number[];
  private readonly dataKey: Buffer;
  /** HTTP attempts at once in this process (WorkerOptions.concurrency), from the queue's jobs and the relay together. */
  private readonly slots: Slots;
  private readonly inHand = new Set<string>();
  /** Endpoint secrets opened, by sealed value (`open`). */
  private readonly opened = new Map<string, OpenedSecret>();
  private readonly logger = new Logger('webhooks');
  /** Set at stop: no attempt starts any more. */
  private stopping = false;
  /** Deliveries whose attempt had not started at stop, left pending in PostgreSQL. */
  private leftPending = 0;
  /** svc_webhook_deliveries_total{outcome}: each attempt's result (docs/operations.md › Metrics). */
  private readonly attempts: Counter<'outcome'> | null;

  constructor(
    private readonly repo: DeliveryRepository,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) config: SvcConfig,
    @Inject(WORKER_OPTIONS) options: WorkerOptions,
    @Optional() metrics?: Metrics,
  ) {
    this.attempts =
      metrics?.counter(
        'svc_webhook_deliveries_total',
        'Webhook attempts by outcome: succeeded, retry (will be tried again) or failed (given up)',
        ['outcome'],
      ) ?? null;
    this.sender = new WebhookSender({
      timeoutMs: config.webhookTimeoutMs,
      production: config.env === 'production',
      allowPrivate: privateAllowList(config.webhookAllowPrivate),
    });
    this.slots = new Slots(options.concurrency ?? DEFAULT_CONCURRENCY);
    this.gate = new EndpointGate({
      perEndpoint: Math.max(1, Math.ceil((options.concurrency ?? DEFAULT_CONCURRENCY) / 2)),
      strugglingSlots: STRUGGLING_ENDPOINT_SLOTS,
      slowMs: Math.min(2_000, Math.floor(config.webhookTimeoutMs / 2)),
    });
    this.schedule = config.webhookRetryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS;
    this.dataKey = dataKeyOf(config);
  }

  /**
   * Stop (SIGTERM, first of the shutdown hooks; the relay calls it too): no attempt starts any more.
   * The deliveries waiting for a slot or their endpoint's turn leave without an attempt and stay
   * pending in PostgreSQL, due, where the sweeper of this or another worker finds them (at least
   * once); the attempts in flight finish and are recorded.
   */
  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.slots.close();
    this.gate.stop();
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** After the queue has closed (beforeApplicationShutdown): attempts in flight have finished. */
  async onApplicationShutdown(): Promise<void> {
    if (this.leftPending)
      this.logger.log(`stopped: ${this.leftPending} deliveries not attempted, left pending for the sweeper`);
    await this.sender.close();
  }

  /**
   * A delivery's job came up (a retry, a struggling endpoint's turn, the sweeper, a redelivery
   * from the API): read it and attempt it.
   */
  async attempt(deliveryId: string): Promise<void> {
    const d = await this.repo.loadForAttempt(deliveryId);
    // Gone with its endpoint, already finished, or a stale duplicate job: nothing to do.
    if (!d || d.status !== 'pending') return;
    await this.attemptLoaded(d);
  }

  /**
   * A delivery the relay has just created and read (DeliveryRepository.dispatch): its first
   * attempt now, with no job in Redis and no second read. Whatever would have sent a job back to
   * the queue (a failed attempt's next slot, a struggling endpoint) adds a delayed job for it
   * instead; if even that fails (Redis down), the delivery is still pending in PostgreSQL and the
   * sweeper finds it. Never rejects. While it runs the delivery is `inHand`, so this process's
   * sweeper does not give it a job as well.
   */
  async attemptClaimed(
    d: DeliveryForAttempt,
    requeue: (id: string, delayMs: number) => Promise<unknown>,
  ): Promise<void> {
    this.inHand.add(d.id);
    try {
      await this.attemptLoaded(d);
    } catch (err) {
      const delayMs = err instanceof RetryLater ? err.delayMs : ERROR_RETRY_MS;
      if (!(err instanceof RetryLater)) this.logger.warn(`delivery ${d.id}: ${(err as Error).message}`);
      await requeue(d.id, delayMs).catch((e: Error) =>
        this.logger.warn(`delivery ${d.id}: no job (${e.message}); the sweeper will find it`),
      );
    } finally {
      this.inHand.delete(d.id);
    }
  }

  /** Deliveries this process is attempting from the relay (they have no job to be seen in Redis). */
  isInHand(id: string): boolean {
    return this.inHand.has(id);
  }

  private async attemptLoaded(d: DeliveryForAttempt): Promise<void> {
    const now = this.clock.now();
    const dueIn = (d.next_attempt_at?.getTime() ?? 0) - now.getTime();
    if (dueIn > EARLY_TOLERANCE_MS) throw new RetryLater(dueIn, 'not due yet');
    if (!d.test && !d.enabled) return this.repo.abandon(d.id, 'endpoint disabled', now);
    if (!hasBody(d)) return this.repo.abandon(d.id, 'event not found', now);
    const secrets = this.secretsOf(d, now);

    // A delivery slot, then the endpoint's gate, for the HTTP attempt only: the record that follows
    // waits for its batch's commit without holding either.
    if (!(await this.slots.acquire())) return this.notStarted();
    let slot: GateSlot | null = null;
    const attempt = d.attempt_count + 1;
    let attemptedAt = now;
    let result = { ok: false, status: null as number | null, durationMs: 0, error: 'not sent' as string | null };
    try {
      slot = await this.gate.acquire(d.endpoint_id);
      if (this.stopping) {
        if (slot) result = { ...result, ok: true }; // released as it was taken: the endpoint is not judged by it
        return this.notStarted();
      }
      if (!slot) throw new RetryLater(1_000 + Math.random() * 1_000, 'endpoint struggling');
      attemptedAt = this.clock.now();
      // the body's bytes, made once the attempt starts (not by the deliveries waiting for a slot):
      // both signatures and the request use them as they are
      const raw = bodyOf(d);
      result = await this.sender.send(d.url, raw, {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        // spec: Authentication 4, kept exactly, with the current secret
        'x-svc-signature': signWebhookBody(raw, secrets[0]),
        // issue 21 › 5: t=<unix seconds on the service clock>,v1=<current>[,v1=<previous, for 24 h after a rotation>]
        'svc-signature': signTimestampedWebhook(raw, secrets, Math.floor(attemptedAt.getTime() / 1000)),
        'x-svc-event-id': d.event_id,
        'x-svc-event-type': d.event_type,
        'x-svc-attempt': String(attempt),
        'x-svc-delivery-id': d.id,
      });
    } finally {
      if (slot) this.gate.release(slot, result.ok, result.durationMs);
      this.slots.release();
    }

    const at = this.clock.now();
    const outcome = afterAttempt({
      ok: result.ok,
      runAttempts: d.run_attempts + 1,
      test: d.test,
      schedule: this.schedule,
      at,
    });
    const moved = await this.repo.recordAttempt({
      deliveryId: d.id,
      attempt,
      runAttempts: d.run_attempts + 1,
      status: outcome.status,
      nextAttemptAt: outcome.nextAttemptAt,
      attemptedAt,
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error,
      at,
    });
    if (moved) this.attempts?.inc({ outcome: outcome.status === 'pending' ? 'retry' : outcome.status });
    if (moved && outcome.status === 'pending') {
      throw new RetryLater(
        outcome.nextAttemptAt.getTime() - at.getTime(),
        `attempt ${attempt} failed; next at ${outcome.nextAttemptAt.toISOString()}`,
      );
    }
  }

  /** Stopping before the attempt started: nothing sent, nothing recorded; the delivery is still pending and due. */
  private notStarted(): void {
    this.leftPending++;
  }

  /**
   * The secrets that sign: the current one first, then the previous one while its overlap lasts.
   * The current one alone (no rotation in its overlap) is the same array every time.
   */
  private secretsOf(d: DeliveryForAttempt, now: Date): readonly string[] {
    try {
      const current = this.open(d.secret_sealed, d.endpoint_id);
      if (d.previous_secret_sealed && d.previous_secret_expires_at && d.previous_secret_expires_at > now)
        return [current.secret, this.open(d.previous_secret_sealed, d.endpoint_id).secret];
      return current.alone;
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      // never send unsigned or wrongly signed: the delivery stays pending until the key is right
      throw new RetryLater(SEALED_SECRET_RETRY_MS, err.message);
    }
  }

  /**
   * A sealed secret of an endpoint, opened once per process while it is the one stored (a
   * rotation stores a new sealed value, so it is opened anew); a failure to open is never kept.
   * Kept by the sealed value, with the endpoint it was opened for (its context): a lookup makes no
   * string of its own.
   */
  private open(sealed: string, endpointId: string): OpenedSecret {
    let opened = this.opened.get(sealed);
    if (opened === undefined || opened.endpointId !== endpointId) {
      const secret = openSecret(this.dataKey, sealed, `webhook_endpoint:${endpointId}`);
      opened = { endpointId, secret, alone: [secret] };
      if (this.opened.size >= OPENED_SECRETS_KEPT) this.opened.clear();
      this.opened.set(sealed, opened);
    }
    return opened;
  }
}

interface OpenedSecret {
  endpointId: string;
  secret: string;
  /** `[secret]`, made once */
  alone: readonly string[];
}

/** Whether there is a body to send: a test send's stored envelope, or the event (not deleted). */
function hasBody(d: DeliveryForAttempt): boolean {
  return d.test ? d.payload !== null : d.event_data !== null && d.event_created_at !== null;
}

/** The exact bytes every attempt sends (`hasBody` first): a test send's stored envelope, or the event's. */
function bodyOf(d: DeliveryForAttempt): Buffer {
  if (d.test) return Buffer.from(d.payload as string, 'utf8');
  return envelopeBytes(d.event_id, d.event_type, d.event_created_at as Date, d.event_data as string);
}
