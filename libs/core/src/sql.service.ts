import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { entityColumns, hydrateEntity, preparedRows } from './sql';

/**
 * Named prepared statements for the hot paths (session create, payment create and retrieve):
 * PostgreSQL parses and plans each once per connection instead of once per request. Inside a
 * transaction the statement runs on that transaction's connection. The helpers of ./sql.ts on
 * the data source, for code that holds no EntityManager.
 */
@Injectable()
export class SqlService {
  constructor(private readonly db: DataSource) {}

  rows<R extends ObjectLiteral>(name: string, text: string, values: unknown[], tx?: EntityManager): Promise<R[]> {
    return preparedRows<R>(tx ?? this.db.manager, name, text, values);
  }

  /** The entity's selectable columns, named (`entityColumns`). */
  columns<T extends ObjectLiteral>(entity: EntityTarget<T>, alias?: string, as?: string): string {
    return entityColumns(this.db.manager, entity, alias, as);
  }

  /** A raw row as the entity TypeORM would have loaded, transformers applied (`hydrateEntity`). */
  hydrate<T extends ObjectLiteral>(entity: EntityTarget<T>, row: ObjectLiteral, as = ''): T {
    return hydrateEntity(this.db.manager, entity, row, as);
  }
}
