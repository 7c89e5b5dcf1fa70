// The worker's gauges (docs/operations.md › Metrics), read at scrape time: the Bull queue's depth
// (jobs only: a first attempt runs in the relay without one) and the age of the oldest delivery
// still pending in PostgreSQL (the truth the queue follows).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService } from '@svc/core';
import { Metrics } from '@svc/runtime';
import { WebhookQueue } from './webhook-queue';

@Injectable()
export class WorkerMetrics {
  constructor(metrics: Metrics, queue: WebhookQueue, db: DataSource, clock: ClockService) {
    metrics.gauge(
      'svc_webhook_queue_depth',
      'Delivery jobs waiting, delayed or active (retries, sweeps, redeliveries; a first attempt has none)',
      ['state'],
      async (g) => {
        const counts = await queue.queue.getJobCounts();
        g.reset();
        for (const state of ['waiting', 'delayed', 'active'] as const) g.set({ state }, counts[state] ?? 0);
      },
    );
    metrics.gauge(
      'svc_webhook_oldest_pending_age_seconds',
      'Age of the oldest delivery not yet succeeded or given up (0 when none)',
      [],
      async (g) => {
        const [row]: Array<{ oldest: Date | null }> = await db.query(
          `SELECT min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'`,
        );
        const oldest = row?.oldest ? new Date(row.oldest).getTime() : null;
        g.set(oldest === null ? 0 : Math.max(0, (clock.now().getTime() - oldest) / 1000));
      },
    );
  }
}
