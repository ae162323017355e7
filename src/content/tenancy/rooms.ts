import { type SQL, sql } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, refusedBy } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { ads, categories, contentTags, redirects, ROOM_KINDS, type RoomKind, tenantKeys, tenantRooms } from "../schema";

/**
 * The last statement of a batch that adds to a tenant's `kind` of room: it measures `used` after the
 * batch's writes, and its check (`within_<kind>_room`) fails the whole batch when that passes `room`.
 * D1 runs each batch as one transaction, one after another, so writes sent together cannot pass it together.
 */
export function measureRoom(db: Database, tenantId: number, kind: RoomKind, used: SQL, room: number) {
  return db
    .insert(tenantRooms)
    .values({ tenantId, kind, used: sql`(${used})`, room })
    .onConflictDoUpdate({ target: [tenantRooms.tenantId, tenantRooms.kind], set: { used: sql`excluded.used`, room: sql`excluded.room` } });
}

/** The rows a tenant keeps at most of each kind that is listed whole (the console's lists), all its sites together. */
export const ROWS_PER_TENANT = { categories: 2_000, tags: 1_000, ads: 1_000, redirects: 20_000, keys: 1_000 } as const;
type RowKind = keyof typeof ROWS_PER_TENANT;
const DELETE_FIRST = "delete ones it no longer needs first";
const ROWS = {
  categories: { table: categories, words: "categories, all its sites together", remedy: DELETE_FIRST },
  tags: { table: contentTags, words: "menus and content tags, all its sites together", remedy: DELETE_FIRST },
  ads: { table: ads, words: "ads, all its sites together", remedy: DELETE_FIRST },
  redirects: { table: redirects, words: "redirects, all its sites together", remedy: DELETE_FIRST },
  // A revoked key stays listed (its name, sites, scopes and when it was made): nothing deletes it.
  keys: { table: tenantKeys, words: "API keys, revoked ones included", remedy: "ask the operator for more" },
} as const;

/** The last statement of a batch that adds rows to `table`: it counts the tenant's rows there, and fails the batch past `room`. */
export function measureCount(db: Database, tenantId: number, kind: RoomKind, table: SQLiteTable & { tenantId: AnySQLiteColumn }, room: number) {
  return measureRoom(db, tenantId, kind, sql`SELECT count(*) FROM ${table} WHERE ${table.tenantId} = ${tenantId}`, room);
}

/** The last statement of a batch that adds rows of `kind`: past `ROWS_PER_TENANT` it fails the batch (`withinRooms`). */
export const measureRows = (db: Database, tenantId: number, kind: RowKind) =>
  measureCount(db, tenantId, kind, ROWS[kind].table, ROWS_PER_TENANT[kind]);

const isRowKind = (kind: RoomKind): kind is RowKind => kind in ROWS_PER_TENANT;

/**
 * Runs a batch that ends with `measureRoom` or `measureRows`: refused there, it is a 409 in the
 * words `refusals` gives for its kind (rows have their own).
 */
export async function withinRooms<T>(write: () => Promise<T>, refusals: Partial<Record<RoomKind, () => Promise<string>>> = {}): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const kind = ROOM_KINDS.find((candidate) => refusedBy(error, `CHECK constraint failed: within_${candidate}_room`));
    if (!kind) throw error;
    const words = refusals[kind]
      ? await refusals[kind]()
      : isRowKind(kind)
        ? `A tenant keeps at most ${ROWS_PER_TENANT[kind].toLocaleString("en-US")} ${ROWS[kind].words}: ${ROWS[kind].remedy}`
        : undefined;
    if (!words) throw error;
    throw new ApiError(409, words);
  }
}
