import { getTableColumns, type Table } from "drizzle-orm";

type ColumnsOf<T extends Table> = T["_"]["columns"];

/** A record of a table's fields, each under its column's name (`fullName` as `full_name`). */
export type ByColumnName<T extends Table, R> = { [K in keyof R & keyof ColumnsOf<T> as ColumnsOf<T>[K]["_"]["name"]]: R[K] };

/**
 * Group A speaks snake_case, as the interface it reproduces does, and its columns are named so: a
 * field's name in an answer is its column's. Renames a row, or a schema's shape, field by field.
 */
export function byColumnName<T extends Table, R extends Partial<Record<keyof ColumnsOf<T>, unknown>>>(table: T, record: R): ByColumnName<T, R> {
  const columns = getTableColumns(table);
  // The loop builds the mapped type exactly: each of the record's keys, renamed to its column's name.
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [columns[key]?.name ?? key, value])) as ByColumnName<T, R>;
}
