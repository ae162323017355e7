import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../platform/env";
import type { GroupModule } from "../platform/group";
import { createRouter } from "../platform/openapi";
import { ADMIN_BASE_PATH, adminRoutes } from "./admin-routes";
import { headlessRoutes } from "./headless-routes";
import { authenticateTenantKey } from "./tenant-keys";

/** C · Content delivery: the headless API for tenant keys (C1–C4) and the admin API for tenant members. */
export const content: GroupModule = {
  name: "content",
  title: "C content delivery",
  surfaces: [
    { prefix: "/api/mcp", envelope: "tenant" },
    { prefix: ADMIN_BASE_PATH, envelope: "tenant" },
  ],
  access: [
    { prefix: "/api/mcp", credential: "tenant-key", resource: "content" },
    // Members' roles are checked per tenant by the admin routes; the session proves who they are.
    { prefix: ADMIN_BASE_PATH, credential: "session" },
  ],
  credentials: { "tenant-key": authenticateTenantKey },
  mount: "/",
  router: (): OpenAPIHono<AppEnv> => {
    const router = createRouter();
    router.route("/", headlessRoutes());
    router.route(ADMIN_BASE_PATH, adminRoutes());
    return router;
  },
};
