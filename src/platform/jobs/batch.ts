import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../database";

/** D1 binds at most 100 parameters per statement. */
const MAX_BOUND_PARAMETERS = 100;

/** Inserts as few statements as D1's parameter limit allows. */
export function chunkedInserts<T extends SQLiteTable>(db: Database, table: T, rows: T["$inferInsert"][]): BatchItem<"sqlite">[] {
  if (rows.length === 0) return [];
  // Each given value of a row is one bound parameter.
  const perStatement = Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / Math.max(Object.keys(rows[0]!).length, 1)));
  const statements: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < rows.length; i += perStatement) statements.push(db.insert(table).values(rows.slice(i, i + perStatement)));
  return statements;
}
