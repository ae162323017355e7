import { type SQL, sql } from "drizzle-orm";
import { check, integer, primaryKey, sqliteTable, text, type AnySQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, refusedBy } from "./database";
import { ApiError } from "./errors";

/**
 * An account's count of one kind of row (a group's name for it) against its bound, as the last write
 * measured it: a batch that adds such a row ends by writing this one, and its check fails the whole batch
 * past the bound. D1 runs each batch as one transaction, one after another, so writes sent together
 * cannot pass it together.
 */
export const accountRooms = sqliteTable(
  "account_rooms",
  {
    userId: integer("user_id").notNull(),
    kind: text("kind").notNull(),
    used: integer("used").notNull(),
    room: integer("room").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] }), check("within_account_room", sql`${t.used} <= ${t.room}`)],
);

/**
 * The last statement of a batch that adds rows to `table`: it counts the account's rows there (`owner`
 * the column naming it; `only` narrows them), and fails the batch past `room`.
 */
export function measureAccountRows(
  db: Database,
  userId: number,
  kind: string,
  rows: { table: SQLiteTable; owner: AnySQLiteColumn; only?: SQL },
  room: number,
) {
  const counted = rows.only ? sql`${rows.owner} = ${userId} AND ${rows.only}` : sql`${rows.owner} = ${userId}`;
  return db
    .insert(accountRooms)
    .values({ userId, kind, used: sql`(SELECT count(*) FROM ${rows.table} WHERE ${counted})`, room })
    .onConflictDoUpdate({ target: [accountRooms.userId, accountRooms.kind], set: { used: sql`excluded.used`, room: sql`excluded.room` } });
}

/** The words of a refusal past an account's room: `what` names the rows, as many as `room`. */
export const accountRoomFull = (room: number, what: string) =>
  `An account keeps at most ${room.toLocaleString("en-US")} ${what}: ask the operator for more`;

/** Runs a batch that ends with `measureAccountRows`: refused there, it is a 409 in the words `refusal` gives. */
export async function withinAccountRoom<T>(write: () => Promise<T>, refusal: () => string | Promise<string>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!refusedBy(error, "CHECK constraint failed: within_account_room")) throw error;
    throw new ApiError(409, await refusal());
  }
}
