import type { BatchItem } from "drizzle-orm/batch";
import { and, eq, sql } from "drizzle-orm";
import { ApiError } from "../../platform/errors";
import { hmacSha256Hex } from "../../platform/crypto";
import type { Database } from "../../platform/database";
import { storageSize } from "../media/limits";
import { MAX_UNPACKED_BYTES } from "./theme-limits";
import { sites, themeVersions } from "../schema";
import { measureRoom, withinRooms } from "../tenancy/rooms";
import { dateFormat } from "./languages";
import { readableTemplateError, TemplateLimitError, templateSet } from "./templates";
import { listAll, liveVersion, makeLive, newThemeVersion, STARTER_THEME_PREFIX, themePrefix } from "./themes";

export const MAX_THEME_ZIP_BYTES = 20 * 1024 * 1024;
const MAX_FILES = 2000;
/** One file unpacked, at most: the upload holds one at a time beside the zip, well inside an isolate's 128 MB. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const FOLDERS = ["layouts", "templates", "assets", "locales"];
const EXTENSIONS = new Set(["j2", "css", "js", "png", "jpg", "jpeg", "gif", "webp", "svg", "woff", "woff2", "ico", "json"]);
const REQUIRED = ["templates/index.html.j2", "templates/404.html.j2"];
/** The names a template refers to: extends, include, import and from … import, as string literals. */
const REFERENCES = /\{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']/g;

const refuse = (message: string) => new ApiError(400, `The theme was not stored: ${message}`);
/** A failure while reading the zip: our own refusal as it is, anything else (a DataView past the end, fflate's) as a broken zip. */
const asRefusal = (error: unknown) => (error instanceof ApiError ? error : refuse("the file is not a zip"));

const sampleContent = {
  id: 1,
  title: "A title",
  slug: "a-title",
  url: "/a-title",
  intro: "An intro.",
  coverImages: "/media/1/1/AAAAAAAAAAAAAAAAAAAA.png",
  coverAlt: "A picture",
  publishAt: "2026-01-01T00:00:00.000Z",
  language: "en",
  tags: ["news"],
  categories: [{ id: 1, name: "News", slug: "news", url: "/c/news" }],
  tagLinks: [{ name: "news", url: "/tag/news" }],
  author: { name: "A. Writer" },
  readingMinutes: 1,
};
/** What a page's templates read (page-render.ts renderPage, docs/themes.md), with one of everything, for the upload's trial render. */
const SAMPLE_CONTEXT = {
  site: { id: 1, name: "Site", slug: "site", description: "A site.", languages: ["en"], defaultLanguage: "en" },
  page: {
    language: "en",
    path: "/",
    languages: [
      { code: "en", name: "English", url: "/", hasVersion: true, current: true },
      { code: "de", name: "Deutsch", url: "/de/", hasVersion: false, current: false },
    ],
  },
  seo: {
    title: "A title · Site",
    description: "A description.",
    canonical: "https://site.example/",
    noindex: false,
    image: null,
    imageAlt: null,
    jsonld: [{ "@type": "Article" }],
    alternates: [
      { hreflang: "en", href: "https://site.example/" },
      { hreflang: "de", href: "https://site.example/de/" },
      { hreflang: "x-default", href: "https://site.example/" },
    ],
  },
  menus: {
    main: [{ label: "Home", url: "/", children: [{ label: "Below", url: "/c/below", children: [] }] }],
    footer: [{ label: "About", url: "/about", children: [] }],
  },
  tags: {},
  ads: {},
  t: (key: string) => key,
  image: (address: unknown) =>
    typeof address === "string" && address ? { src: address, srcset: `${address} 1200w`, sizes: "100vw", width: 1200, height: 800 } : null,
  asset: (path: string) => `/themes/1/sample/${path}`,
  url_for: (name: string, slug?: string) => (name === "home" ? "/" : `/${slug ?? ""}`),
  format_date: dateFormat("en", "UTC"),
  contents: [sampleContent],
  pagination: { page: 1, pages: 1, total: 1, prev: null, next: null },
  page_base: "/?page=",
  category: { name: "News", slug: "news", description: "What happened" },
  content: { ...sampleContent, bodyHtml: "<p>A body.</p>", categories: [{ name: "News", slug: "news", url: "/c/news" }], translations: [] },
  tag: "news",
  query: "news",
  recent: [sampleContent],
};

/** What a path inside the zip must be: relative, inside one of the four folders, of an allowed type. */
function checkedPath(name: string): string {
  const path = name.replace(/^[^/]+\/(?=(layouts|templates|assets|locales)\/)/, "");
  if (
    path.startsWith("/") ||
    /^[a-z]:/i.test(path) ||
    path.includes("\\") ||
    path.split("/").some((part) => part === ".." || part === "." || part === "")
  ) {
    throw refuse(`${name}: paths must be relative and stay inside the theme`);
  }
  if (!FOLDERS.includes(path.split("/")[0]!)) throw refuse(`${name}: files belong in ${FOLDERS.join(", ")}`);
  const extension = path.split(".").at(-1)!.toLowerCase();
  if (!EXTENSIONS.has(extension)) throw refuse(`${name}: .${extension} files are not allowed in a theme`);
  return path;
}

/** A file as the zip's central directory declares it: where its data starts and how it is stored. */
type ZipEntry = { name: string; method: number; compressedSize: number; size: number; localHeader: number };

const ZIP64 = 0xffffffff;

/**
 * The files a zip's central directory lists, nothing inflated. Sizes and offsets above 4 GB come
 * from the zip64 extra field; a zip64 end record (more than 65,535 files) is not read.
 */
function centralDirectory(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end record is the last 22 bytes, followed by a comment of at most 65,535.
  let end = zip.length - 22;
  while (end >= 0 && end >= zip.length - 22 - 0xffff && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0 || view.getUint32(end, true) !== 0x06054b50) throw refuse("the file is not a zip");
  const entries: ZipEntry[] = [];
  let at = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    if (view.getUint32(at, true) !== 0x02014b50) throw refuse("the file is not a zip");
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: the name is UTF-8; otherwise each byte is one character, as fflate reads it.
    const name = view.getUint16(at + 8, true) & 0x800 ? new TextDecoder().decode(nameBytes) : String.fromCharCode(...nameBytes);
    const fields = [view.getUint32(at + 24, true), view.getUint32(at + 20, true), view.getUint32(at + 42, true)];
    for (let extra = at + 46 + nameLength; extra < at + 46 + nameLength + extraLength; extra += 4 + view.getUint16(extra + 2, true)) {
      if (view.getUint16(extra, true) !== 1) continue;
      // The zip64 field holds, in this order, only the values whose 32-bit field is full.
      let value = extra + 4;
      for (let f = 0; f < fields.length; f++) {
        if (fields[f] !== ZIP64) continue;
        fields[f] = view.getUint32(value, true) + view.getUint32(value + 4, true) * 2 ** 32;
        value += 8;
      }
    }
    const [size = 0, compressedSize = 0, localHeader = 0] = fields;
    entries.push({ name, method: view.getUint16(at + 10, true), compressedSize, size, localHeader });
    at += 46 + nameLength + extraLength + view.getUint16(at + 32, true);
  }
  return entries;
}

/** How much compressed data one step inflates: at most about 1,032 times this comes out before the count is checked. */
const INFLATE_STEP = 4096;

/**
 * An entry's bytes, inflated step by step with their count checked against the size the zip
 * declares: a deflate stream that holds more stops there, not after gigabytes.
 */
async function unpacked(zip: Uint8Array, entry: ZipEntry): Promise<Uint8Array> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (view.getUint32(entry.localHeader, true) !== 0x04034b50) throw refuse("the file is not a zip");
  const start = entry.localHeader + 30 + view.getUint16(entry.localHeader + 26, true) + view.getUint16(entry.localHeader + 28, true);
  if (start + entry.compressedSize > zip.length) throw refuse("the file is not a zip");
  const data = zip.subarray(start, start + entry.compressedSize);
  const mismatch = (held: number) => refuse(`${entry.name} holds ${held} bytes, not the ${entry.size} it declares`);
  if (entry.method === 0) {
    if (data.length !== entry.size) throw mismatch(data.length);
    return data;
  }
  if (entry.method !== 8) throw refuse(`${entry.name}: only stored and deflated files can be read`);
  const { Inflate } = await import("fflate");
  const out = new Uint8Array(entry.size);
  let size = 0;
  const inflate = new Inflate((chunk) => {
    if (size + chunk.length > entry.size) throw refuse(`${entry.name} holds more than the ${entry.size} bytes it declares`);
    out.set(chunk, size);
    size += chunk.length;
  });
  let at = 0;
  do inflate.push(data.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= data.length);
  while ((at += INFLATE_STEP) < data.length);
  if (size !== entry.size) throw mismatch(size);
  return out;
}

/**
 * A theme zip, checked before anything is stored: at most 20 MB, 2,000 files, 60 MB unpacked and
 * 10 MB a file as declared, relative paths inside layouts/, templates/, assets/ and locales/,
 * allowed types only, the required templates present, every template parsing and every
 * extends/include/import resolving. The other files are unpacked one at a time as they are stored,
 * each held to the size the zip declares (counted as it is inflated).
 * Stored as a new version of the theme (themes.ts), which replaces the site's theme of that name in one
 * write once every file is stored: until then its pages show the version they showed.
 */
export async function uploadTheme(
  db: Database,
  bucket: R2Bucket,
  site: { id: number; tenantId: number },
  name: string,
  zip: Uint8Array,
  roomBytes: number,
  /** The audit log's entry, written with the version going live. */
  recorded: BatchItem<"sqlite">,
): Promise<{ name: string; files: number }> {
  const siteId = site.id;
  // Only the templates are unpacked to be checked; every other file is unpacked as it is stored, one at a time.
  let files: { path: string; entry: ZipEntry }[];
  let unpackedBytes: number;
  const templateBytes: (readonly [string, Uint8Array])[] = [];
  try {
    const listed = centralDirectory(zip).filter((entry) => !entry.name.endsWith("/"));
    if (listed.length > MAX_FILES) throw refuse(`more than ${MAX_FILES} files`);
    // What the files declare is checked before anything is inflated; unpacked() holds each to it.
    unpackedBytes = listed.reduce((sum, entry) => sum + entry.size, 0);
    if (unpackedBytes > MAX_UNPACKED_BYTES) throw refuse(`more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB once unpacked`);
    const large = listed.find((entry) => entry.size > MAX_FILE_BYTES);
    if (large) throw refuse(`${large.name} is more than ${MAX_FILE_BYTES / 1024 / 1024} MB once unpacked`);
    files = listed.map((entry) => ({ path: checkedPath(entry.name), entry }));
    for (const { path, entry } of files) if (path.endsWith(".j2")) templateBytes.push([path, await unpacked(zip, entry)]);
  } catch (error) {
    throw asRefusal(error);
  }
  const paths = new Set(files.map(({ path }) => path));
  const missing = REQUIRED.filter((path) => !paths.has(path));
  if (missing.length) throw refuse(`missing ${missing.join(", ")}`);

  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const templates: Record<string, string> = {};
  for (const [path, bytes] of templateBytes) {
    try {
      templates[path] = decoder.decode(bytes);
    } catch {
      throw refuse(`${path} is not UTF-8 text`);
    }
  }
  for (const [path, source] of Object.entries(templates)) {
    for (const [, target] of source.matchAll(REFERENCES)) {
      if (!(target! in templates)) throw refuse(`${path} refers to ${target}, which the theme does not have`);
    }
  }
  const set = await templateSet(templates).catch((error: unknown) => {
    if (error instanceof TemplateLimitError) throw refuse(`${error.message}: a render may not need more`);
    throw refuse(`a template does not parse: ${readableTemplateError(error instanceof Error ? error.message : String(error))}`);
  });
  // Each template once, under the bounds of a page: one that outgrows them is refused here, not
  // run by every visitor. Errors that depend on a site's data (a tag it lacks) are left to the page.
  for (const path of Object.keys(templates)) {
    try {
      set.render(path, SAMPLE_CONTEXT);
    } catch (error) {
      if (error instanceof TemplateLimitError) throw refuse(`${error.message}: a render may not need more`);
    }
  }

  // Each file is held to the size the zip declares as it is unpacked.
  const version = await reserveThemeVersion(db, site, name, unpackedBytes, roomBytes);
  const prefix = themePrefix(siteId, name, version);
  // A file found broken here leaves its version unfinished and never live: the storage cleanup removes it.
  for (const { path, entry } of files) {
    const bytes = await unpacked(zip, entry).catch((error: unknown) => {
      throw asRefusal(error);
    });
    await bucket.put(`${prefix}${path}`, bytes);
  }
  await makeLive(db, siteId, name, version, recorded);
  return { name, files: files.length };
}

/**
 * A new version of a site's theme, named before its first file is stored with what its files will
 * take, in the same batch as the tenant's room for themes is measured (refused past it): a version
 * that never goes live is removed by the storage cleanup, and counts until then.
 */
async function reserveThemeVersion(db: Database, site: { id: number; tenantId: number }, name: string, bytes: number, roomBytes: number) {
  const version = newThemeVersion();
  await withinRooms(
    () =>
      db.batch([
        db.insert(themeVersions).values({ siteId: site.id, name, version, bytes, updatedAt: new Date().toISOString() }),
        measureRoom(db, site.tenantId, "themes", sql`${themeBytes(db, site.tenantId)}`, roomBytes),
      ]),
    { themes: () => pastThemeRoom(db, site.tenantId, name, bytes, roomBytes) },
  );
  return version;
}

/** Why a theme of `bytes` does not fit the tenant's room, in words. */
const pastThemeRoom = async (db: Database, tenantId: number, name: string, bytes: number, roomBytes: number) =>
  `${name} (${storageSize(bytes)} unpacked) would take the tenant's themes past their ${storageSize(roomBytes)} ` +
  `(${storageSize(await themeBytesOf(db, tenantId))} are used, a replaced version until the daily cleanup): ` +
  "delete themes it no longer needs, or ask the operator for more room";

/** A theme is copied file by file (each a subrequest): one larger than this is uploaded to the new site instead. */
const MAX_COPIED_THEME_FILES = 300;

/** What a copy stores under the name `theme`: the files found under `prefix`, and what they take. */
const copySource = (theme: string, prefix: string, files: Awaited<ReturnType<typeof listAll>>) => ({
  theme,
  prefix,
  files,
  bytes: files.reduce((sum, file) => sum + file.size, 0),
});

/** The files of a site's live theme, and what they take: what a copy of it stores. */
export async function liveThemeFiles(db: Database, bucket: R2Bucket, from: { id: number; theme: string }) {
  const theme = from.theme;
  const prefix = themePrefix(from.id, theme, await liveVersion(db, from.id, theme));
  const files = (await listAll(bucket, prefix)).filter((file) => !file.key.startsWith(`${prefix}versions/`));
  if (files.length > MAX_COPIED_THEME_FILES)
    throw new ApiError(
      400,
      `copyThemeFrom: the theme ${from.theme} has more than ${MAX_COPIED_THEME_FILES} files; upload it to the new site instead`,
    );
  return copySource(theme, prefix, files);
}

/** The operator's starter theme as a copy named `theme` stores it, when the operator has put one in R2. */
export async function starterThemeFiles(bucket: R2Bucket, theme: string) {
  const files = await listAll(bucket, STARTER_THEME_PREFIX);
  if (!files.length || files.length > MAX_COPIED_THEME_FILES) return undefined;
  return copySource(theme, STARTER_THEME_PREFIX, files);
}

/** Refused before anything is written when a copy of `bytes` would not fit the tenant's room for themes. */
export async function assertThemeFits(db: Database, tenantId: number, name: string, bytes: number, roomBytes: number) {
  if ((await themeBytesOf(db, tenantId)) + bytes > roomBytes) throw new ApiError(409, await pastThemeRoom(db, tenantId, name, bytes, roomBytes));
}

/**
 * A new site's own copy of another site's live theme, made its live version and counted in the
 * tenant's room as an upload is (a copy stored outside the versions was counted nowhere).
 */
export async function copyTheme(
  db: Database,
  bucket: R2Bucket,
  source: Awaited<ReturnType<typeof liveThemeFiles>>,
  to: { id: number; tenantId: number },
  roomBytes: number,
) {
  const { theme, prefix, files, bytes } = source;
  const version = await reserveThemeVersion(db, to, theme, bytes, roomBytes);
  const target = themePrefix(to.id, theme, version);
  for (const file of files) {
    const object = await bucket.get(file.key);
    if (object) await bucket.put(target + file.key.slice(prefix.length), object.body, { httpMetadata: object.httpMetadata });
  }
  await makeLive(db, to.id, theme, version);
}

const themeBytes = (db: Database, tenantId: number) =>
  db
    .select({ used: sql<number>`coalesce(sum(${themeVersions.bytes}), 0)` })
    .from(themeVersions)
    .innerJoin(sites, eq(sites.id, themeVersions.siteId))
    .where(eq(sites.tenantId, tenantId));

/** What the uploaded themes of all the tenant's sites take in R2, unpacked: live, replaced until the cleanup, and being stored. */
export async function themeBytesOf(db: Database, tenantId: number): Promise<number> {
  const [row] = await themeBytes(db, tenantId);
  return row!.used;
}

/**
 * The themes a site has: those an upload, a copy or the scripts made live, and those stored directly
 * under their name (installed by the scripts before versions). An upload that never went live is not one.
 */
export async function themesOf(db: Database, bucket: R2Bucket, siteId: number): Promise<string[]> {
  const [listed, live] = await Promise.all([
    bucket.list({ prefix: `themes/${siteId}/`, delimiter: "/" }),
    db
      .select({ name: themeVersions.name })
      .from(themeVersions)
      .where(and(eq(themeVersions.siteId, siteId), eq(themeVersions.live, true))),
  ]);
  const uploaded = new Set(live.map((row) => row.name));
  const others = listed.delimitedPrefixes.map((prefix) => prefix.split("/").at(-2)!).filter((name) => !uploaded.has(name));
  const installed = await Promise.all(
    others.map(async (name) => ((await bucket.head(`${themePrefix(siteId, name)}templates/index.html.j2`)) ? [name] : [])),
  );
  return [...uploaded, ...installed.flat()].sort();
}

/** A preview token: lets a member see the site with a theme that is not yet active. */
export const previewToken = (secret: string, siteId: number, theme: string) => hmacSha256Hex(secret, `theme-preview:${siteId}:${theme}`);

/** The address, on the site's host, that shows the site with a theme that is not yet active (previews.ts keeps it in a cookie). */
export const themePreviewPath = async (secret: string, siteId: number, theme: string) =>
  `/?theme_preview=${theme}&token=${await previewToken(secret, siteId, theme)}`;
