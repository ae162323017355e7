import { z } from "@hono/zod-openapi";
import { desc } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { auditLog } from "../schema";
import { queryInteger } from "../params";
import { inTenant, type TenantScope } from "../tenancy/scope";
import { type AdminRoute, as } from "./guard";
import { tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";

const auditSchema = rowAnswer(createSelectSchema(auditLog), "AuditEntry", {
  id: 981,
  tenantId: 1,
  userId: 1,
  action: "publish",
  subject: "content 42",
  at: "2026-11-26T08:15:00.000Z",
});

/** The statement that records who published, unpublished or deleted what. */
export const audit = (db: Database, scope: TenantScope, userId: number, action: string, subject: string) =>
  db.insert(auditLog).values({ tenantId: scope.tenantId, userId, action, subject });

export const auditOf = (db: Database, scope: TenantScope, page: number, size: number) =>
  db
    .select()
    .from(auditLog)
    .where(inTenant(auditLog.tenantId, scope))
    .orderBy(desc(auditLog.id))
    .limit(size)
    .offset((page - 1) * size);

/** The audit log: publishing, unpublishing and deletions. */
export function auditRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/audit",
    summary: "Publishing, unpublishing and deletions, newest first",
    guard: as("editor"),
    request: {
      ...tenantPath,
      query: z.strictObject({ page: queryInteger("page", 1, 100_000).optional(), size: queryInteger("size", 1, 100).optional() }),
    },
    data: z.array(auditSchema),
    answer: "Entries",
    handle: async (c, scope) => {
      const { page = 1, size = 50 } = c.req.valid("query");
      return auditOf(c.var.db, scope, page, size);
    },
  });
}
