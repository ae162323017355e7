import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/** Rows per INSERT: keeps each statement far below D1's 100 KB statement limit. */
const ROWS_PER_STATEMENT = 50;

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as SQL`);
    return String(value);
  }
  // Objects are JSON columns, as Drizzle writes them.
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * `INSERT OR IGNORE` statements with literal values: running them again changes nothing, and the
 * same text serves `wrangler d1 execute --file` (local or remote) and the tests.
 */
export function insertOrIgnoreStatements<T extends SQLiteTable>(table: T, rows: Record<string, unknown>[]): string[] {
  return insertStatements(table, rows, (insert) => insert.replace(/^INSERT/, "INSERT OR IGNORE"));
}

/**
 * Inserts that correct what an earlier seed wrote: a row whose key is already there gets the
 * seed's values of `correct` instead of being ignored. `conflicts` are the key's `ON CONFLICT`
 * targets (one per partial unique index); `correct` maps a column to its SQL on conflict
 * (`excluded.<column>` for the seed's value).
 */
export function upsertStatements<T extends SQLiteTable>(
  table: T,
  rows: Record<string, unknown>[],
  conflicts: string[],
  correct: Record<string, string>,
): string[] {
  const set = Object.entries(correct)
    .map(([column, value]) => `"${column}" = ${value}`)
    .join(", ");
  const clauses = conflicts.map((target) => `ON CONFLICT ${target} DO UPDATE SET ${set}`).join("\n  ");
  return insertStatements(table, rows, (insert) => `${insert}\n  ${clauses}`);
}

function insertStatements<T extends SQLiteTable>(table: T, rows: Record<string, unknown>[], finish: (insert: string) => string): string[] {
  if (rows.length === 0) return [];
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => key in rows[0]!);
  const names = columns.map(([, column]) => `"${column.name}"`).join(", ");
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const values = rows
      .slice(i, i + ROWS_PER_STATEMENT)
      .map((row) => `(${columns.map(([key]) => literal(row[key])).join(", ")})`)
      .join(",\n  ");
    statements.push(`${finish(`INSERT INTO "${getTableName(table)}" (${names}) VALUES\n  ${values}`)};`);
  }
  return statements;
}
