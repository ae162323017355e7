import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { forgetCachedKeys } from "../platform/auth/api-keys";
import type { Principal } from "../platform/auth/principal";
import { users, type User } from "../platform/auth/tables";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { auditEvent, auditEventWhere } from "./audit";
import { refreshTokens, type userUpdateSchema } from "./schema";

export async function userById(db: Database, id: number): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw new ApiError(404, "Not found");
  return user;
}

/** A10: the route lets an admin or the user themself change the record; the event says what was before and after. */
export async function updateUser(db: Database, actor: Principal, id: number, changes: z.output<typeof userUpdateSchema>): Promise<User> {
  const before = await userById(db, id);
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
      detail: { from: { full_name: before.fullName, email: before.email }, to: { full_name: changes.full_name, email: changes.email } },
    }),
  ]);
  if (!user) throw new ApiError(404, "Not found");
  return user;
}

/**
 * A user's own name, changed by the user (the console's profile): recorded as A10's change is, in
 * one batch with the statements the caller adds (the sites whose bylines show the name).
 */
export async function renameSelf(db: Database, actor: Principal, fullName: string, alongside: BatchItem<"sqlite">[] = []): Promise<User> {
  const before = await userById(db, actor.userId);
  const [[user]] = await db.batch([
    db.update(users).set({ fullName, updatedAt: new Date().toISOString() }).where(eq(users.id, actor.userId)).returning(),
    auditEvent(db, {
      userId: actor.userId,
      action: "user.updated",
      actor,
      detail: { from: { full_name: before.fullName }, to: { full_name: fullName } },
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
