// GET /v1/events: the keyset walk of the payments walk (spec: Endpoints › Payments ›
// Reconciliation walk), over the outbox: oldest first by (createdAt, id), `createdAfter`
// exclusive, `limit` 1..100 (default 25, clamped), `cursor` = `<createdAt>|<id>`, events younger
// than 60 seconds withheld (a transaction that commits late cannot slip behind a cursor).
// `tail=true` drops the withholding: the newest events at once, for a follower that re-reads the
// last minute and deduplicates by id (what `svc listen` does), never for a cursor walk.
import { parseEventFilters } from '@svc/webhooks';
import { badRequest } from '@svc/core';
import { parseLimit, parseTimestampParam, parseWalkCursor } from '../payments/payments-walk';

export interface EventListQuery {
  type?: string;
  createdAfter?: string;
  limit?: string;
  cursor?: string;
  tail?: string;
}

export interface ParsedEventList {
  /** null: every type; otherwise exact types and `prefix.` wildcards, as the webhook filters. */
  filters: string[] | null;
  createdAfter?: Date;
  limit: number;
  cursor?: { createdAt: Date; id: string };
  /** no 60-second withholding */
  tail: boolean;
}

export function parseEventList(q: EventListQuery): ParsedEventList {
  let filters: string[] | null = null;
  if (q.type !== undefined) {
    const parsed = parseEventFilters(
      q.type
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    );
    if (!parsed.ok) throw badRequest(parsed.message.replace(/^eventTypes/, 'type'));
    filters = parsed.filters.includes('*') ? null : parsed.filters;
  }
  const createdAfter = parseTimestampParam('createdAfter', q.createdAfter);
  const walked = parseWalkCursor(q.cursor);
  const cursor = walked && { createdAt: walked.updatedAt, id: walked.id };
  if (q.tail !== undefined && q.tail !== 'true' && q.tail !== 'false') throw badRequest('tail must be true or false.');
  return { filters, createdAfter, limit: parseLimit(q.limit), cursor, tail: q.tail === 'true' };
}
