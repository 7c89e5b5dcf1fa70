// The delivery queue (house style 10): names are constants, the job data type sits here, and the
// job id is the delivery id, so a delivery has at most one job in Redis whoever enqueues it (the
// relay, a retry, the sweeper, a redelivery). Bull is a wake-up mechanism only: the delivery row
// in PostgreSQL says what is due, so losing Redis loses nothing.
import Bull, { AdvancedSettings, JobOptions, Queue, QueueOptions } from 'bull';

export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const DELIVER_JOB = 'deliver';

export interface DeliveryJobData {
  deliveryId: string;
}

/**
 * Thrown by the processor to run the same job again later without consuming a retry slot of
 * the delivery (not due yet, endpoint saturated) or after recording a failed attempt (the next
 * slot of the schedule). Bull moves the job to `delayed` under the same id.
 */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
    this.stack = undefined; // kept in the job hash by Bull: nothing to learn from it
  }
}

const RETRY_LATER = 'svc-retry-later';
/** An unexpected error (database down…): try the job again after this long. */
const ERROR_RETRY_MS = 5_000;

/**
 * Job locks: an attempt runs at most `timeoutMs`, the lock is renewed while it runs, and a
 * worker that dies mid-delivery leaves the job to be taken again once its lock lapses.
 */
export function webhookQueueSettings(timeoutMs: number): AdvancedSettings {
  const lockDuration = timeoutMs + 2_000;
  return {
    lockDuration,
    lockRenewTime: Math.floor(lockDuration / 3),
    stalledInterval: Math.floor(lockDuration / 2),
    maxStalledCount: 5,
    backoffStrategies: {
      [RETRY_LATER]: (_attempts: number, err: Error) =>
        err instanceof RetryLater ? Math.max(1, Math.round(err.delayMs)) : ERROR_RETRY_MS,
    },
  };
}

/** Queue keys are prefixed with the database name: two deployments sharing a Redis never mix jobs. */
export function webhookQueuePrefix(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
  return `svc:${name}`;
}

export function deliveryJobOptions(deliveryId: string, delayMs = 0): JobOptions {
  return {
    jobId: deliveryId,
    delay: delayMs > 0 ? Math.ceil(delayMs) : undefined,
    attempts: Number.MAX_SAFE_INTEGER,
    backoff: { type: RETRY_LATER },
    removeOnComplete: true,
    removeOnFail: true,
    stackTraceLimit: 1,
  };
}

export type EnsureResult = 'added' | 'promoted' | 'present';

/**
 * Makes sure the delivery has a job: adds one when Redis has none (flushed, crashed between
 * commit and enqueue), promotes a delayed one that is due now (redelivery, dev clock), leaves a
 * waiting or running one alone. Cheap on a long queue: a hash read and a sorted-set lookup, never
 * a scan of the wait list (Bull's getState would do one).
 */
export async function ensureDeliveryJob(
  queue: Queue<DeliveryJobData>,
  deliveryId: string,
  delayMs = 0,
): Promise<EnsureResult> {
  const job = await queue.getJob(deliveryId);
  if (job && !job.finishedOn) {
    if (delayMs > 0 || !(await job.isDelayed())) return 'present';
    await job.promote().catch(() => undefined); // it may have just started
    return 'promoted';
  }
  if (job) await job.remove().catch(() => undefined); // finished for good (a job kept after failing)
  await queue.add(DELIVER_JOB, { deliveryId }, deliveryJobOptions(deliveryId, delayMs));
  return 'added';
}

export interface WebhookQueueConfig {
  redisUrl: string;
  databaseUrl: string;
  timeoutMs: number;
}

/**
 * The queue's options beside the Redis URL, the same for the worker (BullModule.registerQueueAsync,
 * producer and consumer) and the API (createWebhookQueue, producer only): same keys, same locks.
 */
export function webhookQueueOptions(opts: Omit<WebhookQueueConfig, 'redisUrl'>): QueueOptions {
  return { prefix: webhookQueuePrefix(opts.databaseUrl), settings: webhookQueueSettings(opts.timeoutMs) };
}

/** The queue as the API opens it, on first use. */
export function createWebhookQueue(opts: WebhookQueueConfig): Queue<DeliveryJobData> {
  return new Bull<DeliveryJobData>(WEBHOOK_QUEUE, opts.redisUrl, webhookQueueOptions(opts));
}
