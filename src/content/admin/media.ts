import { z } from "@hono/zod-openapi";
import type { Bindings } from "../../platform/env";
import { idParam } from "../../platform/openapi";
import { settingsOf } from "../../platform/settings";
import { DEFAULT_MEDIA_BYTES_PER_TENANT, MAX_MEDIA_FILES_PER_SITE } from "../media/limits";
import { deleteMedia, describeMedia, MAX_MEDIA_BYTES, mediaOf, uploadMedia } from "../media/service";
import { MAX_MEDIA_NAME_CHARACTERS, MEDIA_TYPES } from "../media/limits";
import { contentSettings } from "../settings";
import { queryInteger } from "../params";
import { media } from "../schema";
import { type AdminRoute, as } from "./guard";
import { deleted, inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";

const mediaSchema = rowAnswer(createSelectSchema(media), "MediaRecord", {
  id: 7,
  tenantId: 1,
  siteId: 1,
  key: "1/1/Hb7Qx2Lp9Vb4Nc8Rt1Yz.jpg",
  filename: "harbour.jpg",
  contentType: "image/jpeg",
  size: 482113,
  width: 1600,
  height: 1067,
  variantWidths: [480, 960],
  altText: "The harbour at dawn, fishing boats along the quay",
  uploadedBy: 1,
  createdAt: "2026-11-26T08:10:00.000Z",
})
  .extend({ url: z.string() })
  .openapi("Media");

/** What the media of all a tenant's sites may take. */
export const mediaRoomOf = (env: Bindings) => settingsOf(env, contentSettings).MEDIA_BYTES_PER_TENANT ?? DEFAULT_MEDIA_BYTES_PER_TENANT;

/** An uploaded file's name as its uploader gave it: no path, no control characters. */
const fileName = z
  .string()
  .min(1)
  .max(MAX_MEDIA_NAME_CHARACTERS, { error: `filename must be at most ${MAX_MEDIA_NAME_CHARACTERS} characters` })
  .refine((name) => !/[/\\]/.test(name) && [...name].every((ch) => ch >= " "), {
    error: "filename must be a file name, without slashes or control characters",
  });

const mediaUpdate = z.strictObject({
  altText: z.string().max(300, { error: "The description must be at most 300 characters" }).nullable().openapi({
    description: "What the image shows, for readers who cannot see it (its alt); null or empty: none",
    example: "The harbour at dawn, fishing boats along the quay",
  }),
});

/** A site's images and files: listed, uploaded, described, deleted. */
export function mediaLibraryRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/media",
    summary: "A site's images and files",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(mediaSchema),
    answer: "Media",
    handle: async (c, scope) => mediaOf(c.get("db"), scope, c.req.valid("param").siteId),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/media",
    summary: `Upload an image or PDF, the file itself as the body, at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`,
    guard: as("author"),
    request: {
      ...tenantPath,
      query: z.strictObject({ siteId: queryInteger("siteId", 1, 1e12), filename: fileName }),
      body: { required: true, content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }])) },
    },
    data: mediaSchema,
    answer: "Stored",
    status: 201,
    errors: [409, 413, 415],
    description:
      "Refused (409) when the tenant's files would pass its storage (MEDIA_BYTES_PER_TENANT, default 1 GB; `GET /tenants/{tenantId}/storage`), " +
      `or the site already keeps ${MAX_MEDIA_FILES_PER_SITE.toLocaleString("en-US")} files.`,
    handle: async (c, scope) => {
      const { siteId, filename } = c.req.valid("query");
      const contentType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const quotaBytes = mediaRoomOf(c.env);
      return uploadMedia(c.get("db"), { bucket: c.env.MEDIA, images: c.env.IMAGES }, scope, scope.userId, {
        siteId,
        filename,
        contentType,
        bytes,
        quotaBytes,
      });
    },
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/media/{id}",
    summary: "Describe an image: what it shows, in words",
    description: "The words are what the image's Markdown on the Media screen, and a cover chosen from Media, start with as its alt text.",
    guard: as("author"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(mediaUpdate) },
    data: mediaSchema,
    answer: "The image, described",
    handle: async (c, scope) => describeMedia(c.get("db"), scope, c.req.valid("param").id, c.req.valid("json").altText),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/media/{id}",
    summary: "Delete an image or file",
    description: "Refused (409) while a content's cover or text, the site's social image or favicon, or an image ad still shows it.",
    guard: as("editor"),
    errors: [409],
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteMedia(c.get("db"), c.env.MEDIA, scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
}
