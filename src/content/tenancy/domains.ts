import { and, eq, inArray, isNotNull, ne, notInArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { randomBase62 } from "../../platform/crypto";
import { type Database, refusedBy } from "../../platform/database";
import type { Context } from "hono";
import type { AppEnv, Bindings } from "../../platform/env";
import { errorPage } from "../../platform/envelope";
import { ApiError, fieldRefused } from "../../platform/errors";
import { IsolateCache } from "../../platform/isolate-cache";
import { dnsTxtRecords } from "../../platform/outbound-url";
import { isServiceHost, normalizedHost } from "../../platform/service-hosts";
import { type DomainView, siteDomains, sites, type Site, type SiteDomain, type SiteView } from "../schema";
import { inTenant, type ReaderSite, type TenantScope } from "./scope";

/**
 * A site's host names: claimed by its owner (PATCH of the site), proved with a DNS TXT record,
 * and only then routed. The service's own hosts can never be claimed (platform/service-hosts.ts),
 * and a host proved by one site cannot be claimed by another.
 */

/** Where the proof goes: a TXT record at `_gateway-verification.<host>` holding the claim's token. */
export const VERIFICATION_LABEL = "_gateway-verification";

const viewOf = (row: SiteDomain): DomainView => ({
  host: row.host,
  primary: row.isPrimary,
  verified: row.verifiedAt !== null,
  verification:
    row.verifiedAt === null
      ? { type: "TXT", name: `${VERIFICATION_LABEL}.${row.host}`, value: `gateway-verification=${row.verificationToken}` }
      : null,
});

/** Sites with their host names, in one query for all of them. */
export async function withDomains(db: Database, scope: TenantScope, list: Site[]): Promise<SiteView[]> {
  const ids = list.map((site) => site.id);
  const rows = ids.length
    ? await db
        .select()
        .from(siteDomains)
        .where(inTenant(siteDomains.tenantId, scope, inArray(siteDomains.siteId, ids)))
        .orderBy(siteDomains.id)
    : [];
  return list.map((site) => {
    const own = rows.filter((row) => row.siteId === site.id);
    return {
      ...site,
      primaryDomain: own.find((row) => row.isPrimary)?.host ?? null,
      aliases: own.filter((row) => !row.isPrimary).map((row) => row.host),
      domains: own.map(viewOf),
    };
  });
}

export const withDomainsOne = async (db: Database, scope: TenantScope, site: Site): Promise<SiteView> => (await withDomains(db, scope, [site]))[0]!;

/** Why a host cannot be a site's; undefined when it can. */
function hostProblem(env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">, host: string): string | undefined {
  if (isServiceHost(env, host)) return `the host name ${host} is the service's own`;
  if (host === "localhost" || host.endsWith(".localhost"))
    return `the host name ${host} is a local one; <slug>.localhost reaches a site in development without a claim`;
  return undefined;
}

/**
 * The statements that make a site's claims what the owner asked for: hosts no longer named are
 * dropped (and stop routing), new ones are claimed with a fresh token, the primary flag follows.
 * For `db.batch`, with the site's other changes.
 */
export async function domainChanges(
  db: Database,
  env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">,
  scope: TenantScope,
  siteId: number,
  asked: { primaryDomain?: string | null; aliases?: string[] },
): Promise<{ statements: BatchItem<"sqlite">[]; dropped: string[]; changed: boolean }> {
  if (asked.primaryDomain === undefined && asked.aliases === undefined) return { statements: [], dropped: [], changed: false };
  const current = await db
    .select()
    .from(siteDomains)
    .where(inTenant(siteDomains.tenantId, scope, eq(siteDomains.siteId, siteId)));
  const primary =
    asked.primaryDomain === undefined
      ? (current.find((row) => row.isPrimary)?.host ?? null)
      : asked.primaryDomain && normalizedHost(asked.primaryDomain);
  const aliases = (asked.aliases ?? current.filter((row) => !row.isPrimary).map((row) => row.host)).map(normalizedHost);
  const wanted = [...(primary ? [primary] : []), ...aliases];
  if (new Set(wanted).size !== wanted.length) throw fieldRefused("aliases", "each host name may be named once, and not as the primary domain too");
  for (const [field, host] of [...(primary ? [["primaryDomain", primary] as const] : []), ...aliases.map((host) => ["aliases", host] as const)]) {
    const problem = hostProblem(env, host);
    if (problem) throw fieldRefused(field, `${problem}; a site cannot use it`);
  }
  const added = wanted.filter((host) => !current.some((row) => row.host === host));
  if (added.length) {
    const [taken] = await db
      .select({ host: siteDomains.host })
      .from(siteDomains)
      .where(and(inArray(siteDomains.host, added), isNotNull(siteDomains.verifiedAt), ne(siteDomains.siteId, siteId)))
      .limit(1);
    if (taken) throw new ApiError(409, `${taken.host} is already in use by another site`);
  }
  const mine = eq(siteDomains.siteId, siteId);
  const dropped = current.map((row) => row.host).filter((host) => !wanted.includes(host));
  return {
    statements: [
      db.delete(siteDomains).where(inTenant(siteDomains.tenantId, scope, mine, wanted.length ? notInArray(siteDomains.host, wanted) : undefined)),
      ...added.map((host) => db.insert(siteDomains).values({ tenantId: scope.tenantId, siteId, host, verificationToken: randomBase62(32) })),
      ...wanted.map((host) =>
        db
          .update(siteDomains)
          .set({ isPrimary: host === primary })
          .where(inTenant(siteDomains.tenantId, scope, mine, eq(siteDomains.host, host))),
      ),
    ],
    dropped,
    changed: added.length > 0 || dropped.length > 0 || (current.find((row) => row.isPrimary)?.host ?? null) !== (primary || null),
  };
}

/**
 * Checks a claim's DNS TXT record and, when it holds the claim's token, lets the host route to the
 * site. A host another site proved first stays theirs (409).
 */
export async function verifyDomain(
  db: Database,
  env: Pick<Bindings, "DOH_RESOLVER_URL">,
  scope: TenantScope,
  siteId: number,
  host: string,
): Promise<DomainView> {
  const name = normalizedHost(host);
  const [claim] = await db
    .select()
    .from(siteDomains)
    .where(inTenant(siteDomains.tenantId, scope, eq(siteDomains.siteId, siteId), eq(siteDomains.host, name)))
    .limit(1);
  if (!claim) throw new ApiError(404, `The site does not claim ${name}; add it as primaryDomain or an alias first`);
  if (claim.verifiedAt) return viewOf(claim);
  const record = `${VERIFICATION_LABEL}.${name}`;
  let found: string[];
  try {
    found = await dnsTxtRecords(env, record);
  } catch {
    throw new ApiError(502, "The DNS resolver could not be asked; try again in a minute");
  }
  if (!found.includes(`gateway-verification=${claim.verificationToken}`)) {
    throw new ApiError(
      409,
      `No TXT record at ${record} holds gateway-verification=${claim.verificationToken} yet; DNS changes can take some minutes to show`,
    );
  }
  try {
    const [proved] = await db.update(siteDomains).set({ verifiedAt: new Date().toISOString() }).where(eq(siteDomains.id, claim.id)).returning();
    forgetHosts([name]);
    return viewOf(proved!);
  } catch (error) {
    if (refusedBy(error, "UNIQUE constraint failed")) throw new ApiError(409, `${name} is already in use by another site`);
    throw error;
  }
}

/** Host → site (or null: not a site) for a minute per isolate, at most 10,000 hosts. */
const hosts = new IsolateCache<{ host: string; siteId: number | null }>(10_000, 60_000);
/** Forgets hosts this isolate routed: a host proved or given up changes here at once. */
export const forgetHosts = (names: string[]) => hosts.forget((entry) => names.includes(entry.host));

/**
 * The site a request's Host names, or null for the service's own pages and API: never one of the
 * service's hosts; `<slug>.localhost` outside production; else a proved host name. Per isolate
 * for a minute.
 */
export async function siteIdForHost(
  db: Database,
  env: Pick<Bindings, "ENVIRONMENT" | "PUBLIC_ORIGIN" | "SERVICE_HOSTS">,
  rawHost: string | undefined,
): Promise<number | null> {
  const host = normalizedHost(rawHost ?? "");
  if (!host || isServiceHost(env, host)) return null;
  const known = hosts.get(host);
  if (known) return known.siteId;
  const local = env.ENVIRONMENT === "production" ? undefined : /^([a-z0-9-]+)\.localhost$/.exec(host)?.[1];
  const [found] = local
    ? await db.select({ id: sites.id }).from(sites).where(eq(sites.slug, local)).limit(1)
    : await db
        .select({ id: siteDomains.siteId })
        .from(siteDomains)
        .where(and(eq(siteDomains.host, host), isNotNull(siteDomains.verifiedAt)))
        .limit(1);
  const siteId = found?.id ?? null;
  hosts.set(host, { host, siteId });
  return siteId;
}

const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;

/**
 * A browser's page on a host that no site has and the service does not own (a domain not added
 * yet, an old address name): a page that says so, where the API's JSON 404 told a reader nothing.
 * An API client's request, or one by IP address or plain localhost, still reaches the API.
 */
export function unclaimedHostPage(c: Context<AppEnv>): Response | undefined {
  const page = (c.req.method === "GET" || c.req.method === "HEAD") && (c.req.header("Accept") ?? "").includes("text/html");
  const host = normalizedHost(new URL(c.req.url).host);
  if (!page || !host || host === "localhost" || IP_LITERAL.test(host) || isServiceHost(c.env, host)) return undefined;
  const addressName = c.env.ENVIRONMENT === "production" ? undefined : /^([^.]+)\.localhost$/.exec(host)?.[1];
  const message = addressName
    ? `No site has the address name ${addressName}. A site answers at its address name followed by .localhost: the console's Settings shows each site's.`
    : `No site answers at ${host}. If the domain is yours, add it to your site in the console's Settings, publish the DNS record shown there, and press Check.`;
  return c.html(errorPage(404, message, { home: false, title: "No site here" }), 404);
}

/**
 * The origin of a site's absolute addresses (canonical, Open Graph, JSON-LD, feeds, sitemaps): its
 * proved primary domain, else a proved alias, else `<slug>.localhost` on the service's port. Never
 * the request's Host, which any caller writes (and which would poison the page cache).
 */
export function siteOrigin(env: Pick<Bindings, "PUBLIC_ORIGIN">, site: ReaderSite): string {
  const host = (site.hosts.find((h) => h.primary) ?? site.hosts[0])?.host;
  if (host) return `https://${host}`;
  const service = new URL(env.PUBLIC_ORIGIN);
  return `${service.protocol}//${site.slug}.localhost${service.port ? `:${service.port}` : ""}`;
}
