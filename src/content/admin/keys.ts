import { z } from "@hono/zod-openapi";
import { ApiError, fieldRefused } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { tenantKeys } from "../schema";
import { ROWS_PER_TENANT } from "../tenancy/rooms";
import { issueTenantKey, listTenantKeys, revokeTenantKey } from "../tenancy/tenant-keys";
import { type AdminRoute, as } from "./guard";
import { keyCreate } from "./params";
import { sitesOf } from "./sites";
import { inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";

const keySchema = rowAnswer(createSelectSchema(tenantKeys).omit({ tokenHash: true }), "TenantKey", {
  id: 6,
  tenantId: 1,
  name: "Website front end",
  maskedToken: "svc_tk_Xq3v…8LmN",
  siteIds: [1],
  scopes: ["content:read"],
  isActive: true,
  createdBy: 1,
  createdAt: "2026-11-20T09:30:00.000Z",
});

const maskedKey = <K extends { tokenHash: string }>({ tokenHash: _hash, ...key }: K) => key;

/** Tenant API keys: listed masked, the token shown once. */
export function keyRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/keys",
    summary: "Tenant API keys, masked",
    guard: as("owner"),
    request: tenantPath,
    data: z.array(keySchema),
    answer: "Keys",
    handle: async (c, scope) => (await listTenantKeys(c.get("db"), scope.tenantId)).map(maskedKey),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/keys",
    summary: "Create a tenant API key; the token is shown once",
    description: `Refused (409) past ${ROWS_PER_TENANT.keys.toLocaleString("en-US")} keys of the tenant, revoked ones included.`,
    guard: as("owner"),
    request: { ...tenantPath, ...json(keyCreate.openapi({ example: { name: "Website front end", siteIds: [1], scopes: ["content:read"] } })) },
    data: keySchema.extend({ token: z.string().openapi({ example: "svc_tk_…" }) }),
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c, scope) => {
      const input = c.req.valid("json");
      // A key bound to sites may name only sites of its tenant.
      if (input.siteIds)
        for (const siteId of input.siteIds)
          if (!(await sitesOf(c.get("db"), scope)).some((s) => s.id === siteId)) throw fieldRefused("siteIds", `no site ${siteId} in this tenant`);
      const { key, token } = await issueTenantKey(c.get("db"), scope.tenantId, scope.userId, {
        name: input.name,
        siteIds: input.siteIds ?? null,
        scopes: input.scopes ?? [],
      });
      c.header("Cache-Control", "no-store");
      return { ...maskedKey(key), token };
    },
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/keys/{id}",
    summary: "Revoke a tenant API key",
    guard: as("owner"),
    request: inTenantPath({ id: idParam("id") }),
    data: keySchema,
    answer: "Revoked",
    handle: async (c, scope) => {
      const { id } = c.req.valid("param");
      const key = await revokeTenantKey(c.get("db"), scope.tenantId, id, scope.userId);
      if (!key) throw new ApiError(404, `No key with id ${id}`);
      return maskedKey(key);
    },
  });
}
