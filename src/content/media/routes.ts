import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { createRouter, describedTenantErrors } from "../../platform/openapi";
import { MEDIA_FILE } from "./addresses";
import { servedMedia } from "./service";
import { CONTENT_ERROR_TEXTS } from "../error-texts";

const route = createRoute({
  tags: ["C · Content delivery"],
  method: "get",
  path: "/{tenantId}/{siteId}/{file}",
  summary:
    "A site's image or file, as uploaded, or an image's resized copy (public; the key is random). Each site's own host serves its files at the same path",
  request: {
    params: z.object({
      tenantId: z.string().regex(/^\d{1,15}$/, { error: "tenantId must be an integer" }),
      siteId: z.string().regex(/^\d{1,15}$/, { error: "siteId must be an integer" }),
      file: z.string().regex(MEDIA_FILE, { error: "not a media file name" }).openapi({ example: "Hb7Qx2Lp9Vb4Nc8Rt1Yz.jpg" }),
    }),
  },
  responses: {
    200: {
      description: "The file, `Cache-Control: immutable` with its `ETag`",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    },
    304: { description: "The caller's copy (`If-None-Match`) is this file" },
    ...describedTenantErrors([400, 404], CONTENT_ERROR_TEXTS),
  },
});

export function mediaRoutes() {
  const router = createRouter();
  router.openapi(route, async (c) => {
    const { tenantId, siteId, file } = c.req.valid("param");
    const served = await servedMedia(c.env.MEDIA, `${tenantId}/${siteId}/${file}`, c.req.raw);
    if (!served) throw new ApiError(404, "No such file");
    return served;
  });
  return router;
}
