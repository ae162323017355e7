import type { Context } from "hono";
import type { AppEnv } from "../../platform/env";
import { idParam } from "../../platform/openapi";
import type { Guard, tenantRoutes } from "../../platform/route";
import type { MemberRole } from "../schema";
import { memberRole, memberScope, requireRole, type TenantScope } from "../tenancy/scope";

/** The admin API's route helper: each resource's file registers its routes through it. */
export type AdminRoute = ReturnType<typeof tenantRoutes>;

export const tenantId = idParam("tenantId");

export type MemberScope = TenantScope & { role: MemberRole; userId: number };

/** The member's scope in the path's tenant, once their role reaches `needed`. */
async function member(c: Context<AppEnv>, id: number, needed: MemberRole): Promise<MemberScope> {
  const role = await memberRole(c.get("db"), id, c.get("principal").userId);
  requireRole(role, needed);
  return { ...memberScope(id), role, userId: c.get("principal").userId };
}

/** A route's member role: written once, into its summary as `(note)`, and checked before its handler, which gets the member's scope. */
export const as = (role: MemberRole, note: string = role): Guard<MemberScope> => ({
  note,
  check: (c) => member(c, tenantId.parse(c.req.param("tenantId")), role),
});
