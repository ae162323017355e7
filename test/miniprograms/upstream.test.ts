import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SANDBOX_BASE, sandboxRoutes, upstreamOf } from "../../src/miniprograms/upstream";
import { WECHAT_API } from "../../src/miniprograms/wechat/client";
import type { Bindings } from "../../src/platform/env";

const noWait = () => {};
const configured = {
  WECHAT_COMPONENT_APPID: "wxcomponent000001",
  WECHAT_COMPONENT_SECRET: "a-real-secret",
  WECHAT_MESSAGE_TOKEN: "token123",
  WECHAT_ENCODING_AES_KEY: "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
};

describe("which WeChat group D talks to", () => {
  it("is the sandbox outside production when WECHAT_API_BASE is unset", () => {
    const upstream = upstreamOf({ ...env, ENVIRONMENT: "development", WECHAT_API_BASE: undefined } as Bindings, noWait);
    expect(upstream).toMatchObject({ sandbox: true, transport: { base: SANDBOX_BASE } });
  });

  it("is WeChat's own API in production, and only with the four component settings", () => {
    const production = { ...env, ENVIRONMENT: "production", WECHAT_API_BASE: undefined } as Bindings;
    expect(() => upstreamOf(production, noWait)).toThrow(
      "Mini-program management is not configured: set WECHAT_COMPONENT_APPID, WECHAT_COMPONENT_SECRET, WECHAT_MESSAGE_TOKEN and WECHAT_ENCODING_AES_KEY",
    );
    const upstream = upstreamOf({ ...production, ...configured }, noWait);
    expect(upstream).toMatchObject({
      sandbox: false,
      transport: { base: WECHAT_API },
      component: { appId: "wxcomponent000001", messageToken: "token123" },
    });
  });

  it("is WECHAT_API_BASE when set, sandbox or not", () => {
    const upstream = upstreamOf(
      { ...env, ...configured, ENVIRONMENT: "development", WECHAT_API_BASE: "https://wechat-proxy.example.com" } as Bindings,
      noWait,
    );
    expect(upstream).toMatchObject({ sandbox: false, transport: { base: "https://wechat-proxy.example.com" } });
  });

  it("keeps the sandbox shut in production", async () => {
    const ctx = { waitUntil: noWait, passThroughOnException: noWait, props: {} } as unknown as ExecutionContext;
    const res = await sandboxRoutes(
      new Request("https://gateway.test/wechat-sandbox/push-ticket", { method: "POST" }),
      { ...env, ENVIRONMENT: "production" },
      ctx,
    );
    expect(res.status).toBe(404);
  });

  it("has the sandbox push through the receivers, a fresh timestamp and nonce each, so replay protection lets each in", async () => {
    const pushes = await Promise.all([1, 2, 3].map(() => SELF.fetch("https://gateway.test/wechat-sandbox/push-ticket", { method: "POST" })));
    expect(await Promise.all(pushes.map(async (res) => [res.status, await res.json()]))).toEqual(Array(3).fill([200, { pushed: true }]));
  });
});

/** Group D's sources as the tests see them, for the shape of its imports. */
const sources = import.meta.glob<string>("../../src/miniprograms/**/*.ts", { query: "?raw", import: "default", eager: true });
const staticImports = (file: string) =>
  [...sources[`../../src/miniprograms/${file}`]!.matchAll(/^import (?!type )[^;]*?from "([^"]+)"/gm)].map((m) => m[1]!);

describe("the sandbox's place among group D's modules", () => {
  it("is loaded by import() alone, in upstream.ts: no module imports it statically, nor its tables or operations but itself", () => {
    const importers = Object.entries(sources).filter(([, text]) => /^import (?!type )[^;]*?from "\.\/sandbox(-tables|-operations)?"/m.test(text));
    expect(importers.map(([file]) => file).sort()).toEqual(["../../src/miniprograms/sandbox-operations.ts", "../../src/miniprograms/sandbox.ts"]);
    expect(sources["../../src/miniprograms/upstream.ts"]).toContain('import("./sandbox")');
  });

  it("imports nothing of the service: its pushes go in through SandboxHost.deliver, so no import circle runs through it", () => {
    const ofTheService = (file: string) => staticImports(file).filter((target) => target.startsWith("./") && !target.startsWith("./wechat/"));
    expect(ofTheService("sandbox.ts")).toEqual(["./sandbox-operations", "./sandbox-tables"]);
    expect(ofTheService("sandbox-operations.ts")).toEqual(["./sandbox-tables"]);
  });

  it("leaves no import circle in group D: no module reaches itself through the modules it loads statically", () => {
    const within = (file: string) => (target: string) => new URL(`${target}.ts`, `file:///${file}`).pathname.slice(1);
    const loads = (file: string) =>
      staticImports(file)
        .filter((target) => target.startsWith("."))
        .map(within(file));
    const circles = Object.keys(sources)
      .map((path) => path.slice("../../src/miniprograms/".length))
      .filter((start) => {
        const seen = new Set<string>();
        const next = loads(start);
        while (next.length) {
          const file = next.pop()!;
          if (file === start) return true;
          if (seen.has(file) || !sources[`../../src/miniprograms/${file}`]) continue;
          seen.add(file);
          next.push(...loads(file));
        }
        return false;
      });
    expect(circles).toEqual([]);
  });
});
