import { z } from "@hono/zod-openapi";
import { and, count, desc, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import { users } from "../../platform/auth/tables";
import { database, type Database } from "../../platform/database";
import type { Bindings } from "../../platform/env";
import type { Logger } from "../../platform/logging";
import { auditLog, contents } from "../schema";
import { queryInteger } from "../params";
import { inTenant, type TenantScope } from "../tenancy/scope";
import { type AuditAnswer, auditSchema } from "./answers";
import { type AdminRoute, as } from "./guard";
import { tenantPath } from "./shapes";

export const auditOf = (db: Database, scope: TenantScope, page: number, size: number): Promise<AuditAnswer[]> =>
  db
    .select({
      id: auditLog.id,
      tenantId: auditLog.tenantId,
      userId: auditLog.userId,
      action: auditLog.action,
      subject: auditLog.subject,
      contentId: auditLog.contentId,
      at: auditLog.at,
      who: { email: users.email, fullName: users.fullName },
      content: { id: contents.id, title: contents.title, siteId: contents.siteId },
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    // A content in the trash is no link (its editor does not open it); its title stays in the subject.
    .leftJoin(contents, and(eq(contents.id, auditLog.contentId), eq(contents.tenantId, auditLog.tenantId), isNull(contents.deletedAt)))
    .where(inTenant(auditLog.tenantId, scope))
    .orderBy(desc(auditLog.id))
    .limit(size)
    .offset((page - 1) * size);

/** A tenant's log keeps its newest entries, so that no tenant's writes grow the shared database without end. */
export const AUDIT_ENTRIES_KEPT = 10_000;
/** Entries deleted per statement, and statements per day's run: a flood of a day is gone in one run. */
const PRUNE_BATCH = 5_000;
const PRUNE_ROUNDS = 400;

/** The daily upkeep (cron): each tenant's entries past its newest `AUDIT_ENTRIES_KEPT` are deleted, oldest first. */
export async function pruneAuditLogs(env: Bindings, log: Logger): Promise<{ pruned: number }> {
  const db = database(env);
  const crowded = await db.select({ tenantId: auditLog.tenantId }).from(auditLog).groupBy(auditLog.tenantId).having(gt(count(), AUDIT_ENTRIES_KEPT));
  let pruned = 0;
  let rounds = 0;
  for (const { tenantId } of crowded) {
    const [oldestKept] = await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.tenantId, tenantId))
      .orderBy(desc(auditLog.id))
      .limit(1)
      .offset(AUDIT_ENTRIES_KEPT - 1);
    if (!oldestKept) continue;
    const older = and(eq(auditLog.tenantId, tenantId), lt(auditLog.id, oldestKept.id));
    while (rounds++ < PRUNE_ROUNDS) {
      const batch = db.select({ id: auditLog.id }).from(auditLog).where(older).limit(PRUNE_BATCH);
      const { meta } = await db.delete(auditLog).where(inArray(auditLog.id, batch));
      pruned += meta.changes;
      if (meta.changes < PRUNE_BATCH) break;
    }
  }
  if (pruned > 0) log.info({ task: "content-audit", pruned });
  return { pruned };
}

/** The audit log: publishing, unpublishing, deletions, themes, members, keys, redirects, categories, menus and site settings, in words the console can say. */
export function auditRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/audit",
    summary:
      "Who changed what (contents, themes, members, keys, redirects, categories, menus, site settings), newest first, with the content it is about",
    guard: as("editor"),
    request: {
      ...tenantPath,
      query: z.strictObject({ page: queryInteger("page", 1, 100_000).optional(), size: queryInteger("size", 1, 100).optional() }),
    },
    data: z.array(auditSchema),
    answer: "Entries",
    handle: async (c, scope) => {
      const { page = 1, size = 50 } = c.req.valid("query");
      return auditOf(c.get("db"), scope, page, size);
    },
  });
}
