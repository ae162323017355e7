import { desc, eq } from "drizzle-orm";
import { randomBase62 } from "../../platform/crypto";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { media } from "../schema";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";

export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** The types a site may upload, each known by its first bytes. SVG is left out: it can carry script. */
const SIGNATURES: Record<string, { ext: string; matches: (b: Uint8Array) => boolean }> = {
  "image/png": { ext: "png", matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x) },
  "image/jpeg": { ext: "jpg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  "image/gif": {
    ext: "gif",
    matches: (b) => String.fromCharCode(...b.slice(0, 6)) === "GIF89a" || String.fromCharCode(...b.slice(0, 6)) === "GIF87a",
  },
  "image/webp": {
    ext: "webp",
    matches: (b) => String.fromCharCode(...b.slice(0, 4)) === "RIFF" && String.fromCharCode(...b.slice(8, 12)) === "WEBP",
  },
  "application/pdf": { ext: "pdf", matches: (b) => String.fromCharCode(...b.slice(0, 5)) === "%PDF-" },
};
export const MEDIA_TYPES = Object.keys(SIGNATURES);

/** Stores an upload in R2 under a random key, once its type and first bytes agree; the row and the object together. */
export async function uploadMedia(
  db: Database,
  bucket: R2Bucket,
  scope: TenantScope,
  uploadedBy: number,
  input: { siteId: number; filename: string; contentType: string; bytes: Uint8Array },
) {
  await siteInScope(db, scope, input.siteId);
  const signature = SIGNATURES[input.contentType];
  if (!signature) throw new ApiError(415, `Content-Type must be one of ${MEDIA_TYPES.join(", ")}`);
  if (input.bytes.byteLength === 0) throw new ApiError(400, "The body is empty");
  if (!signature.matches(input.bytes)) throw new ApiError(400, `The body is not a ${input.contentType} file`);
  const key = `${scope.tenantId}/${input.siteId}/${randomBase62(20)}.${signature.ext}`;
  await bucket.put(key, input.bytes, { httpMetadata: { contentType: input.contentType } });
  try {
    const [row] = await db
      .insert(media)
      .values({
        tenantId: scope.tenantId,
        siteId: input.siteId,
        key,
        filename: input.filename,
        contentType: input.contentType,
        size: input.bytes.byteLength,
        uploadedBy,
      })
      .returning();
    return { ...row!, url: mediaUrl(key) };
  } catch (error) {
    // No object without its row.
    await bucket.delete(key);
    throw error;
  }
}

export const mediaUrl = (key: string) => `/media/${key}`;

export async function mediaOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  const rows = await db
    .select()
    .from(media)
    .where(inTenant(media.tenantId, scope, eq(media.siteId, siteId)))
    .orderBy(desc(media.id));
  return rows.map((row) => ({ ...row, url: mediaUrl(row.key) }));
}

export async function deleteMedia(db: Database, bucket: R2Bucket, scope: TenantScope, id: number) {
  const [row] = await db
    .delete(media)
    .where(inTenant(media.tenantId, scope, eq(media.id, id)))
    .returning();
  if (!row) throw new ApiError(404, `No media with id ${id}`);
  await bucket.delete(row.key);
}

/** A stored file for the public: its own type, never sniffed, cached for good (keys are never reused). */
export async function servedMedia(bucket: R2Bucket, key: string): Promise<Response | undefined> {
  const object = await bucket.get(key);
  if (!object) return undefined;
  const contentType = object.httpMetadata?.contentType ?? "application/octet-stream";
  return new Response(object.body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": contentType === "application/pdf" ? "attachment" : "inline",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      ETag: object.httpEtag,
    },
  });
}
