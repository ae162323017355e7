import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import { users } from "../../platform/auth/tables";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { auditLog, type MemberRole, tenantInvitations, tenantMembers, tenants } from "../schema";
import { auditIf } from "../audit-entries";
import { inTenant, type TenantScope } from "./scope";

/**
 * Invitations to a tenant by email, for someone who may never have signed in: an owner invites
 * with a role, and the first sign-in with that address (verified by the identity provider) within
 * `INVITATION_DAYS` makes them a member. An expired invitation does nothing; one whose inviter is
 * no longer an owner of the tenant does nothing either, so it never grants more than its inviter may.
 */
export const INVITATION_DAYS = 7;
/** Unexpired invitations one tenant may hold: each is a row anyone signing in with its address is matched against. */
export const MAX_PENDING_INVITATIONS = 50;

const normalEmail = (email: string) => email.trim().toLowerCase();

/** The tenant's invitations (or the one of `id`), pending and expired, with who invited; `expired` by the service's clock. */
export async function invitationsOf(db: Database, scope: TenantScope, id?: number) {
  const now = new Date().toISOString();
  const rows = await db
    .select({
      id: tenantInvitations.id,
      email: tenantInvitations.email,
      role: tenantInvitations.role,
      invitedBy: { email: users.email, fullName: users.fullName },
      createdAt: tenantInvitations.createdAt,
      expiresAt: tenantInvitations.expiresAt,
    })
    .from(tenantInvitations)
    .innerJoin(users, eq(users.id, tenantInvitations.invitedBy))
    .where(inTenant(tenantInvitations.tenantId, scope, id === undefined ? undefined : eq(tenantInvitations.id, id)))
    .orderBy(asc(tenantInvitations.id));
  return rows.map((row) => ({ ...row, expired: row.expiresAt <= now }));
}

/**
 * Invites `email` with `role` for `INVITATION_DAYS`; inviting the same address again replaces its
 * invitation (new role, new expiry). Refused for a member, and past `MAX_PENDING_INVITATIONS`
 * (counted inside the write, so requests at the same moment cannot pass it together).
 */
export async function invite(db: Database, scope: TenantScope, inviterId: number, input: { email: string; role: MemberRole }) {
  const email = normalEmail(input.email);
  const [member] = await db
    .select({ userId: tenantMembers.userId })
    .from(tenantMembers)
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(inTenant(tenantMembers.tenantId, scope, sql`lower(${users.email}) = ${email}`))
    .limit(1);
  if (member) {
    const message = `${email} is already a member: change their role in the list instead`;
    throw new ApiError(409, message, [{ field: "body.email", message }]);
  }
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 3600 * 1000).toISOString();
  const pending = sql`(SELECT count(*) FROM tenant_invitations WHERE tenant_id = ${scope.tenantId} AND expires_at > ${now.toISOString()})`;
  const sameEmail = sql`EXISTS (SELECT 1 FROM tenant_invitations WHERE tenant_id = ${scope.tenantId} AND email = ${email})`;
  const [, invited] = await db.batch([
    db.delete(tenantInvitations).where(inTenant(tenantInvitations.tenantId, scope, lte(tenantInvitations.expiresAt, now.toISOString()))),
    db
      .insert(tenantInvitations)
      .select(
        db
          // Drizzle's INSERT … SELECT takes every column, in the table's order; the tenant row is there for the bound's condition.
          .select({
            id: sql<number>`NULL`.as("id"),
            tenantId: tenants.id,
            email: sql<string>`${email}`.as("email"),
            role: sql<MemberRole>`${input.role}`.as("role"),
            invitedBy: sql<number>`${inviterId}`.as("invited_by"),
            createdAt: sql<string>`${now.toISOString()}`.as("created_at"),
            expiresAt: sql<string>`${expiresAt}`.as("expires_at"),
          })
          .from(tenants)
          .where(and(eq(tenants.id, scope.tenantId), sql`(${pending} < ${MAX_PENDING_INVITATIONS} OR ${sameEmail})`)),
      )
      .onConflictDoUpdate({
        target: [tenantInvitations.tenantId, tenantInvitations.email],
        set: { role: input.role, invitedBy: inviterId, createdAt: now.toISOString(), expiresAt },
      })
      .returning(),
    // Recorded only when the invitation was written: the bound may have refused it.
    auditIf(
      db,
      scope,
      inviterId,
      sql`'invite'`,
      sql`${`${email} as ${input.role}`}`,
      sql`EXISTS (SELECT 1 FROM tenant_invitations WHERE tenant_id = ${scope.tenantId} AND email = ${email} AND created_at = ${now.toISOString()})`,
    ),
  ]);
  const [invitation] = invited;
  if (!invitation)
    throw new ApiError(409, `A tenant may have at most ${MAX_PENDING_INVITATIONS} pending invitations: withdraw some, or wait until they expire`);
  return (await invitationsOf(db, scope, invitation.id))[0]!;
}

/** Withdraws an invitation of the tenant, recorded in the same batch: a 404 for another tenant's, as if it did not exist. */
export async function withdrawInvitation(db: Database, scope: TenantScope, userId: number, id: number) {
  const invitation = sql`FROM tenant_invitations WHERE tenant_id = ${scope.tenantId} AND id = ${id}`;
  const [, withdrawn] = await db.batch([
    // Read before the row goes: the entry names whom the invitation was for.
    auditIf(db, scope, userId, sql`'withdraw-invitation'`, sql`(SELECT email || ' as ' || role ${invitation})`, sql`EXISTS (SELECT 1 ${invitation})`),
    db
      .delete(tenantInvitations)
      .where(inTenant(tenantInvitations.tenantId, scope, eq(tenantInvitations.id, id)))
      .returning(),
  ]);
  if (withdrawn.length === 0) throw new ApiError(404, `No invitation with id ${id}`);
}

/**
 * Called when someone signs in with an email their identity provider has verified: every
 * unexpired invitation to that address whose inviter is still an owner of its tenant makes them a
 * member with its role (a member already keeps their role), and is used up. Answers the tenants joined.
 */
export async function acceptInvitations(db: Database, user: { id: number; email: string }): Promise<number[]> {
  const email = normalEmail(user.email);
  const now = new Date().toISOString();
  const valid = and(
    eq(tenantInvitations.email, email),
    gt(tenantInvitations.expiresAt, now),
    sql`EXISTS (SELECT 1 FROM tenant_members AS inviter WHERE inviter.tenant_id = ${tenantInvitations.tenantId} AND inviter.user_id = ${tenantInvitations.invitedBy} AND inviter.role = 'owner')`,
    sql`NOT EXISTS (SELECT 1 FROM tenant_members AS existing WHERE existing.tenant_id = ${tenantInvitations.tenantId} AND existing.user_id = ${user.id})`,
  );
  const [joined] = await db.batch([
    db.select({ tenantId: tenantInvitations.tenantId }).from(tenantInvitations).where(valid),
    db.insert(auditLog).select(
      db
        .select({
          id: sql<number>`NULL`.as("id"),
          tenantId: tenantInvitations.tenantId,
          userId: sql<number>`${user.id}`.as("user_id"),
          action: sql<string>`'join'`.as("action"),
          subject: sql<string>`${tenantInvitations.email} || ' as ' || ${tenantInvitations.role}`.as("subject"),
          contentId: sql<number | null>`NULL`.as("content_id"),
          at: sql<string>`${now}`.as("at"),
        })
        .from(tenantInvitations)
        .where(valid),
    ),
    db.insert(tenantMembers).select(
      db
        .select({
          tenantId: tenantInvitations.tenantId,
          userId: sql<number>`${user.id}`.as("user_id"),
          role: tenantInvitations.role,
          createdAt: sql<string>`${now}`.as("created_at"),
        })
        .from(tenantInvitations)
        .where(valid),
    ),
    // Used up, or of no use (a member already, an inviter no longer owner); expired ones stay listed until withdrawn or replaced.
    db.delete(tenantInvitations).where(and(eq(tenantInvitations.email, email), gt(tenantInvitations.expiresAt, now))),
  ]);
  return joined.map((row) => row.tenantId);
}
