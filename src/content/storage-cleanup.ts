import { and, eq, inArray, lt, notExists } from "drizzle-orm";
import { database } from "../platform/database";
import type { Bindings } from "../platform/env";
import type { Logger } from "../platform/logging";
import { VARIANT_WIDTHS, variantKey } from "./media/service";
import { media, mediaUploads, themeVersions } from "./schema";
import { removeFiles, themePrefix } from "./sites/themes";

/** How long a theme version not live, or a media upload without its row, is left alone: an upload in flight, a page served from a replaced version. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;
/** Theme versions removed per run (each a listing and a delete or two of R2); the rest wait for the next day. */
const THEME_VERSIONS_PER_RUN = 20;
/** Media uploads removed per run: their objects go in one R2 delete of at most 1,000 keys. */
const MEDIA_UPLOADS_PER_RUN = 200;

/**
 * The daily storage cleanup (cron): the files of theme versions that are not live (an upload that
 * failed or was replaced, a deleted theme) and the R2 objects of media uploads whose row was never
 * written, once they are an hour old. A version in use is live and never removed; an upload in
 * flight is younger than the hour.
 */
export async function cleanUpStorage(env: Bindings, log: Logger, now = Date.now()): Promise<{ themeVersions: number; mediaObjects: number }> {
  const db = database(env);
  const cutoff = new Date(now - ABANDONED_AFTER_MS).toISOString();
  const versions = await db
    .select()
    .from(themeVersions)
    .where(and(eq(themeVersions.live, false), lt(themeVersions.updatedAt, cutoff)))
    .limit(THEME_VERSIONS_PER_RUN);
  for (const version of versions) {
    await removeFiles(env.THEMES, themePrefix(version.siteId, version.name, version.version));
    // Its row goes once its files are gone: a failure on the way leaves it for the next run.
    await db.delete(themeVersions).where(and(eq(themeVersions.id, version.id), eq(themeVersions.live, false)));
  }
  const uploads = await db
    .select({ key: mediaUploads.key })
    .from(mediaUploads)
    .where(and(lt(mediaUploads.createdAt, cutoff), notExists(db.select({ id: media.id }).from(media).where(eq(media.key, mediaUploads.key)))))
    .limit(MEDIA_UPLOADS_PER_RUN);
  if (uploads.length) {
    const keys = uploads.map((upload) => upload.key);
    await env.MEDIA.delete(keys.flatMap((key) => [key, ...VARIANT_WIDTHS.map((width) => variantKey(key, width))]));
    await db.delete(mediaUploads).where(inArray(mediaUploads.key, keys));
  }
  if (versions.length + uploads.length > 0) log.info({ task: "content-storage", themeVersions: versions.length, mediaObjects: uploads.length });
  return { themeVersions: versions.length, mediaObjects: uploads.length };
}
