// Statements built from the entities' metadata, for the hot paths where TypeORM's query builder
// costs more than the query (the API's creates and reads, the money engine's steps): named
// prepared statements, PostgreSQL parses and plans each once per connection. Every helper takes
// the EntityManager of the transaction it belongs to (or the data source's manager outside one).
import type { Pool, PoolClient } from 'pg';
import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral, ValueTransformer } from 'typeorm';

/** The connection of `m`'s transaction, or the pool outside one. */
async function connectionOf(m: EntityManager): Promise<Pool | PoolClient> {
  return m.queryRunner
    ? ((await m.queryRunner.connect()) as PoolClient)
    : (m.connection.driver as unknown as { master: Pool }).master;
}

/** The rows of the named prepared statement `name` (one text per name, the caller's to keep so). */
export async function preparedRows<R extends ObjectLiteral = ObjectLiteral>(
  m: EntityManager,
  name: string,
  text: string,
  values: unknown[],
): Promise<R[]> {
  return (await (await connectionOf(m)).query<R>({ name, text, values })).rows;
}

/**
 * The rows of a prepared statement whose name is derived from its text: one name per distinct
 * text (`name` is only its readable prefix), for statements whose text varies with their input.
 */
export async function preparedStatement(
  m: EntityManager,
  name: string,
  text: string,
  values: unknown[],
): Promise<ObjectLiteral[]> {
  let named = statementNames.get(text);
  if (named === undefined) {
    named = `${name.slice(0, 48)}#${statementNames.size}`;
    statementNames.set(text, named);
  }
  return preparedRows(m, named, text, values);
}
const statementNames = new Map<string, string>();

const metadataOf = (m: EntityManager, entity: EntityTarget<ObjectLiteral>): EntityMetadata =>
  m.connection.getMetadata(entity);

const selectLists = new WeakMap<EntityMetadata, Map<string, string>>();

/**
 * The entity's selectable columns, named (`"id", "workspace_id", …`, optionally prefixed with a
 * table alias): statements never say `SELECT *` or `RETURNING *`, so a migration that adds a
 * column does not change what processes still running the old code read. `as`: each column
 * renamed `<as><column>`, for a join whose tables share column names (read back with
 * `hydrateEntity`'s same `as`).
 */
export function entityColumns(
  m: EntityManager,
  entity: EntityTarget<ObjectLiteral>,
  alias?: string,
  as?: string,
): string {
  const metadata = metadataOf(m, entity);
  let lists = selectLists.get(metadata);
  if (lists === undefined) {
    lists = new Map<string, string>();
    selectLists.set(metadata, lists);
  }
  const key = `${alias ?? ''}/${as ?? ''}`;
  let list = lists.get(key);
  if (list === undefined) {
    const prefix = alias ? `${alias}.` : '';
    list = metadata.columns
      .filter((c) => c.isSelect)
      .map((c) => `${prefix}"${c.databaseName}"${as ? ` AS "${as}${c.databaseName}"` : ''}`)
      .join(', ');
    lists.set(key, list);
  }
  return list;
}

/**
 * A raw row (snake_case columns, each named `<as><column>` when given) as the entity TypeORM
 * would have loaded, transformers applied.
 */
export function hydrateEntity<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  row: ObjectLiteral,
  as = '',
): T {
  const out: ObjectLiteral = {};
  for (const column of metadataOf(m, entity).columns) {
    const value: unknown = row[`${as}${column.databaseName}`];
    if (value === undefined) continue;
    const transformer = column.transformer as ValueTransformer | undefined;
    out[column.propertyName] = transformer && value !== null ? transformer.from(value) : value;
  }
  return out as T;
}

/**
 * The entities a named prepared statement returns (`preparedStatement`): `text` is given the
 * entity's columns (`entityColumns` under `alias`) to select, and each row is hydrated as TypeORM
 * would have loaded it.
 */
export async function entityRows<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  alias: string,
  name: string,
  text: (columns: string) => string,
  values: unknown[],
): Promise<T[]> {
  const rows = await preparedStatement(m, name, text(entityColumns(m, entity, alias)), values);
  return rows.map((row) => hydrateEntity(m, entity, row));
}

/** A property's value as a statement parameter: the column's transformer applied, json serialised. */
function persisted(column: EntityMetadata['columns'][number], value: unknown): unknown {
  if (value === undefined) return undefined;
  const transformer = column.transformer as ValueTransformer | undefined;
  let out = transformer ? transformer.to(value) : value;
  if (out !== null && out !== undefined && (column.type === 'jsonb' || column.type === 'json'))
    out = JSON.stringify(out);
  return out;
}

/**
 * `INSERT INTO <table> ("col", …) VALUES ($n, …)` of every column of `row`, as TypeORM's insert
 * would write them (transformers applied, json serialised); its values are appended to `values`.
 * `entityInsertMany` of one row: the same text (a prepared statement's name may be keyed on it).
 */
export function entityInsert<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  row: Partial<T>,
  values: unknown[],
): string {
  return entityInsertMany(m, entity, [row], values);
}

/**
 * `INSERT INTO <table> ("col", …) VALUES (…), (…)`: `entityInsert` of several rows in one
 * statement. Every row names the same properties (the first row's decide the columns).
 */
export function entityInsertMany<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  rows: Array<Partial<T>>,
  values: unknown[],
): string {
  if (!rows.length) throw new Error('entityInsertMany: no rows');
  const metadata = metadataOf(m, entity);
  const columns = metadata.columns.filter(
    (c) => c.propertyName in rows[0] && persisted(c, (rows[0] as ObjectLiteral)[c.propertyName]) !== undefined,
  );
  const tuples = rows.map((row) => {
    const params = columns.map((column) => {
      const value = persisted(column, (row as ObjectLiteral)[column.propertyName]);
      values.push(value === undefined ? null : value);
      return `$${values.length}`;
    });
    return `(${params.join(', ')})`;
  });
  return `INSERT INTO ${metadata.tablePath} (${columns.map((c) => `"${c.databaseName}"`).join(', ')}) VALUES ${tuples.join(', ')}`;
}

/**
 * `UPDATE <table> SET "col" = $n, …` of every column of `set` but the primary key, as TypeORM's
 * update would write them (transformers applied, json serialised); parameters numbered after the
 * caller's own first `offset`.
 */
export function entityUpdate<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  set: Partial<T>,
  offset: number,
): { text: string; values: unknown[] } {
  const metadata = metadataOf(m, entity);
  const assignments: string[] = [];
  const values: unknown[] = [];
  for (const column of metadata.columns) {
    if (column.isPrimary || !(column.propertyName in set)) continue;
    const value = persisted(column, (set as ObjectLiteral)[column.propertyName]);
    if (value === undefined) continue;
    values.push(value);
    assignments.push(`"${column.databaseName}" = $${offset + values.length}`);
  }
  return { text: `UPDATE ${metadata.tablePath} SET ${assignments.join(', ')}`, values };
}
