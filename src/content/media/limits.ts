// No imports: the admin console bundles this too, to refuse a file the service would refuse before sending it.

/** The largest file a site's media takes. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** The types a site's media takes (the service knows each by its first bytes); SVG is left out: it can carry script. */
export const MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
// The cast widens the tuple for `includes`, which a literal tuple only takes its own members in.
export const isMediaType = (type: string): type is MediaType => (MEDIA_TYPES as readonly string[]).includes(type);

/** Those types as a person names them. */
export const MEDIA_TYPES_IN_WORDS = "PNG, JPEG, GIF and WebP images and PDF files";

/** The longest file name kept with a file. */
export const MAX_MEDIA_NAME_CHARACTERS = 200;

/** A file's name cut to what is kept, its extension kept: a person cannot rename a file on its way out of their browser. */
export function keptFileName(name: string): string {
  if (name.length <= MAX_MEDIA_NAME_CHARACTERS) return name;
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? "";
  return `${name.slice(0, MAX_MEDIA_NAME_CHARACTERS - extension.length - 1)}…${extension}`;
}

/** The files one site's media keep: its list (the Media screen, the cover's picker) is answered whole. */
export const MAX_MEDIA_FILES_PER_SITE = 5_000;

/** What the files of all a tenant's sites may take together, unless MEDIA_BYTES_PER_TENANT says otherwise: 1 GB. */
export const DEFAULT_MEDIA_BYTES_PER_TENANT = 1024 * 1024 * 1024;

/** A size as people read it, in the units the upload limit is written in (1 MB = 1,024 KB): "0 KB", "640 KB", "12.5 MB", "1 GB". */
export function storageSize(bytes: number): string {
  const units = ["KB", "MB", "GB", "TB"] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  // A few bytes are 1 KB, not 0: nothing is 0 KB.
  const shown = unit === 0 ? (bytes === 0 ? 0 : Math.max(1, Math.round(value))) : Math.round(value * 10) / 10;
  return `${shown.toLocaleString("en-US")} ${units[unit]}`;
}
