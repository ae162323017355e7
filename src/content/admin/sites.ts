import { z } from "@hono/zod-openapi";
import { count, eq, isNotNull, like, notInArray, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import type { Bindings } from "../../platform/env";
import { idParam } from "../../platform/openapi";
import { fieldRefused } from "../../platform/errors";
import { mediaKeyOf, siteRelativeMedia } from "../media/addresses";
import { ads, contents, media, sites, type Site } from "../schema";
import { assertThemeFits, copyTheme, liveThemeFiles, starterThemeFiles } from "../sites/theme-upload";
import { DEFAULT_THEME_BYTES_PER_TENANT } from "../sites/theme-limits";
import { isOtherLanguage, languageInEnglish } from "../sites/languages";
import { domainChanges, forgetHosts, verifyDomain, withDomains, withDomainsOne } from "../tenancy/domains";
import { measureCount, withinRooms } from "../tenancy/rooms";
import { forgetSiteForReaders, inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { settingsOf } from "../../platform/settings";
import { contentSettings } from "../settings";
import { audit } from "../audit-entries";
import { type AdminRoute, as, type MemberScope } from "./guard";
import { domainVerify, siteCreate, siteUpdate } from "./params";
import { inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema } from "../../platform/row-answer";
import { unlessTaken } from "./writes";

export const domainSchema = z
  .object({
    host: z.string(),
    primary: z.boolean(),
    verified: z.boolean().openapi({ description: "Proved with its DNS TXT record: only then does the host reach the site" }),
    verification: z
      .object({ type: z.literal("TXT"), name: z.string(), value: z.string() })
      .nullable()
      .openapi({ description: "The record to publish before POST …/domains/verify; null once proved" }),
  })
  .openapi("SiteDomain");
export const siteSchema = z
  .object({
    ...createSelectSchema(sites, {
      name: (s) => s.openapi({ example: "City Gazette" }),
      seoDescriptions: z.record(z.string(), z.string()).openapi({ example: { de: "Nachrichten aus der Stadt" } }),
    }).shape,
    primaryDomain: z.string().nullable(),
    aliases: z.array(z.string()),
    domains: z.array(domainSchema),
  })
  .openapi("Site");

export const sitesOf = (db: Database, scope: TenantScope) => db.select().from(sites).where(inTenant(sites.tenantId, scope)).orderBy(sites.id);

/** The default language is one of the site's languages: its pages are at the root, the others under `/<lang>/`. */
function assertLanguagesAgree(languages: string[], defaultLanguage: string) {
  if (!languages.includes(defaultLanguage))
    throw fieldRefused(
      "defaultLanguage",
      `the language ${defaultLanguage} is not one of the site's languages (${languages.join(", ")}): add it there first`,
    );
}

/**
 * The texts in other languages (`field`: a site's descriptions, a category's names) a change leaves:
 * each one given must be of another of the site's languages; one of a language the site no longer
 * has is dropped with it.
 */
export function textsInOtherLanguages(
  field: string,
  given: Record<string, string> | undefined,
  kept: Record<string, string>,
  site: Pick<Site, "languages" | "defaultLanguage">,
) {
  for (const code of Object.keys(given ?? {}))
    if (!isOtherLanguage(site, code)) {
      const others = site.languages.filter((other) => other !== site.defaultLanguage);
      throw fieldRefused(
        field,
        others.length
          ? `the language ${code} is not one of the site's other languages (${others.join(", ")})`
          : `the site has no language besides ${site.defaultLanguage}: add ${code} first`,
      );
    }
  return Object.fromEntries(Object.entries(given ?? kept).filter(([code]) => isOtherLanguage(site, code)));
}

/** Sites one tenant may keep unless MAX_SITES_PER_TENANT says otherwise: each holds its own media, themes and search indexes. */
export const DEFAULT_MAX_SITES_PER_TENANT = 20;

export const sitesRoomOf = (env: Bindings) => settingsOf(env, contentSettings).MAX_SITES_PER_TENANT ?? DEFAULT_MAX_SITES_PER_TENANT;

/** What the uploaded and copied themes of all a tenant's sites may take, unpacked. */
export const themeRoomOf = (env: Bindings) => settingsOf(env, contentSettings).THEME_BYTES_PER_TENANT ?? DEFAULT_THEME_BYTES_PER_TENANT;

/** A new site of the tenant, within its bound on sites (`maxSites`), counted in the same batch. */
export async function createSite(db: Database, scope: TenantScope, input: z.infer<typeof siteCreate>, maxSites: number) {
  const { copyThemeFrom, ...fields } = input;
  const defaultLanguage = fields.defaultLanguage ?? fields.languages?.[0] ?? "en";
  const languages = fields.languages ?? [defaultLanguage];
  assertLanguagesAgree(languages, defaultLanguage);
  const seoDescriptions = textsInOtherLanguages("seoDescriptions", fields.seoDescriptions, {}, { languages, defaultLanguage });
  const themeOf = copyThemeFrom === undefined ? undefined : await siteInScope(db, scope, copyThemeFrom);
  return unlessTaken(`The site slug ${input.slug}`, async () => {
    const [[site]] = await withinRooms(
      () =>
        db.batch([
          db
            .insert(sites)
            .values({ ...fields, tenantId: scope.tenantId, defaultLanguage, languages, seoDescriptions, theme: themeOf?.theme ?? fields.theme })
            .returning(),
          measureCount(db, scope.tenantId, "sites", sites, maxSites),
        ]),
      { sites: async () => `A tenant keeps at most ${maxSites} sites: ask the operator for more` },
    );
    return site!;
  });
}

/** A favicon is an image of the site's own media: `/favicon.ico` serves its bytes. */
async function assertFavicon(db: Database, scope: TenantScope, siteId: number, favicon: string | null | undefined) {
  if (!favicon) return;
  const key = mediaKeyOf(favicon, { tenantId: scope.tenantId, id: siteId });
  const [found] = key
    ? await db
        .select({ type: media.contentType })
        .from(media)
        .where(inTenant(media.tenantId, scope, eq(media.siteId, siteId), eq(media.key, key), like(media.contentType, "image/%")))
        .limit(1)
    : [];
  if (!found) throw fieldRefused("favicon", "must be an image of this site's Media: upload it there, then choose it");
}

/** A language still holding contents, or an ad shown on its pages only, stays: they would lose their pages. */
async function assertLanguagesKept(db: Database, scope: TenantScope, siteId: number, languages: string[]) {
  const [[left], [adLeft]] = await db.batch([
    db
      .select({ n: count(), language: sql<string>`min(${contents.language})` })
      .from(contents)
      .where(inTenant(contents.tenantId, scope, eq(contents.siteId, siteId), notInArray(contents.language, languages))),
    db
      .select({ id: ads.id, language: ads.language })
      .from(ads)
      .where(inTenant(ads.tenantId, scope, eq(ads.siteId, siteId), isNotNull(ads.language), notInArray(ads.language, languages)))
      .limit(1),
  ]);
  if (left && left.n > 0)
    throw fieldRefused(
      "languages",
      `${left.n} contents are written in ${languageInEnglish(left.language)}: keep the language, or move or delete them first`,
    );
  if (adLeft?.language)
    throw fieldRefused(
      "languages",
      `ad #${adLeft.id} is shown on the ${languageInEnglish(adLeft.language)} pages only: keep the language, or change the ad first`,
    );
}

/** A site's settings as the audit log names them (the Settings screen's labels), in the screen's order. */
const SETTING_NAMES: [keyof Site, string][] = [
  ["name", "name"],
  ["slug", "address name"],
  ["seoDescription", "description"],
  ["seoDescriptions", "description"],
  ["languages", "languages"],
  ["defaultLanguage", "default language"],
  ["timezone", "time zone"],
  ["seoTitlePattern", "page title"],
  ["seoImage", "social image"],
  ["favicon", "favicon"],
  ["theme", "theme"],
  ["analytics", "analytics"],
];

/** The settings a change really changes, in words: the Settings screen sends them all at each save. */
function changedSettings(existing: Site, set: Partial<Site>, domainsChanged: boolean): string[] {
  // Per-language texts compare whatever order their languages come in.
  const canonical = (value: unknown) =>
    JSON.stringify(value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort()) : value);
  const names = SETTING_NAMES.filter(([field]) => set[field] !== undefined && canonical(set[field]) !== canonical(existing[field])).map(
    ([, name]) => name,
  );
  return [...new Set([...names, ...(domainsChanged ? ["domains"] : [])])];
}

/** Changes a site and its claimed host names in one batch (tenancy/domains.ts checks the names); the audit log says which settings changed. */
export async function updateSite(
  db: Database,
  env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">,
  scope: MemberScope,
  siteId: number,
  input: z.infer<typeof siteUpdate>,
) {
  const existing = await siteInScope(db, scope, siteId);
  const { primaryDomain, aliases, ...fields } = input;
  const languages = fields.languages ?? existing.languages;
  const defaultLanguage = fields.defaultLanguage ?? existing.defaultLanguage;
  assertLanguagesAgree(languages, defaultLanguage);
  if (fields.languages) await assertLanguagesKept(db, scope, siteId, fields.languages);
  const seoDescriptions = textsInOtherLanguages("seoDescriptions", fields.seoDescriptions, existing.seoDescriptions, { languages, defaultLanguage });
  const favicon = siteRelativeMedia(fields.favicon, scope.tenantId, siteId);
  await assertFavicon(db, scope, siteId, favicon);
  const hostChanges = await domainChanges(db, env, scope, siteId, { primaryDomain, aliases });
  const set = { ...fields, seoDescriptions, seoImage: siteRelativeMedia(fields.seoImage, scope.tenantId, siteId), favicon };
  const changed = changedSettings(existing, set, hostChanges.changed);
  forgetSiteForReaders(siteId);
  return unlessTaken("The site slug", async () => {
    const [[site]] = await db.batch([
      db
        .update(sites)
        .set({ ...set, contentVersion: sql`${sites.contentVersion} + 1`, updatedAt: new Date().toISOString() })
        .where(inTenant(sites.tenantId, scope, eq(sites.id, siteId)))
        .returning(),
      ...hostChanges.statements,
      ...(changed.length ? [audit(db, scope, scope.userId, "change-site", `${set.name ?? existing.name}: ${changed.join(", ")}`)] : []),
    ]);
    // A new address name moves the development address at once in this isolate (others within the minute).
    const devAddresses = set.slug && set.slug !== existing.slug ? [`${existing.slug}.localhost`, `${set.slug}.localhost`] : [];
    forgetHosts([...hostChanges.dropped, ...devAddresses]);
    return withDomainsOne(db, scope, site!);
  });
}

/** A tenant's sites and the host names they answer on. */
export function siteRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites",
    summary: "Sites",
    guard: as("viewer"),
    request: tenantPath,
    data: z.array(siteSchema),
    answer: "Sites",
    handle: async (c, scope) => withDomains(c.get("db"), scope, await sitesOf(c.get("db"), scope)),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites",
    summary: "Create a site (a tenant keeps at most MAX_SITES_PER_TENANT, default 20: 409 beyond)",
    guard: as("owner"),
    request: { ...tenantPath, ...json(siteCreate.openapi({ example: { name: "City Gazette", slug: "city-gazette", languages: ["en", "de"] } })) },
    data: siteSchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c, scope) => {
      const input = c.req.valid("json");
      const db = c.get("db");
      // A copy that would not fit the tenant's room for themes is refused before the site is made. Without
      // another site's theme, the site starts with the operator's starter theme (when there is one), so that its pages show at once.
      const from = input.copyThemeFrom === undefined ? undefined : await siteInScope(db, scope, input.copyThemeFrom);
      const source = from ? await liveThemeFiles(db, c.env.THEMES, from) : await starterThemeFiles(c.env.THEMES, input.theme ?? "default");
      if (source) await assertThemeFits(db, scope.tenantId, source.theme, source.bytes, themeRoomOf(c.env));
      const site = await createSite(db, scope, input, sitesRoomOf(c.env));
      if (source) await copyTheme(db, c.env.THEMES, source, site, themeRoomOf(c.env));
      return withDomainsOne(c.get("db"), scope, site);
    },
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/sites/{siteId}",
    summary: "Change a site",
    guard: as("owner"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(siteUpdate) },
    data: siteSchema,
    answer: "The site",
    errors: [409],
    handle: async (c, scope) => updateSite(c.get("db"), c.env, scope, c.req.valid("param").siteId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/domains/verify",
    summary: "Prove a claimed host name with its DNS TXT record; from then on it reaches the site",
    guard: as("owner"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(domainVerify) },
    data: domainSchema,
    answer: "The host name, proved",
    errors: [409, 502],
    handle: async (c, scope) => {
      const { siteId } = c.req.valid("param");
      await siteInScope(c.get("db"), scope, siteId);
      return verifyDomain(c.get("db"), c.env, scope, siteId, c.req.valid("json").host);
    },
  });
}
