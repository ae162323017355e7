import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { type ROOM_KINDS, tenantRooms } from "../schema";

/**
 * The last statement of a batch that adds to a tenant's `kind` of room: it measures `used` after the
 * batch's writes, and its check (`within_room`) fails the whole batch when that passes `room`. D1
 * runs each batch as one transaction, one after another, so writes sent together cannot pass it together.
 */
export function measureRoom(db: Database, tenantId: number, kind: (typeof ROOM_KINDS)[number], used: SQL, room: number) {
  return db
    .insert(tenantRooms)
    .values({ tenantId, kind, used: sql`(${used})`, room })
    .onConflictDoUpdate({ target: [tenantRooms.tenantId, tenantRooms.kind], set: { used: sql`excluded.used`, room: sql`excluded.room` } });
}

const passesRoom = (error: unknown) =>
  [error, (error as { cause?: unknown })?.cause].some((e) => String((e as Error)?.message ?? e).includes("within_room"));

/** Runs a batch that ends with `measureRoom`: refused there, it is a 409 in `refusal`'s words. */
export async function withinRoom<T>(write: () => Promise<T>, refusal: () => Promise<string>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!passesRoom(error)) throw error;
    throw new ApiError(409, await refusal());
  }
}
