import { z } from "@hono/zod-openapi";
import type { GroupModule } from "../platform/group";
import { createRouter } from "../platform/openapi";

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
  router: () =>
    createRouter().openapi(
      {
        method: "get",
        path: "/health",
        tags: ["Service"],
        summary: "Liveness and build version (no authentication)",
        responses: {
          200: {
            description: "The service is up",
            content: { "application/json": { schema: z.object({ status: z.literal("ok"), version: z.string() }) } },
          },
        },
      },
      (c) => c.json({ status: "ok" as const, version: c.env.BUILD_VERSION }, 200),
    ),
};
