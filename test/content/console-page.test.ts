import { describe, expect, it } from "vitest";
import { call } from "../helpers/requests";

/** The console's page, its files, and the admin API's paths beside them (the app itself: test/browser/). */
describe("the admin console's page", () => {
  it("is served for /admin and for any screen's address, under the pages' security policy", async () => {
    for (const path of ["/admin", "/admin/", "/admin/contents/12", "/admin/keys?x=1"]) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
      expect(res.headers.get("X-Frame-Options")).toBe("DENY");
      expect(res.headers.get("Cache-Control")).toBe("no-cache");
      const html = await res.text();
      expect(html).toContain('<div id="app">');
      // Every script and style is the Worker's own: no other origin.
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it("loads its script and style from the Worker's static assets", async () => {
    const html = await (await call("/admin/")).text();
    const script = /<script type="module" crossorigin src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /<link rel="stylesheet" crossorigin href="(\/admin\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    const js = await call(script!);
    expect(js.status).toBe(200);
    expect(js.headers.get("Content-Type")).toMatch(/javascript/);
    expect((await call(style!)).headers.get("Content-Type")).toMatch(/^text\/css/);
    // Named by their content's hash: a browser keeps them for good, and asks only for the page again.
    expect(js.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect((await call(style!)).headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });

  it("leaves the admin API's paths to the API, known or not: its credential check and envelope, never the page", async () => {
    for (const path of ["/admin/api", "/admin/api/no-such-route", "/admin/api/tenants"]) {
      const res = await call(path);
      expect(res.status, path).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: { code: "unauthorized", message: "Authorization header required" } });
    }
  });

  it("answers a missing asset with 404, and takes no writes", async () => {
    expect((await call("/admin/assets/nothing-here.js")).status).toBe(404);
    const write = await call("/admin/contents", { method: "POST" });
    expect(write.status).toBe(405);
    expect(write.headers.get("Allow")).toBe("GET, HEAD");
  });
});
