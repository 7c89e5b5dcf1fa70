import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** A page of the reconciliation walk, over any table keyed for it by (updated_at, id). */
export interface WalkPage {
  /** rows updated at or before this instant only (spec: Walk 2, the 60-second lag) */
  cutoff: Date;
  updatedAfter?: Date;
  cursor?: { updatedAt: Date; id: string };
  limit: number;
}

/**
 * spec: Reconciliation walk, over the rows `qb` selects as `alias`: those updated at or before the
 * cutoff, after `updatedAfter` and after the cursor, oldest-changed first by (updatedAt, id); one
 * row more than the page says whether more follow.
 */
export function walkRows<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  page: WalkPage,
): Promise<T[]> {
  qb.andWhere(`${alias}.updated_at <= :cutoff`, { cutoff: page.cutoff });
  if (page.updatedAfter) qb.andWhere(`${alias}.updated_at > :after`, { after: page.updatedAfter });
  if (page.cursor) {
    qb.andWhere(`(${alias}.updated_at, ${alias}.id) > (:cAt, :cId)`, {
      cAt: page.cursor.updatedAt,
      cId: page.cursor.id,
    });
  }
  return qb
    .orderBy(`${alias}.updated_at`, 'ASC')
    .addOrderBy(`${alias}.id`, 'ASC')
    .limit(page.limit + 1)
    .getMany();
}
