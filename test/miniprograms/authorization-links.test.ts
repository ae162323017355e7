import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, deposits, miniprogramKey, ORIGIN } from "../helpers/miniprograms";

let key: TestKey;
// The first request loads the Worker: seconds on a loaded machine, more than the default 10 s hook timeout.
beforeAll(async () => {
  key = await miniprogramKey();
}, 30_000);

const randomState = () => [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
const redirect = (id: number | string, state: string) => SELF.fetch(`${ORIGIN}/wechat/authorized/${id}/${state}?auth_code=queryauthcode@@@x`);
const stageOf = async (id: number | string) =>
  (await env.DB.prepare("SELECT stage FROM miniprograms WHERE id = ?").bind(Number(id)).first<{ stage: string }>())!.stage;

/** A new configuration's link, and where the sandbox's consent sends the owner back (its push goes out meanwhile). */
async function linkAndConsent(name: string) {
  const created = await deposits<{ id: number }>("/minipram/create", key, { name });
  const id = String(created.body.data.id);
  const link = await deposits<{ authorizeUrl: string }>("/minipram/authorize", key, { id });
  const consent = await SELF.fetch(link.body.data.authorizeUrl, { redirect: "manual" });
  return { id, back: consent.headers.get("Location")! };
}

async function untilAuthorized(id: string) {
  for (let tries = 0; tries < 50 && (await stageOf(id)) !== "authorized"; tries++) await new Promise((r) => setTimeout(r, 20));
}

describe("API1 · the owner's redirect: a state the service did not make", () => {
  it("answers 404, naming no app id, for any other state on an authorized configuration", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Probed Shop");
    const probe = await redirect(id, randomState());
    const text = await probe.text();
    expect([probe.status, text]).toEqual([404, "No mini-program waits for this authorization"]);
    expect(text).not.toContain(appId);
  });

  it("answers the same 404 for an unknown id, a configuration without a link, and a forged state while a link waits", async () => {
    const unknown = await redirect(999_999_999_999, randomState());
    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "Unlinked Shop" });
    const unlinked = await redirect(created.body.data.id, randomState());
    await deposits("/minipram/authorize", key, { id: String(created.body.data.id) });
    const forged = await redirect(created.body.data.id, randomState());
    for (const res of [unknown, unlinked, forged])
      expect([res.status, await res.text()]).toEqual([404, "No mini-program waits for this authorization"]);
    expect(await stageOf(created.body.data.id)).toBe("configured");
  });

  it("still shows the owner's page for the link's own state after WeChat's push completed the authorization", async () => {
    const { id, back } = await linkAndConsent("Push First Shop");
    await untilAuthorized(id);
    const [row] = (
      await env.DB.prepare("SELECT pre_auth_code, authorizer_app_id FROM miniprograms WHERE id = ?")
        .bind(Number(id))
        .all<{ pre_auth_code: string | null; authorizer_app_id: string }>()
    ).results;
    expect(row!.pre_auth_code).toBeNull();
    const page = await SELF.fetch(back);
    expect([page.status, await page.text()]).toEqual([
      200,
      `Mini-program configuration ${id} is authorized (app id ${row!.authorizer_app_id}). You can close this page.`,
    ]);
  });

  it("answers 404 for the state of an earlier link once a new one was made", async () => {
    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "Relinked Shop" });
    const id = String(created.body.data.id);
    const first = new URL((await deposits<{ authorizeUrl: string }>("/minipram/authorize", key, { id })).body.data.authorizeUrl);
    const firstState = new URL(first.searchParams.get("redirect_uri")!).pathname.split("/").pop()!;
    await deposits("/minipram/authorize", key, { id });
    expect((await redirect(id, firstState)).status).toBe(404);
  });
});

describe("API8 · links group D hands out: the configured origin, never the request's Host", () => {
  const fromHost = (host: string, path: string, body: unknown) =>
    SELF.fetch(`https://${host}/deposits${path}`, {
      method: "POST",
      headers: { Host: host, Authorization: `Bearer ${key.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("builds the authorization link and its redirect_uri on PUBLIC_ORIGIN, whatever Host says", async () => {
    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "Hosted Elsewhere" });
    const res = await fromHost("evil.example", "/minipram/authorize", { id: String(created.body.data.id) });
    expect(res.status).toBe(200);
    const { authorizeUrl } = (await res.json<{ data: { authorizeUrl: string } }>()).data;
    expect(authorizeUrl).not.toContain("evil.example");
    const url = new URL(authorizeUrl);
    expect(url.origin).toBe(ORIGIN); // the sandbox's consent page; WeChat's own in production
    expect(url.searchParams.get("redirect_uri")).toMatch(new RegExp(`^${ORIGIN}/wechat/authorized/${created.body.data.id}/[0-9a-f]{64}$`));
  });

  it("gives D7's code images on PUBLIC_ORIGIN, whatever Host says", async () => {
    const { id } = await authorizedMiniprogram(key, "Coded Elsewhere");
    // Name and profile are not what this is about: straight to D5, which the sandbox records.
    await env.DB.prepare("UPDATE miniprograms SET stage = 'profile_updated' WHERE id = ?").bind(Number(id)).run();
    expect((await deposits("/wxa/codecommit", key, { id, tplId: 101 })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    const res = await fromHost("evil.example:6666", "/wxa/tester/infor", { id });
    expect(res.status).toBe(200);
    const { data } = await res.json<{ data: { test_qrcode: string; wxa_code: string } }>();
    for (const link of [data.test_qrcode, data.wxa_code])
      expect(link).toMatch(new RegExp(`^${ORIGIN}/deposits/codes/${id}/[a-z]+-[A-Za-z0-9]{20}\\.png$`));
  });
});
