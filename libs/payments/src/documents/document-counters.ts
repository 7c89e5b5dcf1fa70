import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlService } from '@svc/core';
import { NumberedKind } from '@svc/domain';

/**
 * Gapless numbers per (workspace, kind) (money contract › Receipts: "per workspace, gapless, one
 * sequence per kind … allocated in the same transaction as the credit or refund that causes it").
 * One counter row per (workspace, kind), bumped with INSERT … ON CONFLICT DO UPDATE … RETURNING:
 * the row lock makes concurrent issuers of one workspace and kind wait for each other, and a
 * transaction that rolls back gives its number back, so the numbers run 1, 2, 3 … with no gap and
 * no repeat. (A PostgreSQL sequence would leave a gap at every rollback.)
 */
@Injectable()
export class DocumentCounters {
  constructor(private readonly sql: SqlService) {}

  async next(tx: EntityManager, workspaceId: string, kind: NumberedKind): Promise<number> {
    const [row] = await this.sql.rows<{ last_number: number }>(
      'document_counter_next',
      `INSERT INTO document_counters (workspace_id, kind, last_number) VALUES ($1, $2, 1)
       ON CONFLICT (workspace_id, kind) DO UPDATE SET last_number = document_counters.last_number + 1
       RETURNING last_number`,
      [workspaceId, kind],
      tx,
    );
    return row.last_number;
  }
}
