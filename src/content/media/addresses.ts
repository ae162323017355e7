/**
 * A media file's address is site-relative, `/media/<tenant>/<site>/<file>`: the same path on the
 * service's host (the console) and on every host of the site, so a stored address stays right
 * when the site changes domain. Absolute addresses are made at render time, from the site's origin.
 */

/** A file of a site's folder: 20 random base62 characters (a resized copy adds `-<width>w`) and the type's extension. */
export const MEDIA_FILE = /^[0-9A-Za-z]{20}(?:-[0-9]{2,4}w)?\.(?:png|jpg|gif|webp|pdf)$/;

export const mediaUrl = (key: string) => `/media/${key}`;

/** The R2 key an address names, when it is a file of that site; undefined for anything else. */
export function mediaKeyOf(address: unknown, site: { tenantId: number; id: number }): string | undefined {
  if (typeof address !== "string") return undefined;
  const prefix = `/media/${site.tenantId}/${site.id}/`;
  if (!address.startsWith(prefix) || !MEDIA_FILE.test(address.slice(prefix.length))) return undefined;
  return address.slice("/media/".length);
}

/**
 * The text with every absolute address of the site's own media (`http(s)://<any host>/media/<tenant>/<site>/<file>`,
 * as pasted from the console) made site-relative. The file names are random: a path naming one is this site's file
 * whatever host was written before it.
 */
export function siteRelativeMedia(text: string, tenantId: number, siteId: number): string;
export function siteRelativeMedia(text: string | null | undefined, tenantId: number, siteId: number): string | null | undefined;
export function siteRelativeMedia(text: string | null | undefined, tenantId: number, siteId: number) {
  if (!text?.includes("/media/")) return text;
  const absolute = new RegExp(
    `https?://[A-Za-z0-9.:-]{1,253}(/media/${tenantId}/${siteId}/[0-9A-Za-z]{20}(?:-[0-9]{2,4}w)?\\.(?:png|jpg|gif|webp|pdf))`,
    "g",
  );
  return text.replace(absolute, "$1");
}
