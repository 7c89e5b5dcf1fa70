// spec: Endpoints › Payments › Reconciliation walk. Pure parsing of the walk parameters.
import { isUuid, NETWORKS, Network, PAYMENT_STATUSES, PaymentStatus } from '@svc/domain';
import { badRequest } from '@svc/core';

export const WALK_DEFAULT_LIMIT = 25;
export const WALK_MAX_LIMIT = 100;
export const WALK_LAG_MS = 60_000;
export const NEWEST_LIMIT = 100;

export interface WalkCursor {
  updatedAt: Date;
  id: string;
}

export interface PaymentListQuery {
  status?: string;
  network?: string;
  updatedAfter?: string;
  limit?: string;
  cursor?: string;
}

export type ParsedPaymentList =
  | { mode: 'newest'; status?: PaymentStatus; network?: Network }
  | {
      mode: 'walk';
      status?: PaymentStatus;
      network?: Network;
      updatedAfter?: Date;
      limit: number;
      cursor?: WalkCursor;
    };

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export function parseIsoTimestamp(value: string): Date | null {
  if (!ISO_RE.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function encodeCursor(c: WalkCursor): string {
  return `${c.updatedAt.toISOString()}|${c.id}`;
}

export function decodeCursor(value: string): WalkCursor | null {
  const [at, id, ...rest] = value.split('|');
  const updatedAt = at === undefined ? null : parseIsoTimestamp(at);
  if (rest.length || !updatedAt || id === undefined || !isUuid(id)) return null;
  return { updatedAt, id: id.toLowerCase() };
}

/**
 * A walk's page from the rows read for it (`limit` + 1: one more tells that there is more), and
 * the cursor after its last row when there is.
 */
export function walkPage<R extends { updatedAt: Date; id: string }>(
  rows: R[],
  limit: number,
): { page: R[]; hasMore: boolean; nextCursor: string | null } {
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    page,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null,
  };
}

export const CURSOR_MALFORMED = 'cursor is malformed: pass the nextCursor of the previous page unchanged.';

/** A list's `cursor` (`<updatedAt>|<id>`, a page's nextCursor): none when absent, a 400 when malformed. */
export function parseWalkCursor(value: string | undefined): WalkCursor | undefined {
  if (value === undefined) return undefined;
  const cursor = decodeCursor(value);
  if (!cursor) throw badRequest(CURSOR_MALFORMED);
  return cursor;
}

/** A timestamp parameter (`updatedAfter`, `createdAfter`): none when absent, a 400 when not ISO 8601. */
export function parseTimestampParam(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = parseIsoTimestamp(value);
  if (!at) throw badRequest(`${name} must be an ISO 8601 timestamp, e.g. 2026-09-20T12:00:00.000Z.`);
  return at;
}

/** `limit` is clamped to 1..100 (spec: "out-of-range clamped"); a non-integer is a 400. */
export function parseLimit(value: string | undefined): number {
  if (value === undefined || value === '') return WALK_DEFAULT_LIMIT;
  if (!/^-?\d+$/.test(value)) throw badRequest('limit must be an integer from 1 to 100.');
  return Math.min(WALK_MAX_LIMIT, Math.max(1, Number(value)));
}

export function parsePaymentList(q: PaymentListQuery): ParsedPaymentList {
  // spec: Walk 4 — an unrecognised status is ignored rather than rejected.
  const status = PAYMENT_STATUSES.includes(q.status as PaymentStatus) ? (q.status as PaymentStatus) : undefined;
  if (q.network !== undefined && !NETWORKS.includes(q.network as Network))
    throw badRequest('network must be one of: mainnet, testnet.');
  const network = q.network as Network | undefined;
  if (q.updatedAfter === undefined && q.limit === undefined && q.cursor === undefined)
    return { mode: 'newest', status, network };
  const updatedAfter = parseTimestampParam('updatedAfter', q.updatedAfter);
  const cursor = parseWalkCursor(q.cursor);
  return { mode: 'walk', status, network, updatedAfter, limit: parseLimit(q.limit), cursor };
}
