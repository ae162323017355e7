import { eq, lte, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import type { Bindings } from "../../platform/env";
import { settingsOf } from "../../platform/settings";
import { storageSize } from "../media/limits";
import { contentVersions } from "../schema";
import { contentSettings } from "../settings";
import { measureRoom, withinRooms } from "../tenancy/rooms";
import { inTenant, type TenantScope } from "../tenancy/scope";
import { DEFAULT_TEXT_BYTES_PER_TENANT, VERSION_RECORD_BYTES, VERSIONS_KEPT } from "./text-limits";

/** What the texts of all a tenant's contents may take. */
export const textRoomOf = (env: Bindings) => settingsOf(env, contentSettings).TEXT_BYTES_PER_TENANT ?? DEFAULT_TEXT_BYTES_PER_TENANT;

const usedBytes = (db: Database, tenantId: number) =>
  db
    .select({ used: sql<number>`coalesce(sum(${contentVersions.textBytes}), 0)` })
    .from(contentVersions)
    .where(eq(contentVersions.tenantId, tenantId));

/** What every saved version of the tenant's contents takes, read from their index. */
export async function textBytesOf(db: Database, tenantId: number): Promise<number> {
  const [row] = await usedBytes(db, tenantId);
  return row!.used;
}

/** The last statement of a batch that writes text: past the room it fails the batch (`withinTextRoom`). */
export const measureText = (db: Database, tenantId: number, roomBytes: number) =>
  measureRoom(db, tenantId, "text", sql`${usedBytes(db, tenantId)}`, roomBytes);

/** The versions of a content older than the newest `VERSIONS_KEPT` once `version` is saved. */
export function versionsPast(db: Database, scope: TenantScope, contentId: number, version: number) {
  return db
    .delete(contentVersions)
    .where(
      inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, contentId), lte(contentVersions.version, version - VERSIONS_KEPT)),
    );
}

/** Runs a batch that ends with `measureText`; its refusal becomes a 409 in words, naming the version's size and the room (and a redirect's bound, for a move). */
export function withinTextRoom<T>(db: Database, tenantId: number, roomBytes: number, text: string[], write: () => Promise<T>): Promise<T> {
  return withinRooms(write, {
    text: async () => {
      const size = storageSize(text.reduce((sum, part) => sum + new TextEncoder().encode(part).length, VERSION_RECORD_BYTES));
      const used = storageSize(await textBytesOf(db, tenantId));
      return (
        `A version of ${size} would take the tenant's texts past their ${storageSize(roomBytes)} (${used} are used, every saved version counted): ` +
        "delete contents it no longer needs and empty them from the Trash, or ask the operator for more room"
      );
    },
  });
}
