import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../platform/env";
import type { GroupModule } from "../platform/group";
import { createRouter } from "../platform/openapi";
import { ADMIN_BASE_PATH, adminRoutes } from "./admin/routes";
import { CONSOLE_PATH, consoleRoutes } from "./admin/console-shell";
import { headlessRoutes } from "./delivery/routes";
import { MCP_PATH, mcpRoutes } from "./delivery/mcp";
import { countsAsRequest } from "../platform/mcp/endpoint";
import { MAX_MEDIA_BYTES } from "./media/service";
import { mediaRoutes } from "./media/routes";
import { SKILLS_BASE_PATH, skillsRoutes } from "./skills/routes";
import { authenticateMember } from "./tenancy/member-session";
import { siteIdForHost, unclaimedHostPage } from "./tenancy/domains";
import { serveSite } from "./sites/site-router";
import { MAX_THEME_ZIP_BYTES } from "./sites/theme-upload";
import { contentSettings } from "./settings";
import { purgeTrash } from "./admin/trash";
import { pruneAuditLogs } from "./admin/audit";
import { cleanUpStorage } from "./storage-cleanup";
import { authenticateTenantKey } from "./tenancy/tenant-keys";

/** C · Content delivery: the headless API (C1–C4) and AI skills (C5–C7) for tenant keys, and the admin API for tenant members. */
export const content: GroupModule = {
  name: "content",
  title: "C content delivery",
  surfaces: [
    { prefix: "/api/mcp", envelope: "tenant" },
    { prefix: SKILLS_BASE_PATH, envelope: "tenant" },
    { prefix: ADMIN_BASE_PATH, envelope: "tenant" },
    { prefix: "/media", envelope: "tenant" },
    { prefix: CONSOLE_PATH, envelope: "html" },
  ],
  scopes: ["content"],
  access: [
    // The MCP endpoint takes any active key: each tool call is checked and counted as the route it calls.
    { prefix: MCP_PATH, exact: true, credential: "tenant-key", counts: countsAsRequest },
    { prefix: "/api/mcp", credential: "tenant-key", resource: "content" },
    // C5 saves a draft (content:write, by its POST); C6 and C7 only read (content:read).
    { prefix: `${SKILLS_BASE_PATH}/generate/article`, credential: "tenant-key", resource: "content", hourly: "content-article" },
    { prefix: `${SKILLS_BASE_PATH}/generate/summary`, credential: "tenant-key", resource: "content", readOnly: true, hourly: "content-skills" },
    { prefix: `${SKILLS_BASE_PATH}/translate`, credential: "tenant-key", resource: "content", readOnly: true, hourly: "content-skills" },
    // Members' roles are checked per tenant by the admin routes; the session proves who they are.
    { prefix: ADMIN_BASE_PATH, credential: "member" },
    // The sites' images and files: public, under keys nobody can guess.
    { prefix: "/media", credential: "public" },
    // The console's page and files hold no data: everything it shows comes from the admin API.
    { prefix: CONSOLE_PATH, credential: "public" },
  ],
  // Generation is paid by the operator (docs/content.md says why these figures).
  hourlyLimits: { "content-article": 20, "content-skills": 500 },
  credentials: { "tenant-key": authenticateTenantKey, member: authenticateMember },
  securitySchemes: {
    ConsoleSession: {
      type: "apiKey",
      in: "cookie",
      name: "gw_console",
      description: "The admin console's session cookie (POST /admin/api/session); writes add X-CSRF-Token",
    },
    TenantKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "A tenant API key, svc_tk_…, for the content API (group C)" },
    TenantBearer: { type: "http", scheme: "bearer", description: "A tenant API key, svc_tk_…, as `Authorization: Bearer` (what MCP clients send)" },
  },
  hostSites: { siteFor: (c) => siteIdForHost(c.get("db"), c.env, new URL(c.req.url).host), serve: serveSite, unclaimed: unclaimedHostPage },
  bodyLimits: { [`${ADMIN_BASE_PATH}/tenants/*/media`]: MAX_MEDIA_BYTES, [`${ADMIN_BASE_PATH}/tenants/*/sites/*/themes`]: MAX_THEME_ZIP_BYTES },
  mount: "/",
  settings: contentSettings,
  // Contents in the Trash for more than 30 days are deleted for good, files of abandoned theme
  // versions and media uploads removed, and each audit log cut to its newest entries, in the small
  // hours with the other daily upkeep.
  tasks: [
    { name: "content-trash", cron: "15 2 * * *", run: purgeTrash },
    { name: "content-storage", cron: "15 2 * * *", run: cleanUpStorage },
    { name: "content-audit", cron: "15 2 * * *", run: pruneAuditLogs },
  ],
  router: (): OpenAPIHono<AppEnv> => {
    const router = createRouter();
    router.route("/", mcpRoutes());
    router.route("/", headlessRoutes());
    router.route(SKILLS_BASE_PATH, skillsRoutes());
    router.route(ADMIN_BASE_PATH, adminRoutes());
    router.route("/media", mediaRoutes());
    router.route(CONSOLE_PATH, consoleRoutes());
    return router;
  },
};
