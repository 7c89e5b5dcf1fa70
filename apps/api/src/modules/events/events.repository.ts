import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@svc/domain';
import { ParsedEventList } from './events-walk';

export interface EventRow {
  id: string;
  type: string;
  created_at: Date;
  /** the stored json text, sent as is */
  data: string;
}

@Injectable()
export class EventsRepository {
  constructor(private readonly db: DataSource) {}

  async find(workspaceId: string, id: string): Promise<EventRow | null> {
    if (!isUuid(id)) return null;
    const rows: EventRow[] = await this.db.query(
      `SELECT id, type, created_at, data::text AS data FROM events WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return rows[0] ?? null;
  }

  /** One page (plus one row, for hasMore) of the walk, oldest first. */
  async walk(workspaceId: string, q: ParsedEventList, cutoff: Date | null): Promise<EventRow[]> {
    const where = ['workspace_id = $1'];
    const values: unknown[] = [workspaceId];
    if (cutoff) {
      values.push(cutoff);
      where.push(`created_at <= $${values.length}`);
    }
    if (q.filters) {
      const exact = q.filters.filter((f) => !f.endsWith('.*'));
      const prefixes = q.filters
        .filter((f) => f.endsWith('.*'))
        .map((f) => `${f.slice(0, -1).replace(/[\\%_]/g, '\\$&')}%`);
      values.push(exact, prefixes);
      where.push(`(type = ANY($${values.length - 1}) OR type LIKE ANY($${values.length}))`);
    }
    if (q.createdAfter) {
      values.push(q.createdAfter);
      where.push(`created_at > $${values.length}`);
    }
    if (q.cursor) {
      values.push(q.cursor.createdAt, q.cursor.id);
      where.push(`(created_at, id) > ($${values.length - 1}, $${values.length})`);
    }
    values.push(q.limit + 1);
    return this.db.query(
      `SELECT id, type, created_at, data::text AS data FROM events WHERE ${where.join(' AND ')}
       ORDER BY created_at, id LIMIT $${values.length}`,
      values,
    );
  }
}
