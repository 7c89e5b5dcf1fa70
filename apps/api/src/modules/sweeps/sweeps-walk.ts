// money contract › Payouts 8: `GET /v1/sweeps` is the spec's reconciliation walk (updatedAfter,
// limit, cursor, 60-second lag) without status or network filters, plus `paymentId` (that
// payment's sweeps by sequence, no lag). Pure parsing; the walk's rules are the payments walk's.
import { badRequest } from '@svc/core';
import { isUuid } from '@svc/domain';
import { parseLimit, parseTimestampParam, parseWalkCursor, WalkCursor } from '../payments/payments-walk';

export interface SweepListQuery {
  updatedAfter?: unknown;
  limit?: unknown;
  cursor?: unknown;
  paymentId?: unknown;
  status?: unknown;
  network?: unknown;
}

export type ParsedSweepList =
  { mode: 'payment'; paymentId: string } | { mode: 'walk'; updatedAfter?: Date; limit: number; cursor?: WalkCursor };

export const NO_SWEEP_FILTERS =
  'GET /v1/sweeps has no status or network filter (spec: Walk 5): walk every sweep and filter on your side, or ask for one payment with paymentId.';
export const PAYMENT_ID_ALONE =
  'paymentId lists one payment’s sweeps by sequence; it cannot be combined with updatedAfter, limit or cursor.';

function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once, as a string.`);
  return value;
}

export function parseSweepList(q: SweepListQuery): ParsedSweepList {
  if (q.status !== undefined || q.network !== undefined) throw badRequest(NO_SWEEP_FILTERS);
  const updatedAfter = single('updatedAfter', q.updatedAfter);
  const limit = single('limit', q.limit);
  const cursor = single('cursor', q.cursor);
  const paymentId = single('paymentId', q.paymentId);
  if (paymentId !== undefined) {
    if (updatedAfter !== undefined || limit !== undefined || cursor !== undefined) throw badRequest(PAYMENT_ID_ALONE);
    if (!isUuid(paymentId)) throw badRequest('paymentId must be a payment id (a UUID).');
    return { mode: 'payment', paymentId };
  }
  const after = parseTimestampParam('updatedAfter', updatedAfter);
  const decoded = parseWalkCursor(cursor);
  return { mode: 'walk', updatedAfter: after, limit: parseLimit(limit), cursor: decoded };
}
