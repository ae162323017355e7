import { createExecutionContext, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";

const app = createApp(GROUPS, FALLBACK_SURFACES);

/** A fresh env object: the settings are checked once per env, as once per isolate in production. */
const request = (overrides: Record<string, unknown>) =>
  app.request("https://gateway.test/deposits/minipram/list", { method: "POST" }, { ...env, ...overrides }, createExecutionContext());

afterEach(() => vi.restoreAllMocks());

describe("group D's WeChat settings, declared by the group", () => {
  it.each([
    ["WECHAT_COMPONENT_SECRET", "short"],
    ["WECHAT_ENCODING_AES_KEY", "not-43-characters-of-base64-but-a-secret"],
  ])("a bad %s answers 503 naming it, and no log line carries its value", async (name, value) => {
    const lines: string[] = [];
    for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation((line: string) => void lines.push(line));
    const res = await request({ [name]: value });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ success: false, error: { code: "unavailable", message: `service misconfigured: ${name}` } });
    expect(lines.join("\n")).toContain(name);
    expect(lines.join("\n")).not.toContain(value);
  });
});
