import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { nextCronRun } from "../../src/platform/jobs/cron";
import { createTestKey } from "../helpers/credentials";
import { adminKey, EU_VAT_URL, euVatFeedFromDatabase, serveFeeds } from "../helpers/feeds";
import { call, envelope, secretHeaders } from "../helpers/requests";

afterEach(() => vi.restoreAllMocks());

interface Status {
  job: string;
  schedule: string;
  nextRun: string;
  lastRun: { status: string; trigger: string } | null;
  lastSuccess: { status: string } | null;
}

describe("cron dispatch", () => {
  const fire = (query: string, environment: string, method = "POST") =>
    worker.fetch(new Request(`https://gateway.test/__scheduled${query}`, { method }), { ...env, ENVIRONMENT: environment }, createExecutionContext());

  it("fires a cron by POST /__scheduled in development (wrangler dev's own trigger does not reach a Worker with assets), and runs its jobs", async () => {
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(await euVatFeedFromDatabase()) });
    const res = await fire("?cron=15+2+*+*+*", "development");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      cron: "15 2 * * *",
      jobs: ["eu-vat"],
      tasks: expect.arrayContaining(["content-trash", "wechat-templates"]),
    });
    const run = await env.DB.prepare("SELECT job, trigger, status FROM job_runs ORDER BY id DESC LIMIT 1").first();
    expect(run).toEqual({ job: "eu-vat", trigger: "cron", status: "succeeded" });
  });

  it("names the crons it knows for an unknown one or a GET, and is not there outside development", async () => {
    for (const [query, method] of [
      ["?cron=*+*+*+*+*", "POST"],
      ["", "POST"],
      ["?cron=15+2+*+*+*", "GET"],
    ] as const) {
      const res = await fire(query, "development", method);
      expect(res.status, `${method} ${query}`).toBe(400);
      expect((await res.json<{ detail: string }>()).detail).toContain("15 2 * * * | ");
    }
    for (const environment of ["production", "test"]) expect((await fire("?cron=15+2+*+*+*", environment)).status).toBe(404);
  });

  it("runs the jobs of the cron expression that fired", async () => {
    serveFeeds({ [EU_VAT_URL]: JSON.stringify(await euVatFeedFromDatabase()) });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "15 2 * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const run = await env.DB.prepare("SELECT job, trigger, status FROM job_runs ORDER BY id DESC LIMIT 1").first();
    expect(run).toEqual({ job: "eu-vat", trigger: "cron", status: "succeeded" });
  });

  it("runs every monthly job on the monthly expression, each on its own", async () => {
    serveFeeds({});
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "30 3 1 * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const { results } = await env.DB.prepare("SELECT job, status FROM job_runs WHERE trigger = 'cron' AND job != 'eu-vat' ORDER BY job").all();
    expect(results).toEqual([
      { job: "china", status: "failed" },
      { job: "encyclopedia", status: "failed" },
      { job: "oecd", status: "failed" },
      { job: "reference", status: "failed" },
    ]);
  });

  it("matches the triggers of wrangler.toml", async () => {
    const doc = await (await call("/std/scheduler/status", { headers: secretHeaders(await adminKey()) })).json<{ data: Status[] }>();
    expect([...new Set(doc.data.map((s) => s.schedule))].sort()).toEqual(["15 2 * * *", "30 3 1 * *", "45 4 1 1,4,7,10 *"].sort());
  });
});

describe("the scheduler status monitor", () => {
  it("shows each job's schedule, next run, last run and last success to an admin", async () => {
    const res = await call("/std/scheduler/status", { headers: secretHeaders(await adminKey()) });
    expect(res.status).toBe(200);
    const statuses = (await envelope<Status[]>(res)).data;
    expect(statuses.map((s) => s.job)).toEqual(["eu-vat", "oecd", "encyclopedia", "china", "hs", "units", "reference"]);
    const euVat = statuses.find((s) => s.job === "eu-vat")!;
    expect(euVat.lastRun).toMatchObject({ status: "succeeded", trigger: "cron" });
    expect(euVat.lastSuccess).toMatchObject({ status: "succeeded" });
    expect(Date.parse(euVat.nextRun)).toBeGreaterThan(Date.now());
    expect(statuses.find((s) => s.job === "hs")!.lastRun).toBeNull();
  });

  it("refuses a key of a user who is not an admin", async () => {
    const res = await call("/std/scheduler/status", { headers: secretHeaders(await createTestKey()) });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 403, msg: "Insufficient permission: requires an admin key", data: null });
    const run = await call("/std/scheduler/run/eu-vat", { method: "POST", headers: secretHeaders(await createTestKey()) });
    expect(run.status).toBe(403);
  });

  it("takes of an admin's keys only those with the scheduler scope", async () => {
    const taxOnly = await createTestKey({ role: "admin", scopes: ["taxrate:read"] });
    const status = await call("/std/scheduler/status", { headers: secretHeaders(taxOnly) });
    expect(status.status).toBe(403);
    expect(await status.json()).toEqual({ code: 403, msg: "Insufficient permission: requires scope scheduler:read", data: null });
    expect((await call("/std/scheduler/run/everything", { method: "POST", headers: secretHeaders(taxOnly) })).status).toBe(403);

    const reader = await createTestKey({ role: "admin", scopes: ["scheduler:read"] });
    expect((await call("/std/scheduler/status", { headers: secretHeaders(reader) })).status).toBe(200);
    const run = await call("/std/scheduler/run/everything", { method: "POST", headers: secretHeaders(reader) });
    expect(run.status).toBe(403);
    expect((await envelope(run)).msg).toBe("Insufficient permission: requires scope scheduler:write");

    const runner = await createTestKey({ role: "admin", scopes: ["scheduler:*"] });
    expect((await call("/std/scheduler/run/everything", { method: "POST", headers: secretHeaders(runner) })).status).toBe(404);
  });

  it("answers 404 for an unknown job", async () => {
    const res = await call("/std/scheduler/run/everything", { method: "POST", headers: secretHeaders(await adminKey()) });
    expect(res.status).toBe(404);
    expect((await envelope(res)).msg).toBe("No job everything; the jobs are eu-vat, oecd, encyclopedia, china, hs, units, reference");
  });
});

describe("next run", () => {
  it.each([
    ["15 2 * * *", "2026-11-22T10:00:00Z", "2026-11-23T02:15:00.000Z"],
    ["15 2 * * *", "2026-11-22T01:00:00Z", "2026-11-22T02:15:00.000Z"],
    ["30 3 1 * *", "2026-11-22T10:00:00Z", "2026-12-01T03:30:00.000Z"],
    ["45 4 1 1,4,7,10 *", "2026-11-22T10:00:00Z", "2027-01-01T04:45:00.000Z"],
    ["45 4 1 1,4,7,10 *", "2027-01-01T04:45:00Z", "2027-04-01T04:45:00.000Z"],
    ["*/5 * * * *", "2026-11-22T10:02:30Z", "2026-11-22T10:05:00.000Z"],
    ["*/5 * * * *", "2026-11-22T10:55:00Z", "2026-11-22T11:00:00.000Z"],
    ["0 */6 */2 * *", "2026-11-22T19:00:00Z", "2026-11-23T00:00:00.000Z"],
    ["10-20/5 2 * * *", "2026-11-22T02:16:00Z", "2026-11-22T02:20:00.000Z"],
  ])("of %s after %s is %s", (cron, from, next) => {
    expect(nextCronRun(cron, new Date(from)).toISOString()).toBe(next);
  });

  it("refuses a step of zero or a word", () => {
    for (const cron of ["*/0 * * * *", "@hourly * * * *"]) expect(() => nextCronRun(cron, new Date()), cron).toThrow("unsupported cron field");
  });
});
