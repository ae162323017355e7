import type { BatchItem } from "drizzle-orm/batch";
import { and, eq, or, sql } from "drizzle-orm";
import { randomBase62 } from "../../platform/crypto";
import type { Database } from "../../platform/database";
import { IsolateCache } from "../../platform/isolate-cache";
import { audit } from "../audit-entries";
import { sites, type Site, themeVersions } from "../schema";
import { forgetSiteForReaders, memberScope } from "../tenancy/scope";
import { templateSet } from "./templates";

/**
 * Where a theme's files live in R2: an upload's own version, `themes/<site_id>/<name>/versions/<version>/`,
 * or, for a theme that no upload made (installed by the scripts, copied to a new site), `themes/<site_id>/<name>/`;
 * each holds `{layouts,templates,assets,locales}/`.
 */
export const themePrefix = (siteId: number, theme: string, version?: string | null) =>
  version ? `themes/${siteId}/${theme}/versions/${version}/` : `themes/${siteId}/${theme}/`;

/** The operator's starter theme (`npm run dev` and the seed put themes/default there): a new site starts with a copy of it. */
export const STARTER_THEME_PREFIX = "themes/starter/default/";

/** A new upload's version: base-36 time (they sort by age), a dash, 8 random base-62 characters. */
export const newThemeVersion = () => `${Date.now().toString(36)}-${randomBase62(8)}`;
const UPLOAD_VERSION = /^[0-9a-z]{1,12}-[0-9A-Za-z]{8}$/;

/** A site as its pages know its themes: the live version of each uploaded one (siteById reads them with the site). */
export type ThemedSite = { id: number; liveThemes: Readonly<Record<string, string>> };

/** The R2 folder of a theme as the site serves it now. */
const servedPrefix = (site: ThemedSite, theme: string) => themePrefix(site.id, theme, site.liveThemes[theme]);

/** The live version of a site's theme, for the admin API (pages read it with their site); null for a theme no upload made. */
export async function liveVersion(db: Database, siteId: number, theme: string): Promise<string | null> {
  const [row] = await db
    .select({ version: themeVersions.version })
    .from(themeVersions)
    .where(and(eq(themeVersions.siteId, siteId), eq(themeVersions.name, theme), eq(themeVersions.live, true)))
    .limit(1);
  return row?.version ?? null;
}

/**
 * One statement makes the version the live one of its theme and the one it replaces not live, both
 * dated now (the cleanup leaves a replaced version an hour for the pages being served from it, and
 * never removes a row of the last hour: the upload's own row is there).
 */
export async function makeLive(db: Database, siteId: number, name: string, version: string, recorded?: BatchItem<"sqlite">) {
  await db.batch([
    db
      .update(themeVersions)
      .set({ live: sql`${themeVersions.version} = ${version}`, updatedAt: new Date().toISOString() })
      .where(
        and(eq(themeVersions.siteId, siteId), eq(themeVersions.name, name), or(eq(themeVersions.live, true), eq(themeVersions.version, version))),
      ),
    ...(recorded ? [recorded] : []),
  ]);
  forgetSiteForReaders(siteId);
}

export interface LoadedTheme {
  /** Names the theme's state (its upload's version, else a digest of its files): part of the page cache's keys and of the assets' URLs. */
  version: string;
  render(template: string, context: Record<string, unknown>): string;
  has(template: string): boolean;
  locale(language: string): Record<string, string>;
  /** The content tags its templates read, so that a render resolves only those ("all": one reads them by a computed name). */
  tagNames: ReadonlySet<string> | "all";
}

/**
 * The content tag names templates read: `tags.name` and `tags['name']`. Any other use of `tags`
 * (a computed name, a loop over it, passing it on) counts as reading them all.
 */
export function tagNamesRead(sources: string[]): ReadonlySet<string> | "all" {
  const names = new Set<string>();
  for (const source of sources) {
    // `tags` as a name of its own: not `content.tags` or `post.tags`, which are a content's tag list.
    for (const use of source.matchAll(/(?<![\w.])tags\b\s*(?:\.\s*(\w+)|\[\s*(['"])([^'"]+)\2\s*\]|)/g)) {
      const name = use[1] ?? use[3];
      if (!name) return "all";
      names.add(name);
    }
  }
  return names;
}

/** Parsed themes, at most 200 per isolate (each holds its templates parsed in the engine). */
const loaded = new IsolateCache<{ key: string; version: string; theme: Promise<LoadedTheme> }>(200);

export async function listAll(bucket: R2Bucket, prefix: string): Promise<R2Object[]> {
  const objects: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    objects.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

/** How long an isolate trusts its listing of a theme's files: an upload's never change, those the scripts install may. */
const LISTING_TTL_MS = 30_000;

/** A theme's files as listed, its template and locale files among them, and the version those make (a digest of their etags, computed once per listing). */
interface Listing {
  objects: R2Object[];
  templates: R2Object[];
  version: string;
}
const listings = new IsolateCache<{ prefix: string; listing: Promise<Listing> }>(500, LISTING_TTL_MS);

function listTheme(bucket: R2Bucket, prefix: string): Promise<Listing> {
  const known = listings.get(prefix);
  if (known) return known.listing;
  const listing = listAll(bucket, prefix).then(async (listed) => {
    // A theme's own files, without the versions its uploads store beneath it.
    const all = listed.filter((o) => !o.key.startsWith(`${prefix}versions/`));
    const templates = all.filter((o) => /^(layouts|templates)\/.+\.j2$|^locales\/[a-z-]+\.json$/i.test(o.key.slice(prefix.length)));
    return { objects: all, templates, version: await digest(templates.map((o) => `${o.key}:${o.etag}`).join("\n")) };
  });
  listings.set(prefix, { prefix, listing });
  listing.catch(() => forgetListing(prefix));
  return listing;
}

/** Removes the files under a prefix (a few deletes of 1,000 keys) and forgets the listings under it. */
export async function removeFiles(bucket: R2Bucket, prefix: string) {
  const keys = (await listAll(bucket, prefix)).map((o) => o.key);
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
  listings.forget((listing) => listing.prefix.startsWith(prefix));
}

/** Files worth compressing in a downloaded theme; images and fonts are compressed already and are stored as they are. */
const TEXT_FILE = /\.(j2|css|js|json|svg)$/i;

/**
 * A theme's files as a zip that its upload takes again (layouts/, templates/, assets/, locales/ at
 * the top), streamed one file at a time as the reader asks for more: at most one file is held in
 * memory, and a theme is at most what an upload allows (2,000 files, 60 MB unpacked).
 */
export async function themeZip(bucket: R2Bucket, prefix: string): Promise<ReadableStream<Uint8Array> | undefined> {
  const { objects } = await listTheme(bucket, prefix);
  if (!objects.length) return undefined;
  const { Zip, ZipDeflate, ZipPassThrough } = await import("fflate");
  let next = 0;
  let zip: InstanceType<typeof Zip>;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    async pull() {
      const object = objects[next++];
      if (!object) return zip.end();
      const path = object.key.slice(prefix.length);
      const file = TEXT_FILE.test(path) ? new ZipDeflate(path, { level: 6 }) : new ZipPassThrough(path);
      zip.add(file);
      const body = await bucket.get(object.key);
      file.push(body ? new Uint8Array(await body.arrayBuffer()) : new Uint8Array(), true);
    },
  });
}

const forgetListing = (prefix: string) => listings.forget((listing) => listing.prefix === prefix);

/**
 * A site's theme, parsed once per isolate for as long as its files do not change (the version is
 * made of their etags); undefined when the site has no theme in R2.
 */
export async function loadTheme(bucket: R2Bucket, site: ThemedSite, theme: string): Promise<LoadedTheme | undefined> {
  const prefix = servedPrefix(site, theme);
  const { templates: objects, version } = await listTheme(bucket, prefix);
  if (!objects.length) return undefined;
  const key = `${site.id}/${theme}`;
  const cached = loaded.get(key);
  if (cached?.version === version) return cached.theme;
  const theme_ = (async (): Promise<LoadedTheme> => {
    const files = await Promise.all(objects.map(async (o) => [o.key.slice(prefix.length), await (await bucket.get(o.key))!.text()] as const));
    const templates = Object.fromEntries(files.filter(([name]) => name.endsWith(".j2")));
    const locales = Object.fromEntries(
      files.filter(([name]) => name.startsWith("locales/")).map(([name, text]) => [name.slice(8, -5), JSON.parse(text) as Record<string, string>]),
    );
    const set = await templateSet(templates);
    return {
      version: site.liveThemes[theme] ?? version,
      render: (template, context) => set.render(template, context),
      has: (template) => template in templates,
      // A regional language takes its language's strings where it has none of its own (pt-BR: pt.json).
      locale: (language) => ({ ...(locales.en ?? {}), ...(locales[language.split("-")[0]!] ?? {}), ...(locales[language] ?? {}) }),
      tagNames: tagNamesRead(Object.values(templates)),
    };
  })();
  loaded.set(key, { key, version, theme: theme_ });
  theme_.catch(() => loaded.forget((entry) => entry.key === key));
  return theme_;
}

/** How many renders of a site's theme may stop at a bound, in one isolate, before the site goes back to its previous theme. */
export const THEME_FAILURES = 3;
const failures = new IsolateCache<number>(1000);

/**
 * Counts a render of a site's active theme that stopped at a bound (TemplateLimitError). At
 * THEME_FAILURES the site goes back to its previous theme (else "default"), so that visitors stop
 * re-running it, and the audit log tells its members (user 0: the service itself).
 */
export async function themeFailed(db: Database, site: Site, version: string, reason: string): Promise<void> {
  const key = `${site.id}/${site.theme}/${version}`;
  const count = (failures.get(key) ?? 0) + 1;
  failures.set(key, count);
  const fallback = site.previousTheme ?? "default";
  if (count !== THEME_FAILURES || fallback === site.theme) return;
  // Only while it is still the site's theme: another isolate may have retired it first.
  const [retired] = await db
    .update(sites)
    .set({ theme: fallback, previousTheme: site.theme, contentVersion: sql`${sites.contentVersion} + 1`, updatedAt: new Date().toISOString() })
    .where(and(eq(sites.id, site.id), eq(sites.theme, site.theme)))
    .returning({ id: sites.id });
  forgetSiteForReaders(site.id);
  if (!retired) return;
  // The service itself (user 0) went back to the previous theme.
  await audit(
    db,
    memberScope(site.tenantId),
    0,
    "retire-theme",
    `site ${site.id}: ${site.theme} stopped at its bounds ${count} times (${reason}); back to ${fallback}`,
  );
}

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const ASSET_TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  woff2: "font/woff2",
  woff: "font/woff",
  ico: "image/x-icon",
};

/** The favicon files a theme may have, in the order they are preferred. */
const FAVICONS = ["favicon.ico", "favicon.svg", "favicon.png"];

/** The theme's favicon, by its listing: `favicon.ico`, `favicon.svg` or `favicon.png` under its assets, the first it has. */
export async function themeFavicon(bucket: R2Bucket, site: ThemedSite, theme: string): Promise<string | undefined> {
  const prefix = servedPrefix(site, theme);
  const keys = new Set((await listTheme(bucket, prefix)).objects.map((o) => o.key.slice(prefix.length)));
  return FAVICONS.find((name) => keys.has(`assets/${name}`));
}

/** An asset is never a page: a script in an SVG opened on its own runs nothing, and it can reach nothing. */
const ASSET_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * A theme's asset, with its type, its ETag, and for good in caches: its URL carries the theme's
 * version (`?v=`), and an upload's version is served as that version, so that a page rendered before
 * or after an upload (in any isolate) gets the files of its own version until the cleanup removes them.
 */
export async function themeAsset(bucket: R2Bucket, site: ThemedSite, theme: string, path: string, version?: string): Promise<Response | undefined> {
  const type = ASSET_TYPES[path.split(".").at(-1)?.toLowerCase() ?? ""];
  if (!type || path.split("/").some((segment) => segment === ".." || segment === "")) return undefined;
  const prefix = version && UPLOAD_VERSION.test(version) ? themePrefix(site.id, theme, version) : servedPrefix(site, theme);
  const object = await bucket.get(`${prefix}assets/${path}`);
  if (!object) return undefined;
  return new Response(object.body, {
    headers: {
      "Content-Type": type,
      ETag: object.httpEtag,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": ASSET_POLICY,
    },
  });
}
