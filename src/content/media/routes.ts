import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { createRouter, describedTenantErrors } from "../../platform/openapi";
import { servedMedia } from "./service";
import { CONTENT_ERROR_TEXTS } from "../error-texts";

const route = createRoute({
  tags: ["C · Content delivery"],
  method: "get",
  path: "/{tenantId}/{siteId}/{file}",
  summary: "A site's image or file, as uploaded (public; the key is random)",
  request: {
    params: z.object({
      tenantId: z.string().regex(/^\d{1,15}$/, { error: "tenantId must be an integer" }),
      siteId: z.string().regex(/^\d{1,15}$/, { error: "siteId must be an integer" }),
      file: z.string().regex(/^[0-9A-Za-z]{20}\.(png|jpg|gif|webp|pdf)$/, { error: "not a media file name" }),
    }),
  },
  responses: {
    200: {
      description: "The file, `Cache-Control: immutable`",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    },
    ...describedTenantErrors([400, 404], CONTENT_ERROR_TEXTS),
  },
});

export function mediaRoutes() {
  const router = createRouter();
  router.openapi(route, async (c) => {
    const { tenantId, siteId, file } = c.req.valid("param");
    const served = await servedMedia(c.env.MEDIA, `${tenantId}/${siteId}/${file}`);
    if (!served) throw new ApiError(404, "No such file");
    return served;
  });
  return router;
}
