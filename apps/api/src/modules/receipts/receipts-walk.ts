// GET /v1/receipts: the spec's reconciliation walk (Endpoints › Payments › Reconciliation walk)
// over receipt documents, plus the optional `kind` filter (money contract › Receipts). Pure parsing.
import { badRequest } from '@svc/core';
import { DOCUMENT_KINDS, DocumentKind } from '@svc/domain';
import { parseLimit, parseTimestampParam, parseWalkCursor, WalkCursor } from '../payments/payments-walk';

export interface ReceiptListQuery {
  kind?: string;
  updatedAfter?: string;
  limit?: string;
  cursor?: string;
}

export interface ParsedReceiptList {
  kind?: DocumentKind;
  updatedAfter?: Date;
  limit: number;
  cursor?: WalkCursor;
}

/**
 * Always the walk (there is no "newest 100" form as on payments): `updatedAfter` exclusive,
 * `limit` 1..100 (default 25, clamped), `cursor` = `<updatedAt>|<id>`. `kind` never changes on a
 * document, so filtering by it is safe on a walk; an unknown kind is a 400.
 */
export function parseReceiptList(q: ReceiptListQuery): ParsedReceiptList {
  let kind: DocumentKind | undefined;
  if (q.kind !== undefined) {
    if (!DOCUMENT_KINDS.includes(q.kind as DocumentKind)) {
      throw badRequest(`kind must be one of: ${DOCUMENT_KINDS.join(', ')}.`);
    }
    kind = q.kind as DocumentKind;
  }
  const updatedAfter = parseTimestampParam('updatedAfter', q.updatedAfter);
  const cursor = parseWalkCursor(q.cursor);
  return { kind, updatedAfter, limit: parseLimit(q.limit), cursor };
}
