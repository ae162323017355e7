import { z } from "@hono/zod-openapi";
import type { GroupModule } from "../platform/group";
import { createRouter } from "../platform/openapi";
import { defineRoutes, type Envelope } from "../platform/route";

/** The API reference: Swagger UI on /openapi.json, every file served by the Worker (public/docs). */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Edge gateway API</title>
<link rel="stylesheet" href="/docs/vendor/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/vendor/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

/** /health answers its body as it is and documents no error. */
const BARE_ENVELOPE: Envelope<never> = { wrap: (data) => data, schema: (data) => data, errors: () => ({}) };

function serviceRoutes() {
  const router = createRouter();
  const route = defineRoutes(router, BARE_ENVELOPE, { tags: ["Service"], errors: [] });
  route({
    method: "get",
    path: "/health",
    summary: "Liveness and build version (no authentication)",
    data: z.object({ status: z.literal("ok"), version: z.string() }),
    answer: "The service is up",
    handle: async (c) => ({ status: "ok" as const, version: c.env.BUILD_VERSION }),
  });
  // The docs page is HTML and its files are static: neither is an operation of the API document.
  router.get("/docs", (c) => c.html(DOCS_PAGE));
  // Static assets are served before the Worker runs; this answers when a request reaches it anyway.
  router.get("/docs/*", (c) => c.env.ASSETS.fetch(c.req.raw));
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
  ],
  mount: "/",
  router: serviceRoutes,
};
