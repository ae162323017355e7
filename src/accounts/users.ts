import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { forgetCachedKeys } from "../platform/auth/api-keys";
import type { Principal } from "../platform/auth/principal";
import { users, type User } from "../platform/auth/tables";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { auditEvent, auditEventWhere } from "./audit";
import { refreshTokens } from "./schema";

export async function userById(db: Database, id: number): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw new ApiError(404, "Not found");
  return user;
}

/**
 * A10: the route lets an admin or the user themself change the record; the event says what was
 * before and after. A change of the name alone (the console's own profile) leaves the email as it
 * is; `alongside` are statements of the same batch (the sites whose bylines show the name).
 */
export async function updateUser(
  db: Database,
  actor: Principal,
  id: number,
  changes: { full_name: string; email?: string },
  alongside: BatchItem<"sqlite">[] = [],
): Promise<User> {
  const before = await userById(db, id);
  const email = (value: string | undefined) => (changes.email === undefined ? {} : { email: value });
  const [[user]] = await db.batch([
    db
      .update(users)
      .set({ fullName: changes.full_name, email: changes.email, updatedAt: new Date().toISOString() })
      .where(eq(users.id, id))
      .returning(),
    auditEvent(db, {
      userId: id,
      action: "user.updated",
      actor,
      detail: { from: { full_name: before.fullName, ...email(before.email) }, to: { full_name: changes.full_name, ...email(changes.email) } },
    }),
    ...alongside,
  ]);
  if (!user) throw new ApiError(404, "Not found");
  return user;
}

/**
 * A11, an admin's call (the route checks the role). The user's keys and JWTs stop at once here and within 10 s elsewhere (the key cache), their
 * refresh tokens are revoked with them, and the last active admin cannot be deactivated: the
 * condition is part of the UPDATE, so two admins cannot remove each other at the same moment.
 */
export async function deactivateUser(db: Database, actor: Principal, id: number): Promise<void> {
  const target = await userById(db, id);
  if (!target.isActive) return;
  const now = new Date().toISOString();
  const notLastAdmin = sql`NOT (${users.role} = 'admin' AND (SELECT count(*) FROM users WHERE role = 'admin' AND is_active = 1) <= 1)`;
  const [deactivated] = await db.batch([
    db
      .update(users)
      .set({ isActive: false, updatedAt: now })
      .where(and(eq(users.id, id), notLastAdmin))
      .returning({ id: users.id }),
    db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.revokedAt), sql`(SELECT is_active FROM users WHERE id = ${id}) = 0`)),
    auditEventWhere(
      db,
      { action: "user.deactivated", actor, userId: sql`id`, keyId: sql`NULL`, detail: sql`'{}'` },
      sql`FROM ${users} WHERE id = ${id} AND is_active = 0`,
    ),
  ]);
  if (deactivated.length === 0) throw new ApiError(409, "The last active admin cannot be deactivated");
  forgetCachedKeys({ userId: id });
}
