import { env } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestApp, fakeNetwork, type FakeNetwork, pickup, submission, type TestApp, waitFor } from "../helpers/pickups";
import { call, envelope } from "../helpers/requests";

let network: FakeNetwork;
beforeEach(() => {
  network = fakeNetwork();
});
afterEach(() => vi.restoreAllMocks());

const processOf = async (taskId: number) =>
  (await env.DB.prepare("SELECT process FROM pickup_tasks WHERE id = ?").bind(taskId).first<{ process: string }>())?.process;

async function submit(app: TestApp, overrides: Record<string, unknown> = {}) {
  const res = await pickup("/carrier/pickup/submit", app, submission(overrides));
  return (await envelope<{ task_id: number }>(res)).data.task_id;
}

const notificationsFor = (taskId: number) =>
  network.received
    .map((r) => ({
      ...r,
      payload: JSON.parse(r.body) as {
        data: { task_id: number; process: string; sign_string: string; carrier_order_id: string | null; failure_reason: string | null };
      },
    }))
    .filter((r) => r.payload.data.task_id === taskId);

describe("the life of a pickup task", () => {
  it("goes pending → processing → create, and the receiver gets both notifications, signed", async () => {
    const app = await createTestApp();
    const taskId = await submit(app);
    await waitFor(async () => (await processOf(taskId)) === "create", "the carrier to accept");
    const received = await waitFor(async () => notificationsFor(taskId).length >= 2 && notificationsFor(taskId), "two notifications");

    expect(received.map((r) => r.payload.data.process).sort()).toEqual(["create", "processing"]);
    const created = received.find((r) => r.payload.data.process === "create")!;
    expect(created.payload.data).toMatchObject({ sign_string: "caller-verification-123", carrier_order_id: expect.stringMatching(/^SBX-/) });

    // A receiver using the reference Standard Webhooks library accepts the signature.
    const verifier = new Webhook(app.webhookSecret);
    expect(() => verifier.verify(created.body, created.headers)).not.toThrow();
    expect(() => verifier.verify(created.body.replace("create", "failed"), created.headers)).toThrow();

    const deliveries = await call(`/api/v1/pickup/${taskId}/deliveries`, { headers: { Authorization: `appToken ${app.appToken}` } });
    const attempts = (await envelope<{ attempt: number; status: number; latency_ms: number }[]>(deliveries)).data;
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 200 });
    // What the receiver answered is neither stored nor shown.
    expect(attempts[0]).not.toHaveProperty("response_excerpt");
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM webhook_deliveries WHERE task_id = ?").bind(taskId).all())).not.toContain(
      "receiver says",
    );
  });

  it("fails with the carrier's reason, then P4 creates the order again", async () => {
    const app = await createTestApp();
    const taskId = await submit(app, { meta_data: { sandbox_outcome: "reject", sandbox_reason: "no driver in that area" } });
    await waitFor(async () => (await processOf(taskId)) === "failed", "the carrier to reject");
    const failed = await waitFor(async () => notificationsFor(taskId).find((r) => r.payload.data.process === "failed"), "the failed notification");
    expect(failed.payload.data.failure_reason).toBe("no driver in that area");
    // The list says it too, for a caller without a receiver.
    const listed = await envelope<{ data: { id: number; failure_reason: string | null; carrier_order_id: string | null }[] }>(
      await pickup("/pickup/list", app, { process: "failed" }),
    );
    expect(listed.data.data.find((t) => t.id === taskId)).toMatchObject({ failure_reason: "no driver in that area", carrier_order_id: null });

    const again = await pickup("/pickup/re-create", app, { taskId });
    expect(await again.json()).toEqual({ code: 200, msg: "success", data: { task_id: taskId, process: "pending" } });
    await waitFor(async () => notificationsFor(taskId).filter((r) => r.payload.data.process === "failed").length >= 2, "the second failure");
  });

  it("lists the app's tasks with paging and the process filter, and nobody else's", async () => {
    const [app, other] = await Promise.all([createTestApp(), createTestApp()]);
    const ids = [await submit(app), await submit(app), await submit(app)];
    await submit(other);
    await Promise.all(ids.map((id) => waitFor(async () => (await processOf(id)) === "create", "acceptance")));
    const page = await pickup("/pickup/list", app, { pageNumber: 1, pageSize: 2 });
    const { data } = await envelope<{
      total: number;
      currPage: number;
      data: { id: number; process: string; request_id: string; carrier_order_id: string | null; failure_reason: string | null }[];
    }>(page);
    expect(data.total).toBe(3);
    expect(data.currPage).toBe(1);
    expect(data.data.map((t) => t.id)).toEqual([ids[2], ids[1]]);
    expect(data.data[0]).toMatchObject({ carrier_order_id: expect.stringMatching(/^SBX-/), failure_reason: null });
    const pending = await envelope<{ total: number }>(await pickup("/pickup/list", app, { process: "pending" }));
    expect(pending.data.total).toBe(0);
    expect((await pickup("/pickup/list", app, { process: "shipped" })).status).toBe(400);
  });
});

describe("P3 to P5", () => {
  it("re-sends the last notification with the same id", async () => {
    const app = await createTestApp();
    const taskId = await submit(app);
    await waitFor(async () => notificationsFor(taskId).length >= 2, "the notifications");
    const res = await pickup("/pickup/re-send", app, { taskId });
    const { data } = await envelope<{ event_id: string }>(res);
    const resent = await waitFor(
      async () => network.received.filter((r) => r.headers["webhook-id"] === data.event_id).length >= 2,
      "the re-sent notification",
    );
    expect(resent).toBe(true);
  });

  it("refreshes the carrier authorization", async () => {
    const app = await createTestApp();
    const taskId = await submit(app);
    await waitFor(async () => (await processOf(taskId)) === "create", "acceptance");
    expect(await (await pickup("/pickup/authorize/refresh", app, { taskId })).json()).toEqual({
      code: 200,
      msg: "success",
      data: { task_id: taskId },
    });
  });

  it.each([["/pickup/re-send"], ["/pickup/re-create"], ["/pickup/authorize/refresh"]])("%s says the interface's texts", async (path) => {
    const [app, other] = await Promise.all([createTestApp(), createTestApp()]);
    for (const body of [{}, { taskId: "7" }, { taskId: 0 }]) {
      expect(await (await pickup(path, app, body)).json()).toEqual({ code: 400, msg: "the task id is required", data: null });
    }
    // A query parameter it does not take is named, not said to be a missing task id.
    expect(await (await pickup(`${path}?taskId=1`, app, { taskId: 1 })).json()).toEqual({
      code: 400,
      msg: "The request does not take the parameter taskId",
      data: null,
    });
    const foreign = await submit(other);
    expect(await (await pickup(path, app, { taskId: foreign })).json()).toEqual({ code: 404, msg: "the task id is not exist", data: null });
    expect((await pickup(path, app, { taskId: 999999 })).status).toBe(404);
  });

  it("refuses to re-create a failed task whose loading window is over, and leaves it failed", async () => {
    const app = await createTestApp();
    const taskId = await submit(app);
    await waitFor(async () => (await processOf(taskId)) === "create", "acceptance");
    const over = { start_date: "2026-01-05", start_time: "09:00", end_date: "2026-01-05", end_time: "12:00" };
    await env.DB.prepare("UPDATE pickup_tasks SET process = 'failed', loading_time = ? WHERE id = ?").bind(JSON.stringify(over), taskId).run();
    expect(await (await pickup("/pickup/re-create", app, { taskId })).json()).toEqual({
      code: 409,
      msg: "the task's loading_time has ended: submit a new task with a window to come",
      data: null,
    });
    expect(await processOf(taskId)).toBe("failed");
  });

  it("refuses to re-create a task that is not failed, or is processing", async () => {
    const app = await createTestApp();
    const taskId = await submit(app);
    await waitFor(async () => (await processOf(taskId)) === "create", "acceptance");
    expect(await (await pickup("/pickup/re-create", app, { taskId })).json()).toEqual({
      code: 409,
      msg: "the task is not in the pickup state",
      data: null,
    });
    await env.DB.prepare("UPDATE pickup_tasks SET process = 'processing' WHERE id = ?").bind(taskId).run();
    for (const path of ["/pickup/re-create", "/pickup/authorize/refresh"]) {
      expect(await (await pickup(path, app, { taskId })).json()).toEqual({ code: 409, msg: "the task is in the processing", data: null });
    }
  });
});
