import { Injectable } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, ValueTransformer } from 'typeorm';

/**
 * Named prepared statements for the hot paths (session create, payment create and retrieve):
 * PostgreSQL parses and plans each once per connection instead of once per request. Inside a
 * transaction the statement runs on that transaction's connection.
 */
@Injectable()
export class SqlService {
  constructor(private readonly db: DataSource) {}

  async rows<R extends ObjectLiteral>(name: string, text: string, values: unknown[], tx?: EntityManager): Promise<R[]> {
    const client: Pool | PoolClient = tx?.queryRunner
      ? await tx.queryRunner.connect()
      : (this.db.driver as unknown as { master: Pool }).master;
    return (await client.query<R>({ name, text, values })).rows;
  }

  /**
   * The entity's selectable columns, named (`"id", "workspace_id", …`, optionally prefixed with a
   * table alias): statements never say `SELECT *` or `RETURNING *`, so a migration that adds a
   * column does not change what processes still running the old code read. `as`: each column
   * renamed `<as><column>`, for a join whose tables share column names (read back with `hydrate`'s
   * same `as`).
   */
  columns<T extends ObjectLiteral>(entity: EntityTarget<T>, alias?: string, as?: string): string {
    const prefix = alias ? `${alias}.` : '';
    return this.db
      .getMetadata(entity)
      .columns.filter((c) => c.isSelect)
      .map((c) => `${prefix}"${c.databaseName}"${as ? ` AS "${as}${c.databaseName}"` : ''}`)
      .join(', ');
  }

  /**
   * A raw row (snake_case columns, each named `<as><column>` when given) as the entity TypeORM
   * would have loaded, transformers applied.
   */
  hydrate<T extends ObjectLiteral>(entity: EntityTarget<T>, row: ObjectLiteral, as = ''): T {
    const out: ObjectLiteral = {};
    for (const column of this.db.getMetadata(entity).columns) {
      const value: unknown = row[`${as}${column.databaseName}`];
      if (value === undefined) continue;
      const transformer = column.transformer as ValueTransformer | undefined;
      out[column.propertyName] = transformer && value !== null ? transformer.from(value) : value;
    }
    return out as T;
  }
}
