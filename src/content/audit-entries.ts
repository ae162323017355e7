import { type SQL, sql } from "drizzle-orm";
import { currentTimestamp } from "../platform/columns";
import type { Database } from "../platform/database";
import { auditLog } from "./schema";
import type { TenantScope } from "./tenancy/scope";

/**
 * The statements that write the tenant's audit log (admin/audit.ts reads it), for the `db.batch` of
 * the change they record: here, below the admin routes, so that tenancy and the sites write them too.
 */

/** The statement that records who published, unpublished or deleted what; `contentId` when it is about a content, for a link to it. */
export const audit = (db: Database, scope: TenantScope, userId: number, action: string, subject: string, contentId?: number) =>
  db.insert(auditLog).values({ tenantId: scope.tenantId, userId, action, subject, contentId });

/** The same, written only where `condition` holds when the batch runs: an audit line in one `db.batch` with the change it records. */
export const auditIf = (db: Database, scope: TenantScope, userId: number, action: SQL, subject: SQL, condition: SQL) =>
  db.insert(auditLog).select(sql`SELECT NULL, ${scope.tenantId}, ${userId}, ${action}, ${subject}, NULL, ${currentTimestamp} WHERE ${condition}`);
