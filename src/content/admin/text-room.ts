import { eq, lte, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import type { Bindings } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { settingsOf } from "../../platform/settings";
import { storageSize } from "../media/limits";
import { contentVersions, textRoom } from "../schema";
import { contentSettings } from "../settings";
import { inTenant, type TenantScope } from "../tenancy/scope";
import { DEFAULT_TEXT_BYTES_PER_TENANT, VERSIONS_KEPT } from "./text-limits";

/** What the text of all a tenant's contents may take. */
export const textRoomOf = (env: Bindings) => settingsOf(env, contentSettings).TEXT_BYTES_PER_TENANT ?? DEFAULT_TEXT_BYTES_PER_TENANT;

const usedBytes = (db: Database, tenantId: number) =>
  db
    .select({ used: sql<number>`coalesce(sum(${contentVersions.textBytes}), 0)` })
    .from(contentVersions)
    .where(eq(contentVersions.tenantId, tenantId));

/** The bytes of every saved version of the tenant's contents, read from their index. */
export async function textBytesOf(db: Database, tenantId: number): Promise<number> {
  const [row] = await usedBytes(db, tenantId);
  return row!.used;
}

/**
 * The last statement of a batch that writes text: it measures the tenant's text after the batch's
 * writes, and its check (text_within_room) fails the whole batch when that passes the room.
 */
export function measureText(db: Database, tenantId: number, roomBytes: number) {
  return db
    .insert(textRoom)
    .values({ tenantId, usedBytes: sql`(${usedBytes(db, tenantId)})`, roomBytes })
    .onConflictDoUpdate({ target: textRoom.tenantId, set: { usedBytes: sql`excluded.used_bytes`, roomBytes: sql`excluded.room_bytes` } });
}

/** The versions of a content older than the newest `VERSIONS_KEPT` once `version` is saved. */
export function versionsPast(db: Database, scope: TenantScope, contentId: number, version: number) {
  return db
    .delete(contentVersions)
    .where(
      inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, contentId), lte(contentVersions.version, version - VERSIONS_KEPT)),
    );
}

const passesRoom = (error: unknown) =>
  [error, (error as { cause?: unknown })?.cause].some((e) => String((e as Error)?.message ?? e).includes("text_within_room"));

/** Runs a batch that ends with `measureText`; its refusal becomes a 409 in words, naming the room. */
export async function withinTextRoom<T>(db: Database, tenantId: number, roomBytes: number, text: string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!passesRoom(error)) throw error;
    const size = storageSize(text.reduce((sum, part) => sum + new TextEncoder().encode(part).length, 0));
    const used = storageSize(await textBytesOf(db, tenantId));
    throw new ApiError(
      409,
      `A version of ${size} would take the tenant's texts past their ${storageSize(roomBytes)} (${used} are used, every saved version counted): ` +
        "delete contents it no longer needs and empty them from the Trash, or ask the operator for more room",
    );
  }
}
