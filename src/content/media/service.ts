import { and, desc, eq, inArray, isNull, notExists, or, type SQL, sql } from "drizzle-orm";
import { randomBase62 } from "../../platform/crypto";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { ads, contents, media, mediaUploads, sites } from "../schema";
import { mediaKeyOf, mediaUrl } from "./addresses";
import { type Dimensions, imageDimensions, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from "./dimensions";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { isMediaType, MAX_MEDIA_FILES_PER_SITE, MEDIA_TYPES, MEDIA_TYPES_IN_WORDS, type MediaType, storageSize } from "./limits";

export { MAX_MEDIA_BYTES } from "./limits";

/** Each type a site may upload (limits.ts), known by its first bytes. */
const SIGNATURES: Record<MediaType, { ext: string; name: string; matches: (b: Uint8Array) => boolean }> = {
  "image/png": { ext: "png", name: "a PNG image", matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x) },
  "image/jpeg": { ext: "jpg", name: "a JPEG image", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  "image/gif": {
    ext: "gif",
    name: "a GIF image",
    matches: (b) => String.fromCharCode(...b.slice(0, 6)) === "GIF89a" || String.fromCharCode(...b.slice(0, 6)) === "GIF87a",
  },
  "image/webp": {
    ext: "webp",
    name: "a WebP image",
    matches: (b) => String.fromCharCode(...b.slice(0, 4)) === "RIFF" && String.fromCharCode(...b.slice(8, 12)) === "WEBP",
  },
  "application/pdf": { ext: "pdf", name: "a PDF file", matches: (b) => String.fromCharCode(...b.slice(0, 5)) === "%PDF-" },
};

/** The widths of the resized copies made of an image wider than each (`srcset`): a phone, a column, a wide screen. */
export const VARIANT_WIDTHS = [480, 960, 1600] as const;
/** Resized copies are WebP (smaller than PNG and JPEG, keeps transparency); a GIF keeps its animation and gets none. */
const RESIZED_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);

/** The R2 key of an image's resized copy of that width. */
export const variantKey = (key: string, width: number) => `${key.replace(/\.[a-z]+$/, "")}-${width}w.webp`;

/** An image's size as its header declares it, refused before anything decodes it when a browser could not show it. */
function checkedDimensions(bytes: Uint8Array, contentType: string): Dimensions | undefined {
  if (contentType === "application/pdf") return undefined;
  const size = imageDimensions(bytes, contentType);
  if (!size) throw new ApiError(400, `The image's width and height cannot be read: is it a whole ${contentType} file?`);
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS)
    throw new ApiError(
      400,
      `The image is ${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_SIDE} on a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
    );
  return size;
}

/**
 * Resized copies through the Images binding, stored beside the original; the widths that were made.
 * A copy that fails is left out (the page then offers fewer sizes), never the upload.
 */
async function storeVariants(
  images: ImagesBinding | undefined,
  bucket: R2Bucket,
  key: string,
  bytes: Uint8Array,
  contentType: string,
  width: number,
) {
  if (!images || !RESIZED_TYPES.has(contentType)) return [];
  const made: number[] = [];
  for (const target of VARIANT_WIDTHS.filter((w) => w < width)) {
    try {
      const input = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      const output = await images.input(input).transform({ width: target }).output({ format: "image/webp" });
      // R2 takes a stream only of a known length: the copy is read whole (it is smaller than the original).
      await bucket.put(variantKey(key, target), await output.response().arrayBuffer(), { httpMetadata: { contentType: "image/webp" } });
      made.push(target);
    } catch {
      break;
    }
  }
  return made;
}

/** What the files of all a tenant's sites take together, in bytes (their own sizes; the resized copies are not counted). */
export async function mediaBytesOf(db: Database, tenantId: number): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${media.size}), 0)` })
    .from(media)
    .where(eq(media.tenantId, tenantId));
  return row!.used;
}

/** Why a file of `bytes` finds no room, in words, or undefined when it fits: the tenant's bytes, the site's count of files. */
async function noRoomFor(db: Database, scope: TenantScope, input: { siteId: number; filename: string; quotaBytes: number }, bytes: number) {
  const [room] = await db
    .select({
      usedBytes: sql<number>`coalesce(sum(${media.size}), 0)`,
      siteFiles: sql<number>`coalesce(sum(${media.siteId} = ${input.siteId}), 0)`,
    })
    .from(media)
    .where(eq(media.tenantId, scope.tenantId));
  const { usedBytes, siteFiles } = room!;
  if (usedBytes + bytes > input.quotaBytes) {
    return new ApiError(
      409,
      `${input.filename} would take the tenant's media past its ${storageSize(input.quotaBytes)} (${storageSize(usedBytes)} are used): delete files it no longer needs, or ask the operator for more room`,
    );
  }
  if (siteFiles >= MAX_MEDIA_FILES_PER_SITE) {
    return new ApiError(
      409,
      `A site keeps at most ${MAX_MEDIA_FILES_PER_SITE.toLocaleString("en-US")} files in its media: delete files it no longer needs first`,
    );
  }
  return undefined;
}

/**
 * Stores an upload in R2 under a random key, once its type, first bytes and declared size are right;
 * its resized copies; the row. The key is noted before anything is stored and the note goes in the
 * batch that writes the row: an object whose row failed, or never came (a crash), stays named for the
 * storage cleanup (storage-cleanup.ts).
 */
export async function uploadMedia(
  db: Database,
  storage: { bucket: R2Bucket; images?: ImagesBinding },
  scope: TenantScope,
  uploadedBy: number,
  input: { siteId: number; filename: string; contentType: string; bytes: Uint8Array; quotaBytes: number },
) {
  await siteInScope(db, scope, input.siteId);
  const signature = isMediaType(input.contentType) ? SIGNATURES[input.contentType] : undefined;
  if (!signature)
    throw new ApiError(
      415,
      `${input.filename} is not one of the files a site's media takes: ${MEDIA_TYPES_IN_WORDS} (Content-Type ${MEDIA_TYPES.join(", ")})`,
    );
  if (input.bytes.byteLength === 0) throw new ApiError(400, "The body is empty");
  if (!signature.matches(input.bytes))
    throw new ApiError(
      400,
      `${input.filename} is not ${signature.name}, as its type (${input.contentType}) says: its bytes are another kind of file`,
    );
  const size = checkedDimensions(input.bytes, input.contentType);
  const bytes = input.bytes.byteLength;
  // Refused before anything is stored; the row's insert below checks again, for uploads made at the same moment.
  const refusal = await noRoomFor(db, scope, input, bytes);
  if (refusal) throw refusal;
  const key = `${scope.tenantId}/${input.siteId}/${randomBase62(20)}.${signature.ext}`;
  const { bucket } = storage;
  await db.insert(mediaUploads).values({ key, createdAt: new Date().toISOString() });
  await bucket.put(key, input.bytes, { httpMetadata: { contentType: input.contentType } });
  const variantWidths = size ? await storeVariants(storage.images, bucket, key, input.bytes, input.contentType, size.width) : [];
  const stored = [key, ...variantWidths.map((w) => variantKey(key, w))];
  let row: typeof media.$inferSelect | undefined;
  try {
    // The row only while the tenant's files stay within the quota and the site's count; the upload's note goes only with a row, so that
    // the cleanup removes the objects of a refused one should the delete below fail.
    const [, , rows] = await db.batch([
      // The columns are the table's, in its order: id, tenant_id, site_id, key, filename, content_type, size, width,
      // height, variant_widths, alt_text, uploaded_by, created_at.
      db.insert(media).select(
        sql`SELECT NULL, ${scope.tenantId}, ${input.siteId}, ${key}, ${input.filename}, ${input.contentType}, ${bytes}, ${size?.width ?? null},
          ${size?.height ?? null}, ${JSON.stringify(variantWidths)}, NULL, ${uploadedBy}, ${new Date().toISOString()}
          WHERE (SELECT coalesce(sum(${media.size}), 0) FROM ${media} WHERE ${media.tenantId} = ${scope.tenantId}) + ${bytes} <= ${input.quotaBytes}
            AND (SELECT count(*) FROM ${media} WHERE ${media.siteId} = ${input.siteId}) < ${MAX_MEDIA_FILES_PER_SITE}`,
      ),
      db.delete(mediaUploads).where(and(eq(mediaUploads.key, key), sql`EXISTS (SELECT 1 FROM ${media} WHERE ${media.key} = ${key})`)),
      db.select().from(media).where(eq(media.key, key)),
    ]);
    row = rows[0];
  } catch (error) {
    // No object without its row: removed now, or, if R2 fails too, by the cleanup that its note calls for.
    await bucket.delete(stored).catch(() => undefined);
    throw error;
  }
  if (!row) {
    // Refused at the last moment: its objects go now, and its note with them (kept for the cleanup should R2 fail).
    await bucket.delete(stored).then(
      () => db.delete(mediaUploads).where(eq(mediaUploads.key, key)),
      () => undefined,
    );
    throw (await noRoomFor(db, scope, input, bytes)) ?? new ApiError(409, `No room was left for ${input.filename} as it was stored: try again`);
  }
  return { ...row, url: mediaUrl(key) };
}

/**
 * The width and height of the site's images a text names (a body's Markdown), looked up at once:
 * for the `<img>` a save renders.
 */
export async function imageSizesIn(db: Database, tenantId: number, siteId: number, text: string): Promise<(src: string) => Dimensions | undefined> {
  const site = { tenantId, id: siteId };
  const keys = [...new Set((text.match(/\/media\/[0-9]+\/[0-9]+\/[0-9A-Za-z.-]+/g) ?? []).map((address) => mediaKeyOf(address, site)))]
    .filter((key): key is string => key !== undefined)
    .slice(0, 500);
  const sizes = new Map<string, Dimensions>();
  // D1 binds at most 100 parameters a statement.
  for (let i = 0; i < keys.length; i += 90) {
    const rows = await db
      .select({ key: media.key, width: media.width, height: media.height })
      .from(media)
      .where(and(eq(media.tenantId, tenantId), eq(media.siteId, siteId), inArray(media.key, keys.slice(i, i + 90))));
    for (const row of rows) if (row.width && row.height) sizes.set(row.key, { width: row.width, height: row.height });
  }
  return (src) => sizes.get(mediaKeyOf(src, site) ?? "");
}

export async function mediaOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  const rows = await db
    .select()
    .from(media)
    .where(inTenant(media.tenantId, scope, eq(media.siteId, siteId)))
    .orderBy(desc(media.id));
  return rows.map((row) => ({ ...row, url: mediaUrl(row.key) }));
}

/** An image's words (its alt), which its Markdown and a cover taken from it start with; empty clears them. */
export async function describeMedia(db: Database, scope: TenantScope, id: number, altText: string | null) {
  const [row] = await db
    .update(media)
    .set({ altText: altText?.trim() || null })
    .where(inTenant(media.tenantId, scope, eq(media.id, id)))
    .returning();
  if (!row) throw new ApiError(404, `No media with id ${id}`);
  return { ...row, url: mediaUrl(row.key) };
}

type StoredFile = { id: number; siteId: number; key: string; filename: string };

/** Where a file is shown: live contents (cover or body), its site's social image or favicon, image ads. A content in the Trash does not count: it is restored without its images' files. */
function showing(scope: TenantScope, file: StoredFile) {
  const url = mediaUrl(file.key);
  return {
    url,
    contents: inTenant(
      contents.tenantId,
      scope,
      eq(contents.siteId, file.siteId),
      isNull(contents.deletedAt),
      or(sql`instr(coalesce(${contents.coverImages}, ''), ${url}) > 0`, sql`instr(${contents.bodyMarkdown}, ${url}) > 0`),
    ),
    site: and(eq(sites.id, file.siteId), or(eq(sites.seoImage, url), eq(sites.favicon, url))),
    ads: inTenant(ads.tenantId, scope, eq(ads.mediaId, file.id)),
  };
}

/** What still shows a file, in people's words, or undefined: a deleted file would leave a broken image there. */
async function mediaUses(db: Database, scope: TenantScope, file: StoredFile) {
  const where = showing(scope, file);
  const [shown, [site], [ad]] = await db.batch([
    db.select({ title: contents.title }).from(contents).where(where.contents).limit(3),
    db.select({ seoImage: sites.seoImage, favicon: sites.favicon }).from(sites).where(where.site),
    db.select({ id: ads.id }).from(ads).where(where.ads).limit(1),
  ]);
  const uses = [
    ...shown.map((content) => `“${content.title}”`),
    ...(site?.seoImage === where.url ? ["the site's social image (Settings)"] : []),
    ...(site?.favicon === where.url ? ["the site's favicon (Settings)"] : []),
    ...(ad ? ["an image ad (Ads)"] : []),
  ];
  return uses.length ? `${file.filename} is still shown by ${uses.join(", ")}: remove it there first, then delete it` : undefined;
}

/**
 * A file no content, setting or ad shows any more is deleted with its resized copies; one still
 * shown is refused (409). The check is the delete's own condition: a content saved with the file
 * meanwhile keeps it.
 */
export async function deleteMedia(db: Database, bucket: R2Bucket, scope: TenantScope, id: number) {
  const [file] = await db
    .select()
    .from(media)
    .where(inTenant(media.tenantId, scope, eq(media.id, id)));
  if (!file) throw new ApiError(404, `No media with id ${id}`);
  const where = showing(scope, file);
  const noneIn = (table: typeof contents | typeof sites | typeof ads, condition: SQL | undefined) =>
    notExists(
      db
        .select({ one: sql`1` })
        .from(table)
        .where(condition),
    );
  const [row] = await db
    .delete(media)
    .where(
      and(inTenant(media.tenantId, scope, eq(media.id, id)), noneIn(contents, where.contents), noneIn(sites, where.site), noneIn(ads, where.ads)),
    )
    .returning();
  if (!row) {
    // Nothing deleted: the file is shown somewhere, or another request deleted it first.
    const uses = await mediaUses(db, scope, file);
    throw uses ? new ApiError(409, uses) : new ApiError(404, `No media with id ${id}`);
  }
  await bucket.delete([row.key, ...row.variantWidths.map((w) => variantKey(row.key, w))]);
}

/**
 * A stored file for the public: its own type (an upload type only: anything else is bytes to
 * download, never a page or a script), never sniffed, never active (no script, no
 * plugin, even opened on its own), cached for good (keys are never reused, so a file never changes).
 * A matching `If-None-Match` is a 304.
 */
export async function servedMedia(bucket: R2Bucket, key: string, request: Request): Promise<Response | undefined> {
  const object = await bucket.get(key, { onlyIf: request.headers });
  if (!object) return undefined;
  const stored = object.httpMetadata?.contentType ?? "";
  const contentType = isMediaType(stored) ? stored : "application/octet-stream";
  const headers = {
    "Content-Type": contentType,
    "Content-Disposition": contentType.startsWith("image/") ? "inline" : "attachment",
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "X-Content-Type-Options": "nosniff",
    ETag: object.httpEtag,
  };
  // Without a body the precondition failed: the caller holds this very file.
  if (!("body" in object)) return new Response(null, { status: 304, headers });
  return new Response(object.body, { headers });
}
