import { z } from "@hono/zod-openapi";
import type { GroupModule } from "../platform/group";
import { createRouter } from "../platform/openapi";
import { countsAsRequest } from "../platform/mcp/endpoint";
import { defineRoutes, type Envelope } from "../platform/route";
import { authenticateDataKeyWithSecret, DATA_MCP_PATH, dataMcpRoutes } from "./data-mcp";

/** /health answers its body as it is and documents no error. */
const BARE_ENVELOPE: Envelope<never> = { wrap: (data) => data, schema: (data) => data, errors: () => ({}) };

function serviceRoutes() {
  const router = createRouter();
  const route = defineRoutes(router, BARE_ENVELOPE, { tags: ["Service"], errors: [] });
  route({
    method: "get",
    path: "/health",
    summary: "Liveness and build version (no authentication)",
    data: z.object({ status: z.literal("ok"), version: z.string().openapi({ example: "2026.11.26-e7ce566" }) }),
    answer: "The service is up",
    handle: async (c) => ({ status: "ok" as const, version: c.env.BUILD_VERSION }),
  });
  // The reference's page is made with the document (app.ts); its style and script are static assets.
  router.get("/docs/*", (c) => c.env.ASSETS.fetch(c.req.raw));
  dataMcpRoutes(router);
  return router;
}

/** What the service says of itself, with no credential: liveness, the API document, its docs page. */
export const service: GroupModule = {
  name: "service",
  title: "service health",
  surfaces: [],
  access: [
    { prefix: "/health", credential: "public" },
    { prefix: "/openapi.json", credential: "public" },
    { prefix: "/docs", credential: "public" },
    // Any active data key opens it: each tool call is checked and counted as the route it calls.
    { prefix: DATA_MCP_PATH, exact: true, credential: "data-key-secret", counts: countsAsRequest },
  ],
  credentials: { "data-key-secret": authenticateDataKeyWithSecret },
  mount: "/",
  router: serviceRoutes,
};
