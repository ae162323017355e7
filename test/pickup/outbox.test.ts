import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import type { Bindings } from "../../src/platform/env";
import { createTestApp, fakeNetwork, type FakeNetwork, pickup, submission, waitFor } from "../helpers/pickups";
import { envelope } from "../helpers/requests";

let network: FakeNetwork;
beforeEach(() => {
  network = fakeNetwork();
});
afterEach(() => vi.restoreAllMocks());

const SWEEP_CRON = "*/5 * * * *";
const task = (id: number) => env.DB.prepare("SELECT process, updated_at FROM pickup_tasks WHERE id = ?").bind(id).first<{ process: string }>();
const eventsOf = (id: number) =>
  env.DB.prepare("SELECT id, outcome, payload FROM webhook_events WHERE task_id = ? ORDER BY created_at")
    .bind(id)
    .all<{ id: string; outcome: string; payload: string }>();

/** Moves a task's clock (and its events') back, as if the queue had lost its messages long ago. */
async function age(taskId: number, minutes: number) {
  const past = new Date(Date.now() - minutes * 60_000).toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE pickup_tasks SET updated_at = ?, created_at = ? WHERE id = ?").bind(past, past, taskId),
    env.DB.prepare("UPDATE webhook_events SET created_at = ? WHERE task_id = ?").bind(past, taskId),
  ]);
}

async function sweep() {
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Bindings>).scheduled!(createScheduledController({ cron: SWEEP_CRON, scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("the pickup outbox", () => {
  it("answers a submission whose queue send failed, and the sweep gets the task moving", async () => {
    const app = await createTestApp();
    vi.spyOn(env.PICKUPS, "send").mockRejectedValueOnce(new Error("queue unavailable"));
    const res = await pickup("/carrier/pickup/submit", app, submission());
    expect(res.status).toBe(200);
    const taskId = (await envelope<{ task_id: number }>(res)).data.task_id;
    expect((await task(taskId))?.process).toBe("pending");

    await sweep(); // too early: the grace period protects a message that is only slow
    expect((await task(taskId))?.process).toBe("pending");

    await age(taskId, 10);
    await sweep();
    await waitFor(async () => (await task(taskId))?.process === "create", "the swept task to reach the carrier");
  });

  it("writes a move and its notification together, and none for a move that did not happen", async () => {
    const app = await createTestApp();
    const taskId = (await envelope<{ task_id: number }>(await pickup("/carrier/pickup/submit", app, submission()))).data.task_id;
    await waitFor(async () => (await task(taskId))?.process === "create", "the carrier to accept");
    const events = (await eventsOf(taskId)).results;
    expect(events.map((e) => JSON.parse(e.payload).data.process)).toEqual(["processing", "create"]);

    const refused = await pickup("/pickup/re-create", app, { taskId });
    expect(refused.status).toBe(409);
    expect((await eventsOf(taskId)).results).toHaveLength(2);
  });

  it("sends a notification again when its first attempt was never queued", async () => {
    const app = await createTestApp();
    const webhookSend = vi.spyOn(env.WEBHOOKS, "send").mockRejectedValue(new Error("queue unavailable"));
    const taskId = (await envelope<{ task_id: number }>(await pickup("/carrier/pickup/submit", app, submission()))).data.task_id;
    await waitFor(async () => (await task(taskId))?.process === "create", "the carrier to accept");
    const deliveredFor = () => network.received.filter((r) => JSON.parse(r.body).data.task_id === taskId);
    expect((await eventsOf(taskId)).results.map((e) => e.outcome)).toEqual(["pending", "pending"]);
    expect(deliveredFor()).toHaveLength(0);

    webhookSend.mockRestore();
    await age(taskId, 10);
    await sweep();
    await waitFor(async () => (await eventsOf(taskId)).results.every((e) => e.outcome === "delivered"), "both notifications delivered");
    expect(deliveredFor()).toHaveLength(2);

    await sweep(); // delivered events are left alone
    expect(deliveredFor()).toHaveLength(2);
  });
});
