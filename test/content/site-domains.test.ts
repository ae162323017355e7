import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { admin, createTestTenant, headless, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";
import { uniqueTag } from "../helpers/accounts";

interface DomainView {
  host: string;
  primary: boolean;
  verified: boolean;
  verification: { type: "TXT"; name: string; value: string } | null;
}
interface SiteBody {
  success: boolean;
  data: { primaryDomain: string | null; aliases: string[]; domains: DomainView[] };
  error?: { message: string };
}

/** The DNS-over-HTTPS resolver, faked: the TXT records each name holds. */
function fakeDns(records: Record<string, string[]>) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(new Request(input, init).url);
    if (url.hostname !== "cloudflare-dns.com") return new Response("no network in this test", { status: 599 });
    const name = url.searchParams.get("name")!;
    return Response.json({ Status: 0, Answer: (records[name] ?? []).map((text) => ({ name, type: 16, data: `"${text}"` })) });
  });
}
afterEach(() => vi.restoreAllMocks());

const patchSite = async (tenant: TestTenant, body: unknown) => {
  const res = await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, body);
  return { status: res.status, body: await res.json<SiteBody>() };
};
const verify = async (tenant: TestTenant, host: string) => {
  const res = await admin("POST", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}/domains/verify`, tenant.session, { host });
  return { status: res.status, body: await res.json<{ success: boolean; data: DomainView; error?: { message: string } }>() };
};
const byHost = (host: string, path = "/") => SELF.fetch(`https://${host}${path}`);
/** Claims a host for a tenant's site and proves it with the TXT record the claim asks for. */
async function claimAndProve(tenant: TestTenant, host: string) {
  const claimed = await patchSite(tenant, { primaryDomain: host });
  expect(claimed.status).toBe(200);
  const record = claimed.body.data.domains.find((d) => d.host === host)!.verification!;
  fakeDns({ [record.name]: [record.value] });
  expect((await verify(tenant, host)).status).toBe(200);
  vi.restoreAllMocks();
}

let owner: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [owner, other] = await Promise.all([createTestTenant(), createTestTenant()]);
  await installDefaultTheme(owner.siteId);
  await installDefaultTheme(other.siteId);
  await seedContent(owner, { title: "Harbour reopens" });
});

describe("API1 · host names: the service's own hosts are reserved", () => {
  it.each([
    ["PUBLIC_ORIGIN's host", { primaryDomain: "gateway.test" }],
    ["a host of SERVICE_HOSTS", { primaryDomain: "api.gateway.test" }],
    ["a workers.dev host, as an alias", { aliases: ["edge-gateway.someone.workers.dev"] }],
    ["the bare workers.dev", { aliases: ["workers.dev"] }],
    ["a local name", { aliases: ["demo.localhost"] }],
  ])("refuses %s with a 400 that says why", async (_what, body) => {
    const { status, body: answer } = await patchSite(owner, body);
    expect(status).toBe(400);
    expect(answer.error!.message).toMatch(/^(primaryDomain|aliases): the host name \S+ is (the service's own|a local one); /);
  });

  it("keeps answering the API on its own host, whatever a site claimed", async () => {
    const health = await SELF.fetch("https://gateway.test/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    expect((await SELF.fetch("https://api.gateway.test/openapi.json")).headers.get("Content-Type")).toContain("application/json");
  });
});

describe("API1 · host names: a claimed host routes only once proved", () => {
  it("answers a claim with the TXT record to publish, and does not route the host yet", async () => {
    const host = `news-${uniqueTag().toLowerCase()}.example.com`;
    const { status, body } = await patchSite(owner, { primaryDomain: host, aliases: [`www.${host}`] });
    expect(status).toBe(200);
    expect(body.data.primaryDomain).toBe(host);
    expect(body.data.aliases).toEqual([`www.${host}`]);
    expect(body.data.domains[0]).toMatchObject({
      host,
      primary: true,
      verified: false,
      verification: { type: "TXT", name: `_gateway-verification.${host}` },
    });
    expect(body.data.domains[0]!.verification!.value).toMatch(/^gateway-verification=[A-Za-z0-9]{32}$/);
    // Unproved: the host is nobody's site; the service answers as for any unknown host.
    const res = await byHost(host);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    expect(
      await headless(`/api/mcp/site/info?siteId=${owner.siteId}`, owner.token).then((r) => r.json<{ data: { domain: string | null } }>()),
    ).toMatchObject({ data: { domain: null } });
  });

  it("refuses the proof while the TXT record is missing or wrong, and routes the host once it is right", async () => {
    const host = `paper-${uniqueTag().toLowerCase()}.example.org`;
    const claimed = await patchSite(owner, { primaryDomain: host });
    const record = claimed.body.data.domains.find((d) => d.host === host)!.verification!;

    fakeDns({ [record.name]: ["gateway-verification=somebody-elses-token"] });
    const wrong = await verify(owner, host);
    expect(wrong.status).toBe(409);
    expect(wrong.body.error!.message).toContain(`No TXT record at ${record.name}`);
    expect((await byHost(host)).headers.get("Content-Type")).toContain("application/json");

    fakeDns({ [record.name]: ["v=spf1 -all", record.value] });
    const proved = await verify(owner, host);
    expect(proved.status).toBe(200);
    expect(proved.body.data).toMatchObject({ host, verified: true, verification: null });
    const page = await byHost(host, "/harbour-reopens");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Harbour reopens");
    const info = await (await headless(`/api/mcp/site/info?siteId=${owner.siteId}`, owner.token)).json<{ data: { domain: string } }>();
    expect(info.data.domain).toBe(host);
  });

  it("answers 502 in people's words when the resolver cannot be reached", async () => {
    const host = `down-${uniqueTag().toLowerCase()}.example.net`;
    await patchSite(other, { primaryDomain: host });
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network is down"));
    const res = await verify(other, host);
    expect(res.status).toBe(502);
    expect(res.body.error!.message).toBe("The DNS resolver could not be asked; try again in a minute");
  });

  it("answers 404 for a host the site does not claim", async () => {
    expect((await verify(owner, "never-claimed.example.com")).status).toBe(404);
  });
});

describe("API1 · host names: a host that no site has", () => {
  const asBrowser = { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };

  it("shows a browser a page that says so, and what the domain's owner does about it", async () => {
    const host = `soon-${uniqueTag().toLowerCase()}.example.com`;
    await patchSite(owner, { primaryDomain: host });
    const res = await SELF.fetch(`https://${host}/some/article`, asBrowser);
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const page = await res.text();
    expect(page).toContain("<title>404 No site here</title>");
    expect(page).toContain(`No site answers at ${host}. If the domain is yours, add it to your site in the console&#39;s Settings`);
    // Its home is the same page: no link to it.
    expect(page).not.toContain('href="/"');
  });

  it("names the address name a development address asked for", async () => {
    const page = await (await SELF.fetch("http://no-such-site.localhost/", asBrowser)).text();
    expect(page).toContain("No site has the address name no-such-site. A site answers at its address name followed by .localhost");
  });

  it("leaves the API's answers to API clients, addresses by IP and the service's own hosts", async () => {
    expect((await SELF.fetch("https://unknown.example.com/health")).headers.get("Content-Type")).toContain("application/json");
    expect((await SELF.fetch("https://unknown.example.com/health", { method: "POST", ...asBrowser })).headers.get("Content-Type")).not.toContain(
      "text/html",
    );
    for (const base of ["https://127.0.0.1", "https://[::1]", "https://gateway.test"]) {
      const docs = await SELF.fetch(`${base}/docs`, asBrowser);
      expect(docs.status, base).toBe(200);
      expect(await docs.text(), base).not.toContain("No site");
    }
  });
});

describe("API1 · host names: one site per host, primary domains and aliases alike", () => {
  it("refuses another tenant's alias of a host already proved by a site", async () => {
    const host = `taken-${uniqueTag().toLowerCase()}.example.com`;
    await claimAndProve(owner, host);
    const { status, body } = await patchSite(other, { aliases: [host] });
    expect(status).toBe(409);
    expect(body.error!.message).toBe(`${host} is already in use by another site`);
    const page = await byHost(host, "/harbour-reopens");
    expect(await page.text()).toContain("Harbour reopens");
  });

  it("lets a claim that was never proved not block the host's real owner", async () => {
    const host = `squat-${uniqueTag().toLowerCase()}.example.com`;
    // Another tenant claims first but cannot prove it; the owner of the DNS proves it and gets it.
    expect((await patchSite(other, { aliases: [host] })).status).toBe(200);
    await claimAndProve(owner, host);
    const squatter = (await patchSite(other, {})).body.data.domains.find((d) => d.host === host)!;
    fakeDns({ [squatter.verification!.name]: [squatter.verification!.value] });
    const stolen = await verify(other, host);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error!.message).toBe(`${host} is already in use by another site`);
    expect(await (await byHost(host, "/harbour-reopens")).text()).toContain("Harbour reopens");
  });

  it("refuses a host named twice in one site", async () => {
    const { status, body } = await patchSite(other, { primaryDomain: "twice.example.com", aliases: ["twice.example.com"] });
    expect(status).toBe(400);
    expect(body.error!.message).toContain("each host name may be named once");
  });

  it("drops a host a site no longer names: it stops routing", async () => {
    const host = `gone-${uniqueTag().toLowerCase()}.example.com`;
    await claimAndProve(other, host);
    expect((await byHost(host)).headers.get("Content-Type")).toContain("text/html");
    expect((await patchSite(other, { primaryDomain: null, aliases: [] })).body.data.domains).toEqual([]);
    expect((await byHost(host)).headers.get("Content-Type")).toContain("application/json");
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM site_domains WHERE host = ?").bind(host).first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});

describe("API8 · host names: a page's absolute addresses come from the site, not the Host header", () => {
  it("keeps a port sent in Host out of the canonical, Open Graph and JSON-LD addresses, and out of the cache", async () => {
    const slug = await siteSlug(owner.siteId);
    const poisoned = await (await sitePage(slug, "/harbour-reopens", { headers: { Host: `${slug}.localhost:6666` } })).text();
    expect(poisoned).not.toContain(":6666");
    const next = await (await sitePage(slug, "/harbour-reopens")).text();
    expect(next).not.toContain(":6666");
  });

  it("answers host names of adversarial length and shape with a 400, at once", async () => {
    for (const host of ["a-".repeat(5000) + "a.com", `${"a.".repeat(2000)}com`, "-".repeat(10_000), `${"a".repeat(64)}.com`]) {
      const started = Date.now();
      expect((await patchSite(other, { primaryDomain: host })).status).toBe(400);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });
});
