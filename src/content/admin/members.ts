import { z } from "@hono/zod-openapi";
import { and, eq, ne, or, sql } from "drizzle-orm";
import { updateUser } from "../../accounts/users";
import type { Principal } from "../../platform/auth/principal";
import { users } from "../../platform/auth/tables";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { contents, type MemberRole, tenantMembers } from "../schema";
import { inTenant, type TenantScope } from "../tenancy/scope";
import { INVITATION_DAYS, invitationsOf, invite, MAX_PENDING_INVITATIONS, withdrawInvitation } from "../tenancy/invitations";
import { invitationSchema, memberSchema } from "./answers";
import { auditIf } from "../audit-entries";
import { type AdminRoute, as } from "./guard";
import { memberAdd, memberInvite, memberRename } from "./params";
import { deleted, inTenantPath, json, tenantPath } from "./shapes";
import { bumpVersions } from "./writes";

export const membersOf = (db: Database, scope: TenantScope) =>
  db
    .select({ userId: users.id, email: users.email, fullName: users.fullName, role: tenantMembers.role })
    .from(tenantMembers)
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(inTenant(tenantMembers.tenantId, scope))
    .orderBy(users.id);

/** The condition that a tenant keeps another owner besides `userId`: read inside the write, so two owners demoting each other cannot both succeed. */
const anotherOwner = (tenantId: number, userId: number) =>
  sql`EXISTS (SELECT 1 FROM tenant_members AS other WHERE other.tenant_id = ${tenantId} AND other.role = 'owner' AND other.user_id <> ${userId})`;
const LAST_OWNER = "A tenant needs at least one owner: make another member owner first";

/** The member's role as the batch finds it (NULL for none), read before the batch's write to it. */
const roleNow = (tenantId: number, userId: number) => sql`(SELECT role FROM tenant_members WHERE tenant_id = ${tenantId} AND user_id = ${userId})`;

/**
 * Adds a user (who has logged in once) or changes their role, recorded in the audit log in the
 * same batch as the change (a change is never left unrecorded); the last owner keeps theirs.
 */
export async function setMember(db: Database, scope: TenantScope, actorId: number, email: string, role: MemberRole) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!user) throw new ApiError(404, `No user with email ${email}: they log in once first`);
  const member = and(eq(tenantMembers.tenantId, scope.tenantId), eq(tenantMembers.userId, user.id));
  const current = roleNow(scope.tenantId, user.id);
  if (role !== "owner") {
    const [[existing], , changed] = await db.batch([
      db.select({ role: tenantMembers.role }).from(tenantMembers).where(member).limit(1),
      // Before the update: recorded only when an owner steps down and another owner remains (the update's own condition).
      auditIf(
        db,
        scope,
        actorId,
        sql`'change-role'`,
        sql`${`${email} to ${role}`}`,
        sql`${current} = 'owner' AND ${anotherOwner(scope.tenantId, user.id)}`,
      ),
      db
        .update(tenantMembers)
        .set({ role })
        .where(and(member, eq(tenantMembers.role, "owner"), anotherOwner(scope.tenantId, user.id)))
        .returning(),
    ]);
    if (existing?.role === "owner") {
      if (changed.length === 0) throw new ApiError(409, LAST_OWNER);
      return { userId: user.id, email, role };
    }
  }
  await db.batch([
    auditIf(
      db,
      scope,
      actorId,
      sql`CASE WHEN ${current} IS NULL THEN 'add-member' ELSE 'change-role' END`,
      sql`${email} || CASE WHEN ${current} IS NULL THEN ' as ' ELSE ' to ' END || ${role}`,
      sql`${current} IS NOT ${role}`,
    ),
    db
      .insert(tenantMembers)
      .values({ tenantId: scope.tenantId, userId: user.id, role })
      .onConflictDoUpdate({ target: [tenantMembers.tenantId, tenantMembers.userId], set: { role } }),
  ]);
  return { userId: user.id, email, role };
}

/** Removes a member, recorded in the audit log in the same batch; the last owner stays. */
export async function removeMember(db: Database, scope: TenantScope, actorId: number, userId: number) {
  const member = and(eq(tenantMembers.tenantId, scope.tenantId), eq(tenantMembers.userId, userId));
  const removable = sql`${roleNow(scope.tenantId, userId)} IS NOT NULL AND (${roleNow(scope.tenantId, userId)} <> 'owner' OR ${anotherOwner(scope.tenantId, userId)})`;
  const [[existing], , removed] = await db.batch([
    db
      .select({ role: tenantMembers.role, email: users.email })
      .from(tenantMembers)
      .innerJoin(users, eq(users.id, tenantMembers.userId))
      .where(member)
      .limit(1),
    auditIf(
      db,
      scope,
      actorId,
      sql`'remove-member'`,
      sql`(SELECT email FROM users WHERE id = ${userId}) || ' (' || ${roleNow(scope.tenantId, userId)} || ')'`,
      removable,
    ),
    db
      .delete(tenantMembers)
      .where(and(member, or(ne(tenantMembers.role, "owner"), anotherOwner(scope.tenantId, userId))))
      .returning(),
  ]);
  if (!existing) throw new ApiError(404, `No member with user id ${userId}`);
  if (removed.length === 0) throw new ApiError(409, LAST_OWNER);
}

const profileSchema = z.object({ userId: z.number().int(), email: z.string(), fullName: z.string().nullable() }).openapi("MemberProfile", {
  example: { userId: 1, email: "mara@example.com", fullName: "Mara Lind" },
});

async function ownProfile(db: Database, userId: number) {
  const [user] = await db.select({ userId: users.id, email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new ApiError(404, "Not found");
  return user;
}

/**
 * The signed-in member's name, as the bylines of their contents show it: every site with a content
 * of theirs gets a new version in the same batch, so that no cached page keeps the old byline.
 */
async function renameMember(db: Database, principal: Principal, fullName: string) {
  const authored = await db.selectDistinct({ siteId: contents.siteId }).from(contents).where(eq(contents.authorId, principal.userId));
  const siteIds = authored.map((row) => row.siteId);
  const user = await updateUser(db, principal, principal.userId, { full_name: fullName }, siteIds.length ? [bumpVersions(db, siteIds)] : []);
  return { userId: user.id, email: user.email, fullName: user.fullName };
}

/** A tenant's members and their roles, and the invitations of people who have not joined yet. */
export function memberRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/me",
    summary: "The signed-in member: the name the bylines of their contents show",
    data: profileSchema,
    answer: "The member",
    handle: async (c) => ownProfile(c.get("db"), c.get("principal").userId),
  });
  route({
    method: "patch",
    path: "/me",
    summary: "Change one's own name, as bylines show it (an email address is never shown as a name)",
    request: json(memberRename),
    data: profileSchema,
    answer: "The member, renamed",
    errors: [400],
    handle: async (c) => renameMember(c.get("db"), c.get("principal"), c.req.valid("json").fullName),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/members",
    summary: "Members and roles",
    guard: as("viewer"),
    request: tenantPath,
    data: z.array(memberSchema),
    answer: "Members",
    handle: async (c, scope) => membersOf(c.get("db"), scope),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/members",
    summary: "Add a member or change a role",
    guard: as("owner"),
    summaryEnd: "; the last owner cannot give up the role (409)",
    request: { ...tenantPath, ...json(memberAdd) },
    data: memberSchema,
    answer: "The member",
    errors: [409],
    handle: async (c, scope) => {
      const { email, role } = c.req.valid("json");
      return setMember(c.get("db"), scope, scope.userId, email, role);
    },
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/members/{userId}",
    summary: "Remove a member",
    guard: as("owner"),
    summaryEnd: "; the last owner stays (409)",
    request: inTenantPath({ userId: idParam("userId") }),
    ...deleted,
    errors: [409],
    handle: async (c, scope) => {
      await removeMember(c.get("db"), scope, scope.userId, c.req.valid("param").userId);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/invitations",
    summary: "Invitations: pending, and expired ones until withdrawn or replaced",
    guard: as("owner"),
    request: tenantPath,
    data: z.array(invitationSchema),
    answer: "Invitations, oldest first",
    handle: async (c, scope) => invitationsOf(c.get("db"), scope),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/invitations",
    summary: `Invite someone by email, who may never have signed in: their first sign-in with that (verified) address within ${INVITATION_DAYS} days makes them a member`,
    guard: as("owner"),
    summaryEnd: `; inviting an address again replaces its invitation; a member (409), more than ${MAX_PENDING_INVITATIONS} pending (409)`,
    request: { ...tenantPath, ...json(memberInvite) },
    data: invitationSchema,
    answer: "The invitation",
    status: 201,
    errors: [409],
    handle: async (c, scope) => invite(c.get("db"), scope, scope.userId, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/invitations/{invitationId}",
    summary: "Withdraw an invitation",
    guard: as("owner"),
    request: inTenantPath({ invitationId: idParam("invitationId") }),
    ...deleted,
    handle: async (c, scope) => {
      await withdrawInvitation(c.get("db"), scope, scope.userId, c.req.valid("param").invitationId);
      return { deleted: true as const };
    },
  });
}
