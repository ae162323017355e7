import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { miniprograms } from "../../src/miniprograms/schema";
import { authorizerAccessToken } from "../../src/miniprograms/tokens";
import { upstreamOf } from "../../src/miniprograms/upstream";
import { database } from "../../src/platform/database";
import { eq } from "drizzle-orm";
import type { TestKey } from "../helpers/credentials";
import { expectRetryLater, Faults, forEachFault } from "../helpers/faults";
import { authorizedMiniprogram, deposits, miniprogramKey } from "../helpers/miniprograms";

const UNAVAILABLE = { success: false, error: { code: "unavailable", message: "The service is temporarily unavailable; retry in a few seconds" } };

let key: TestKey;
beforeAll(async () => {
  key = await miniprogramKey();
  // The key known to this isolate before the loops: each run then makes the same calls.
  await new Faults().fetch("/deposits/minipram/list", request({ pageSize: 1 }));
});

function request(body: unknown): RequestInit {
  return { method: "POST", headers: { Authorization: `Bearer ${key.token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const stateOf = async (id: string) => ({
  configuration: await env.DB.prepare("SELECT name, stage FROM miniprograms WHERE id = ?").bind(id).first(),
  steps: (await env.DB.prepare("SELECT step FROM miniprogram_steps WHERE miniprogram_id = ? ORDER BY id").bind(id).all()).results,
});

describe("D steps while D1 or KV fails", () => {
  it("creates a configuration once: answered, or a 503 with nothing stored and a retry that creates one", async () => {
    const failed = await forEachFault(async (faults) => {
      const name = `Shop ${crypto.randomUUID().slice(0, 8)}`;
      const res = await faults.fetch("/deposits/minipram/create", request({ name }));
      if (res.status !== 200) {
        expect(await expectRetryLater(res)).toEqual(UNAVAILABLE);
        expect(await env.DB.prepare("SELECT count(*) AS n FROM miniprograms WHERE name = ?").bind(name).first("n")).toBe(0);
        expect((await deposits("/minipram/create", key, { name })).status).toBe(200);
      }
      expect(await env.DB.prepare("SELECT count(*) AS n FROM miniprograms WHERE name = ?").bind(name).first("n")).toBe(1);
    });
    expect(failed.length).toBeGreaterThan(0);
  });

  it("takes a WeChat step all or nothing: the stage and its step record together, and a retry takes it once", async () => {
    const { id } = await authorizedMiniprogram(key, "Step Shop");
    const before = await stateOf(id);
    await forEachFault(async (faults) => {
      await env.DB.prepare("UPDATE miniprograms SET stage = 'authorized', name = 'Step Shop' WHERE id = ?").bind(id).run();
      await env.DB.prepare("DELETE FROM miniprogram_steps WHERE miniprogram_id = ? AND step = 'nameverify'").bind(id).run();
      const res = await faults.fetch("/deposits/wxa/nameverify", request({ id, name: "Harbour Tickets" }));
      if (res.status !== 200) {
        expect(await expectRetryLater(res)).toEqual(UNAVAILABLE);
        expect(await stateOf(id)).toEqual(before);
        expect((await deposits("/wxa/nameverify", key, { id, name: "Harbour Tickets" })).status).toBe(200);
      }
      const after = await stateOf(id);
      expect(after.configuration).toEqual({ name: "Harbour Tickets", stage: "name_verified" });
      expect(after.steps.filter((s) => s.step === "nameverify")).toHaveLength(1);
    });
  });

  it("refreshes an authorizer's token all or nothing: a failed refresh leaves one that a later refresh renews", async () => {
    const { id } = await authorizedMiniprogram(key, "Token Shop");
    const configuration = async () =>
      (
        await database(env)
          .select()
          .from(miniprograms)
          .where(eq(miniprograms.id, Number(id)))
      )[0]!;
    const failed = await forEachFault(async (faults) => {
      const ctx = { db: database(faults.env), env: faults.env, upstream: upstreamOf(faults.env, (work) => void work.catch(() => undefined)) };
      await authorizerAccessToken(ctx, await configuration(), true).catch(() => undefined);
      const untroubled = { db: database(env), env, upstream: upstreamOf(env, (work) => void work.catch(() => undefined)) };
      expect(await authorizerAccessToken(untroubled, await configuration(), true)).toMatch(/\S/);
    });
    expect(failed.some((call) => call.startsWith("DB batch"))).toBe(true);
  });
});
