// The payout process's gauges (docs/operations.md › Metrics), read from PostgreSQL at scrape time:
// payouts (sweeps) and refunds by state, so an operator sees money waiting (held, awaiting_funds).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Metrics } from '@svc/runtime';

@Injectable()
export class PayoutsMetrics {
  constructor(metrics: Metrics, db: DataSource) {
    metrics.gauge('svc_payouts_by_state', 'Payouts (sweeps) by payout state', ['state'], async (g) => {
      const rows: Array<{ state: string; n: number }> = await db.query(
        `SELECT payout_state AS state, count(*)::int AS n FROM sweeps GROUP BY payout_state`,
      );
      g.reset();
      for (const r of rows) g.set({ state: r.state }, r.n);
    });
    metrics.gauge('svc_refunds_by_state', 'Refunds by status', ['state'], async (g) => {
      const rows: Array<{ state: string; n: number }> = await db.query(
        `SELECT status AS state, count(*)::int AS n FROM refunds GROUP BY status`,
      );
      g.reset();
      for (const r of rows) g.set({ state: r.state }, r.n);
    });
  }
}
