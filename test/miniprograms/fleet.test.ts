import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { FLEET_QUEUE, type FleetMessage } from "../../src/miniprograms/fleet";
import { miniprograms as group } from "../../src/miniprograms/index";
import { miniprogramSteps, miniprograms } from "../../src/miniprograms/schema";
import { ensureSandboxTables, sandboxApps, sandboxAppStates, sandboxAudits, type SandboxAppState } from "../../src/miniprograms/sandbox-tables";
import { sealCredential } from "../../src/miniprograms/tokens";
import { issueApiKey } from "../../src/platform/auth/api-keys";
import { database } from "../../src/platform/database";
import type { Bindings } from "../../src/platform/env";
import { logger } from "../../src/platform/logging";
import { bearer, sessionFor, userRow } from "../helpers/accounts";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { deposits, miniprogramKey, ORIGIN } from "../helpers/miniprograms";

interface Progress {
  id: number;
  finishedAt: string | null;
  expeditesUsed: number;
  counts: Record<string, number>;
  miniprograms: { id: number; state: string; stage: string; percentage: number | null; expedited: boolean; lastStep: string; error: string | null }[];
}

const db = database(env);
let key: TestKey;
beforeAll(async () => {
  key = await miniprogramKey();
  await ensureSandboxTables(env);
  // Nothing runs behind the test's back: what the cron queues is kept in `queued`.
  vi.spyOn(env.MINIPROGRAM_FLEET, "sendBatch").mockImplementation(async (messages) => {
    for (const m of messages) queued.push(m.body as FleetMessage);
    return { metadata: { metrics: { backlogCount: queued.length, backlogBytes: 0 } } };
  });
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const sandbox = async (path: string, body: unknown) => {
  const res = await SELF.fetch(`${ORIGIN}/wechat-sandbox${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`the sandbox's ${path} answered ${res.status}: ${await res.text()}`);
};

/**
 * Mini-programs authorized, named and profiled, as D3 and D4 leave them (profile_updated), with a
 * privacy guide and an approved category at WeChat (the sandbox's state), `live` ones with a version
 * online. Written directly: the walk through D3 and D4 is lifecycle.test.ts's.
 */
async function profiled(owner: TestKey, count: number, live = (_i: number) => true) {
  const apps = Array.from({ length: count }, (_, i) => ({
    appId: `wxfleet${crypto.randomUUID().slice(0, 8)}${i}`,
    refreshToken: `refreshtoken@@@fleet${crypto.randomUUID()}`,
  }));
  const state = (i: number): SandboxAppState => ({
    privacy: {
      owner_setting: { contact_email: "privacy@fleet.example", notice_method: "A pop-up on first use" },
      setting_list: ["UserInfo", "Location", "PhoneNumber"].map((privacy_key) => ({ privacy_key, privacy_text: `To serve you (${privacy_key})` })),
      update_time: 1764145200,
    },
    domains: {
      requestdomain: ["https://api.fleet.example"],
      wsrequestdomain: [],
      uploaddomain: [],
      downloaddomain: [],
      webviewdomain: [],
      prefetchdomain: [],
    },
    categories: [{ first: 2, first_name: "Tools", second: 201, second_name: "Bookings", audit_status: 3, audit_reason: "" }],
    releases: live(i) ? [{ app_version: 1, user_version: "0.9.0", user_desc: "template 100", commit_time: 1764000000 }] : [],
    live: live(i) ? 1 : null,
    rolledBack: false,
    gray: null,
    visitStatus: "open",
    withdrawals: [],
    jsErrors: [],
  });
  const sealed = await Promise.all(apps.map((a) => sealCredential(env, a.refreshToken)));
  const rows: { id: number; appId: string }[] = [];
  // Ten rows a statement: D1 binds at most 100 values.
  for (let from = 0; from < count; from += 10) {
    const part = apps.slice(from, from + 10);
    const [, , inserted] = await db.batch([
      db.insert(sandboxApps).values(part.map((a, i) => ({ ...a, nickname: `Fleet Shop ${from + i}` }))),
      db.insert(sandboxAppStates).values(part.map((a, i) => ({ appId: a.appId, state: state(from + i) }))),
      db
        .insert(miniprograms)
        .values(
          part.map((a, i) => ({
            ownerId: owner.userId,
            name: `Fleet Shop ${from + i}`,
            authorizerAppId: a.appId,
            authorizerRefreshToken: sealed[from + i],
            stage: "profile_updated" as const,
          })),
        )
        .returning({ id: miniprograms.id, appId: miniprograms.authorizerAppId }),
    ]);
    rows.push(...inserted.map((r) => ({ id: r.id, appId: r.appId! })));
  }
  return rows;
}

const rollouts = async <T = Progress>(key_: Pick<TestKey, "token">, body: unknown) => {
  const res = await SELF.fetch(`${ORIGIN}/deposits/fleet/rollouts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key_.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json<{ data: T; error?: { message: string } }>() };
};
const progress = async (id: number, key_: Pick<TestKey, "token"> = key) => {
  const res = await SELF.fetch(`${ORIGIN}/deposits/fleet/rollouts/${id}`, { headers: { Authorization: `Bearer ${key_.token}` } });
  return { status: res.status, body: await res.json<{ data: Progress; error?: { message: string } }>() };
};

/** The queue as the cron fills it: its messages kept here and handed to the consumer by the test. */
const queued: FleetMessage[] = [];
const log = logger({ test: "fleet" });
const fleetTask = group.tasks!.find((t) => t.name === "wechat-fleet")!;

/** The clock moved on, the cron run, and what it sent handed to the consumer (through the worker's queue handler); the batch returned. */
async function cycle(minutes: number, beforeConsuming: () => Promise<unknown> = async () => undefined) {
  vi.setSystemTime(Date.now() + minutes * 60_000);
  await fleetTask.run(env, log);
  await beforeConsuming();
  return deliver(queued.splice(0));
}
async function deliver(messages: FleetMessage[]) {
  const batch = createMessageBatch<FleetMessage>(
    FLEET_QUEUE,
    messages.map((body, i) => ({ id: `fleet-${i}-${body.miniprogramId}-${body.turn}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Bindings>).queue!(batch, env, ctx);
  await getQueueResult(batch, ctx);
  return messages;
}

describe("a fleet rollout", () => {
  it("takes 20 mini-programs to release through a quota that runs out midway, reverting one, submitting none twice", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // The last two have nothing online yet: WeChat releases a first version in full only.
    const fleet = await profiled(key, 20, (i) => i < 18);
    const ids = fleet.map((m) => m.id);
    // The first three are expedited (the budget): their audits would take 10 minutes; the others' are decided at once.
    await db
      .update(sandboxApps)
      .set({ steering: { outcome: "pass", delaySeconds: 0 } })
      .where(
        inArray(
          sandboxApps.appId,
          fleet.slice(3).map((m) => m.appId),
        ),
      );
    await db
      .update(sandboxApps)
      .set({ steering: { outcome: "pass", delaySeconds: 600 } })
      .where(
        inArray(
          sandboxApps.appId,
          fleet.slice(0, 3).map((m) => m.appId),
        ),
      );
    await sandbox("/quota", { rest: 100, speedupRest: 10 });

    const started = await rollouts(key, {
      templateId: 101,
      miniprogramIds: ids,
      phases: [10, 50],
      stepMinutes: 60,
      expediteBudget: 3,
      maxJsErrors: 10,
    });
    expect(started.status).toBe(201);
    const rolloutId = started.body.data.id;
    expect(started.body.data).toMatchObject({ total: 20, templateVersion: expect.any(String), finishedAt: null, counts: { pending: 20 } });
    expect(started.body.data.miniprograms[0]).toMatchObject({
      state: "pending",
      stage: "profile_updated",
      lastStep: "Waiting for the scheduler",
      error: null,
    });

    // Commits.
    await cycle(5);
    expect((await progress(rolloutId)).body.data.counts).toMatchObject({ committed: 20 });

    // The month's quota: 12 left as the cron looks, 10 by the time the submissions are made (another rollout's took 2).
    await sandbox("/quota", { rest: 12, speedupRest: 10 });
    const submits = await cycle(5, () => sandbox("/quota", { rest: 10, speedupRest: 10 }));
    expect(submits).toHaveLength(12);
    let now = (await progress(rolloutId)).body.data;
    expect(now.counts).toMatchObject({ auditing: 10, quota_wait: 10, committed: 0 });
    expect(now.expeditesUsed).toBe(3);
    expect(now.miniprograms.filter((m) => m.expedited).map((m) => m.id)).toEqual(ids.slice(0, 3));
    expect(now.miniprograms[15]).toMatchObject({
      state: "quota_wait",
      stage: "code_committed",
      lastStep: "Waiting for the platform's audit quota (none left this month)",
    });

    // The queue delivers the submissions again: nothing is submitted twice, nothing changes.
    const auditsBefore = await db
      .select()
      .from(sandboxAudits)
      .where(
        inArray(
          sandboxAudits.appId,
          fleet.map((m) => m.appId),
        ),
      );
    await deliver(submits);
    expect(
      await db
        .select()
        .from(sandboxAudits)
        .where(
          inArray(
            sandboxAudits.appId,
            fleet.map((m) => m.appId),
          ),
        ),
    ).toHaveLength(auditsBefore.length);
    expect((await progress(rolloutId)).body.data.counts).toEqual(now.counts);

    // Audits passed: the first ten go to 10 %; no quota, the others wait.
    await cycle(5);
    now = (await progress(rolloutId)).body.data;
    expect(now.counts).toMatchObject({ phased: 10, quota_wait: 10 });
    expect(now.miniprograms[0]).toMatchObject({ state: "phased", stage: "phased_release", percentage: 10, lastStep: "Phased release at 10 %" });

    // Mini-program 5's users hit errors in the new version; next month's quota (or a temporary one) arrives.
    await sandbox("/js-errors", { appId: fleet[4]!.appId, count: 25, message: "TypeError: cart is undefined" });
    await sandbox("/quota", { rest: 100, speedupRest: 0 });
    await cycle(5);
    expect((await progress(rolloutId)).body.data.counts).toMatchObject({ phased: 10, auditing: 10, quota_wait: 0 });
    await cycle(5);
    now = (await progress(rolloutId)).body.data;
    expect(now.counts).toMatchObject({ phased: 18, released: 2 });
    expect(now.miniprograms[19]).toMatchObject({
      state: "released",
      stage: "released",
      lastStep: "Released to everyone at once: nothing was online for a phased release",
    });

    // An hour at 10 %: mini-program 5 is reverted and stopped, the others go on to 50 %.
    await cycle(50);
    now = (await progress(rolloutId)).body.data;
    expect(now.miniprograms[4]).toMatchObject({
      state: "reverted",
      stage: "audit_passed",
      percentage: 0,
      lastStep: "Phased release reverted: users keep the version online before it",
      error: "25 JS errors at 10 % (more than 10; most often: TypeError: cart is undefined)",
    });
    expect(now.miniprograms.filter((m) => m.percentage === 50)).toHaveLength(9);

    for (let i = 0; i < 6 && now.finishedAt === null; i++) {
      await cycle(30);
      now = (await progress(rolloutId)).body.data;
    }
    expect(now.counts).toMatchObject({ released: 19, reverted: 1, failed: 0 });
    expect(now.finishedAt).not.toBeNull();
    expect(now.miniprograms.filter((m) => m.id !== ids[4]).every((m) => m.stage === "released" && m.percentage === 100)).toBe(true);

    // None was submitted twice: one audit each at WeChat, one accepted submission each in the steps.
    const audits = await db
      .select()
      .from(sandboxAudits)
      .where(
        inArray(
          sandboxAudits.appId,
          fleet.map((m) => m.appId),
        ),
      );
    expect(audits).toHaveLength(20);
    const steps = await db.select().from(miniprogramSteps).where(inArray(miniprogramSteps.miniprogramId, ids));
    const submissions = steps.filter((s) => s.step === "submitaudit" && (s.answer as { auditid?: string }).auditid);
    expect(new Set(submissions.map((s) => s.miniprogramId)).size).toBe(20);
    expect(submissions).toHaveLength(20);
    // Each audit's item list came from the committed code's pages (get_page), under the approved category.
    expect(submissions[0]!.request).toEqual({
      item_list: [
        { address: "pages/index/index", title: "Index", first_class: "Tools", second_class: "Bookings", first_id: 2, second_id: 201 },
        { address: "pages/goods/detail", title: "Goods detail", first_class: "Tools", second_class: "Bookings", first_id: 2, second_id: 201 },
        { address: "pages/cart/cart", title: "Cart", first_class: "Tools", second_class: "Bookings", first_id: 2, second_id: 201 },
      ],
    });
    // The steps were recorded with the key that started the rollout.
    expect(submissions.every((s) => s.actorKeyId === key.keyId)).toBe(true);
    vi.useRealTimers();
  });
});

describe("a fleet rollout's failures", () => {
  it("stops a mini-program the preflight refuses, and never submits again one whose submission was interrupted", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const [unguarded, interrupted, sound] = await profiled(key, 3, () => false);
    const three = [unguarded!, interrupted!, sound!];
    await db
      .update(sandboxApps)
      .set({ steering: { outcome: "pass", delaySeconds: 0 } })
      .where(
        inArray(
          sandboxApps.appId,
          three.map((m) => m.appId),
        ),
      );
    // The first one's privacy guide is gone at WeChat.
    const [bare] = await db.select().from(sandboxAppStates).where(eq(sandboxAppStates.appId, unguarded!.appId));
    await db
      .update(sandboxAppStates)
      .set({ state: { ...bare!.state, privacy: undefined } })
      .where(eq(sandboxAppStates.appId, unguarded!.appId));
    await sandbox("/quota", { rest: 100, speedupRest: 10 });
    const started = await rollouts(key, { templateId: 101, miniprogramIds: three.map((m) => m.id), phases: [] });
    const rolloutId = started.body.data.id;

    await cycle(5);
    // The second one's submission was claimed by a delivery whose worker then stopped.
    await cycle(5, () =>
      env.DB.prepare("UPDATE fleet_rollout_targets SET state = 'submitting', submissions = 1 WHERE rollout_id = ? AND miniprogram_id = ?")
        .bind(rolloutId, interrupted!.id)
        .run(),
    );
    let now = (await progress(rolloutId)).body.data;
    expect(now.miniprograms[0]).toMatchObject({
      state: "failed",
      stage: "code_committed",
      lastStep: "Preflight refused",
      error: expect.stringContaining("privacy: The privacy guide has no contact or no notice method (WeChat refuses with 89248)"),
    });
    expect(now.miniprograms[1]).toMatchObject({
      state: "failed",
      lastStep: "Submission interrupted",
      error: "The submission's outcome is unknown (the worker stopped during it); it is not submitted again: D8 tells whether WeChat has it",
    });
    // Submitted once; WeChat's "passed" push (the sandbox passes at once here) may already be in.
    expect(now.miniprograms[2]).toMatchObject({ state: "auditing", stage: expect.stringMatching(/^audit_(submitted|passed)$/) });

    await cycle(5);
    await cycle(5);
    now = (await progress(rolloutId)).body.data;
    expect(now.miniprograms[2]).toMatchObject({ state: "released", stage: "released", lastStep: "Released to everyone" });
    expect(now.counts).toMatchObject({ released: 1, failed: 2 });
    expect(now.finishedAt).not.toBeNull();
    // WeChat got one submission, the sound one's.
    const audits = await db
      .select()
      .from(sandboxAudits)
      .where(
        inArray(
          sandboxAudits.appId,
          three.map((m) => m.appId),
        ),
      );
    expect(audits.map((a) => a.appId)).toEqual([sound!.appId]);
    vi.useRealTimers();
  });
});

describe("starting a fleet rollout", () => {
  it("answers bad input with 400 naming the field, and a rollout of none or more than 500", async () => {
    const cases: [unknown, string][] = [
      [{ miniprogramIds: [1] }, "Template id is required: a template id of D2"],
      [{ templateId: 101, miniprogramIds: [] }, "Miniprogram ids must name at least one mini-program"],
      [{ templateId: 101, miniprogramIds: Array.from({ length: 501 }, (_, i) => i + 1) }, "A rollout takes at most 500 mini-programs"],
      [{ templateId: 101, miniprogramIds: [3, 3] }, "Miniprogram ids must not name a mini-program twice"],
      [{ templateId: 101, miniprogramIds: ["3a"] }, "Each mini-program id must be a configuration id (digits)"],
      [{ templateId: 101, miniprogramIds: [3], phases: [50, 10] }, "Phases must rise: each percentage higher than the one before"],
      [{ templateId: 101, miniprogramIds: [3], phases: [100] }, "Each phase must be from 1 to 99"],
      [{ templateId: 101, miniprogramIds: [3], stepMinutes: 1 }, "Step minutes must be from 5 to 10080"],
      [{ templateId: 101, miniprogramIds: [3], expediteBudget: -1 }, "Expedite budget must be from 0 to 100"],
      [{ templateId: 101, miniprogramIds: [3], owner: 1 }, "The body does not take the field owner"],
    ];
    for (const [body, message] of cases) {
      const answer = await rollouts(key, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error!.message).toBe(message);
    }
  });

  it("refuses another user's mini-programs, unknown ones (500 of them checked), early stages, a busy one and an unknown template", async () => {
    const other = await createTestKey({ scopes: ["miniprogram:*"] });
    const [theirs] = await profiled(other, 1);
    const [mine, busy] = await profiled(key, 2);
    const refused = await rollouts(key, { templateId: 101, miniprogramIds: [mine!.id, theirs!.id] });
    expect(refused.status).toBe(404);
    expect(refused.body.error!.message).toBe(`No mini-program configuration ${theirs!.id}`);

    const unknown = Array.from({ length: 500 }, (_, i) => 900_000 + i);
    const many = await rollouts(key, { templateId: 101, miniprogramIds: unknown });
    expect(many.status).toBe(404);
    expect(many.body.error!.message).toBe(`No mini-program configuration ${unknown.slice(0, 10).join(", ")} and 490 more`);

    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "Not Yet Shop" });
    const early = await rollouts(key, { templateId: 101, miniprogramIds: [mine!.id, created.body.data.id] });
    expect(early.status).toBe(409);
    expect(early.body.error!.message).toBe(
      `A rollout commits code, which needs the stage profile_updated; not there yet: ${created.body.data.id} (configured)`,
    );

    expect((await rollouts(key, { templateId: 999, miniprogramIds: [mine!.id] })).body.error!.message).toBe("No code template 999: D2 lists them");

    const first = await rollouts(key, { templateId: 101, miniprogramIds: [busy!.id] });
    expect(first.status).toBe(201);
    const again = await rollouts(key, { templateId: 102, miniprogramIds: [mine!.id, busy!.id] });
    expect(again.status).toBe(409);
    expect(again.body.error!.message).toBe(`Mini-programs ${busy!.id} are in a rollout still running (${first.body.data.id}): wait for it to end`);

    // The list shows the caller's own rollouts only, newest first.
    const listed = await SELF.fetch(`${ORIGIN}/deposits/fleet/rollouts`, { headers: { Authorization: `Bearer ${key.token}` } });
    const mineListed = (await listed.json<{ data: { id: number; total: number; counts: Record<string, number> }[] }>()).data;
    expect(mineListed[0]).toMatchObject({ id: first.body.data.id, total: 1, counts: { pending: 1, released: 0 } });
    const theirList = await SELF.fetch(`${ORIGIN}/deposits/fleet/rollouts`, { headers: { Authorization: `Bearer ${other.token}` } });
    expect((await theirList.json<{ data: unknown[] }>()).data).toEqual([]);

    // Its progress is the starter's to read: another user's key finds no such rollout; a read-only key reads, but cannot start one.
    expect((await progress(first.body.data.id, other)).status).toBe(404);
    const reader = await issueApiKey(db, env.KEY_ENCRYPTION_KEY, {
      userId: key.userId,
      name: "reader",
      scopes: ["miniprogram:read"],
      plan: "internal",
    });
    expect((await progress(first.body.data.id, reader)).body.data).toMatchObject({ id: first.body.data.id, counts: { pending: 1 } });
    expect((await rollouts(reader, { templateId: 101, miniprogramIds: [mine!.id] })).status).toBe(403);
    expect((await db.select().from(miniprograms).where(eq(miniprograms.id, mine!.id)))[0]!.stage).toBe("profile_updated");

    // The console's mount (a person's session, here their JWT): the same reads, their own rollouts only.
    const viaConsole = async (path: string, userId: number) =>
      SELF.fetch(`${ORIGIN}/admin/api/deposits/fleet/rollouts${path}`, { headers: bearer(await sessionFor((await userRow(userId))!)) });
    const consoleList = await viaConsole("", key.userId);
    expect(consoleList.status).toBe(200);
    expect((await consoleList.json<{ data: { id: number }[] }>()).data[0]).toMatchObject({ id: first.body.data.id });
    expect((await (await viaConsole(`/${first.body.data.id}`, key.userId)).json<{ data: Progress }>()).data).toMatchObject({
      id: first.body.data.id,
      counts: { pending: 1 },
    });
    expect((await viaConsole(`/${first.body.data.id}`, other.userId)).status).toBe(404);
    expect((await SELF.fetch(`${ORIGIN}/admin/api/deposits/fleet/rollouts/${first.body.data.id}`)).status).toBe(401);
  });
});
