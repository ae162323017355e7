import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { sweepPickupOutbox } from "../../src/pickup/outbox";
import { pickupTasks, webhookEvents } from "../../src/pickup/schema";
import type { WebhookMessage } from "../../src/platform/webhooks";
import { database } from "../../src/platform/database";
import type { Bindings } from "../../src/platform/env";
import { logger } from "../../src/platform/logging";
import { createTestApp, fakeNetwork, type FakeNetwork, submission, type TestApp } from "../helpers/pickups";
import type { Envelope } from "../helpers/requests";

let network: FakeNetwork;
let queued: WebhookMessage[];
let deadLetters: unknown[];
let sendFails: boolean;
let testEnv: Bindings;

/** A queue producer that records what is sent, so that the test hands each message to the consumer itself. */
const producer = (record: (body: unknown) => void) =>
  ({
    send: async (body: unknown) => {
      if (sendFails) throw new Error("Queue send failed: service unavailable");
      record(body);
    },
    sendBatch: async (messages: { body: unknown }[]) => {
      if (sendFails) throw new Error("Queue send failed: service unavailable");
      messages.forEach((message) => record(message.body));
    },
  }) as unknown as Queue;

beforeEach(() => {
  network = fakeNetwork();
  queued = [];
  deadLetters = [];
  sendFails = false;
  testEnv = {
    ...env,
    WEBHOOKS: producer((body) => queued.push(body as WebhookMessage)),
    WEBHOOKS_DLQ: producer((body) => deadLetters.push(body)),
  };
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function request<T>(app: Pick<TestApp, "appToken">, method: "GET" | "POST", path: string, body?: unknown) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`https://gateway.test/api/v1${path}`, {
      method,
      headers: { Authorization: `appToken ${app.appToken}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    testEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: await response.json<Envelope<T>>() };
}

/** Hands every queued message to the consumer, as the queue would, until nothing is left. */
async function drainQueue() {
  for (let rounds = 0; queued.length > 0; rounds++) {
    expect(rounds).toBeLessThan(50);
    const bodies = queued.splice(0);
    const batch = createMessageBatch<WebhookMessage>(
      "gateway-webhooks",
      bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
    );
    await worker.queue(batch, testEnv);
  }
}

/** A task of the app with notifications already given up on, written in this order. */
async function taskWithEvents(app: TestApp, outcomes: ("dead" | "disabled" | "delivered")[], options: { url?: string; createdAt?: string } = {}) {
  const body = submission(options.url ? { webhook_url: options.url } : {});
  const now = new Date().toISOString();
  const db = database(env);
  const [task] = await db
    .insert(pickupTasks)
    .values({
      appId: app.appId,
      requestId: body.request_id,
      referenceOrderNumber: body.reference_order_number,
      activeReference: body.reference_order_number,
      serviceCode: body.service_code,
      authorizeId: body.authorize_id,
      senderAddress: body.sender_address,
      loadingAddress: body.loading_address,
      consigneeAddress: body.consignee_address,
      loadingTime: body.loading_time,
      deliveryTime: body.delivery_time,
      itemLines: body.item_lines,
      webhookUrl: body.webhook_url,
      signString: body.sign_string,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const ids: string[] = [];
  for (const outcome of outcomes) {
    const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
    const payload = JSON.stringify({ type: "pickup.process_changed", data: { task_id: task!.id, n: ids.length } });
    await db
      .insert(webhookEvents)
      .values({ id, taskId: task!.id, type: "pickup.process_changed", payload, createdAt: options.createdAt ?? now, outcome });
    ids.push(id);
  }
  return { taskId: task!.id, url: body.webhook_url, ids };
}

/** A notification that failed its ten attempts through the consumer: dead-lettered and in the deliveries log. */
async function exhausted(app: TestApp, url?: string) {
  const task = await taskWithEvents(app, [], { url });
  const [moved] = await database(env)
    .insert(webhookEvents)
    .values({
      id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
      taskId: task.taskId,
      type: "pickup.process_changed",
      payload: JSON.stringify({ type: "pickup.process_changed", data: { task_id: task.taskId } }),
      createdAt: new Date().toISOString(),
    })
    .returning();
  network.replies = [{ status: 500 }];
  queued.push({ sender: "pickup", eventId: moved!.id, attempt: 10, notBefore: Date.now() });
  await drainQueue();
  network.replies = [];
  return { ...task, eventId: moved!.id };
}

const receivedIds = () => network.received.map((r) => r.headers["webhook-id"]);

describe("replay of dead webhook deliveries", () => {
  it("shows an exhausted delivery in the deliveries log and the dead-letter queue, and replays it with the same webhook-id", async () => {
    const app = await createTestApp();
    const { taskId, eventId } = await exhausted(app);
    expect(deadLetters).toEqual([{ sender: "pickup", eventId, attempt: 10, notBefore: expect.any(Number) }]);
    const log = await request<{ attempt: number; status: number; replay: number; next_attempt_at: string | null }[]>(
      app,
      "GET",
      `/pickup/${taskId}/deliveries`,
    );
    expect(log.body.data).toEqual([expect.objectContaining({ attempt: 10, status: 500, replay: 0, next_attempt_at: null })]);

    const replayed = await request(app, "POST", "/pickup/webhooks/replay", { event_id: eventId });
    expect(replayed.status).toBe(200);
    expect(replayed.body.data).toEqual({ event_id: eventId, task_id: taskId, queued: true, replay: 1 });
    await drainQueue();
    expect(receivedIds()).toEqual([eventId, eventId]);
    // The replay's attempt is signed afresh, with the same id, so the receiver can deduplicate.
    expect(network.received[1]!.headers["webhook-signature"]).toMatch(/^v1,/);

    const after = await request<{ attempt: number; status: number; replay: number }[]>(app, "GET", `/pickup/${taskId}/deliveries`);
    expect(after.body.data.map((d) => [d.replay, d.attempt, d.status])).toEqual([
      [0, 10, 500],
      [1, 1, 200],
    ]);
    // Delivered now: a replay has nothing to do, and says so.
    const again = await request(app, "POST", "/pickup/webhooks/replay", { event_id: eventId });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/was delivered/);
  });

  it("sends once when the same notification is replayed twice while the first replay is pending", async () => {
    const app = await createTestApp();
    const { eventId } = await exhausted(app);
    const answers = await Promise.all(
      [0, 1, 2].map(() => request<{ queued: boolean }>(app, "POST", "/pickup/webhooks/replay", { event_id: eventId })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.body.data.queued)).toHaveLength(1);
    const bulk = await request<{ queued: number }>(app, "POST", "/pickup/webhooks/replay-dead", { since: "2000-01-01T00:00:00Z" });
    expect(bulk.body.data.queued).toBe(0);
    expect(queued).toHaveLength(1);
    const before = network.received.length;
    await drainQueue();
    expect(network.received.length - before).toBe(1);
  });

  it("never lets an app replay, or even see, another app's notifications", async () => {
    const owner = await createTestApp();
    const other = await createTestApp();
    const { eventId } = await exhausted(owner);
    const one = await request(other, "POST", "/pickup/webhooks/replay", { event_id: eventId });
    expect(one.status).toBe(404);
    expect(one.body.msg).toBe("no webhook notification with this event_id for this app");
    const all = await request<{ queued: number }>(other, "POST", "/pickup/webhooks/replay-dead", { since: "2000-01-01T00:00:00Z" });
    expect(all.body.data.queued).toBe(0);
    expect(queued).toEqual([]);
    const outcome = await env.DB.prepare("SELECT outcome, replays FROM webhook_events WHERE id = ?").bind(eventId).first();
    expect(outcome).toEqual({ outcome: "dead", replays: 0 });
  });

  it("replays all of an app's dead notifications since a time, a bounded number per call, each task's in order", async () => {
    const app = await createTestApp();
    const since = new Date(Date.now() - 1000).toISOString();
    const old = await taskWithEvents(app, ["dead"], { createdAt: "2026-01-01T00:00:00.000Z" });
    const first = await taskWithEvents(app, ["dead", "delivered", "dead", "dead"]);
    const second = await taskWithEvents(app, ["dead"]);

    const page = await request<{ queued: number; event_ids: string[]; more: boolean }>(app, "POST", "/pickup/webhooks/replay-dead", {
      since,
      limit: 3,
    });
    expect(page.body.data).toMatchObject({ queued: 3, event_ids: [first.ids[0], first.ids[2], first.ids[3]], more: true });
    // One message per task: the rest of the task follow in order as each is settled.
    expect(queued.map((m) => m.eventId)).toEqual([first.ids[0]]);
    const rest = await request<{ queued: number; event_ids: string[]; more: boolean }>(app, "POST", "/pickup/webhooks/replay-dead", {
      since,
      limit: 3,
    });
    expect(rest.body.data).toMatchObject({ queued: 1, event_ids: [second.ids[0]], more: false });

    await drainQueue();
    expect(receivedIds().filter((id) => first.ids.includes(id!))).toEqual([first.ids[0], first.ids[2], first.ids[3]]);
    expect(receivedIds().filter((id) => id === second.ids[0])).toHaveLength(1);
    expect(receivedIds()).not.toContain(old.ids[0]);
  });

  it("refuses to replay to an endpoint disabled after a 410 until the app re-enables it", async () => {
    const app = await createTestApp();
    const url = `https://gone-${crypto.randomUUID()}.test/hook`;
    const { eventId } = await exhausted(app, url);
    // A later notification to the same endpoint is answered 410 Gone: the endpoint is disabled.
    const later = await taskWithEvents(app, [], { url });
    const [gone] = await database(env)
      .insert(webhookEvents)
      .values({
        id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        taskId: later.taskId,
        type: "pickup.process_changed",
        payload: "{}",
        createdAt: new Date().toISOString(),
      })
      .returning();
    network.replies = [{ status: 410 }];
    queued.push({ sender: "pickup", eventId: gone!.id, attempt: 1, notBefore: Date.now() });
    await drainQueue();
    network.replies = [];

    const refused = await request(app, "POST", "/pickup/webhooks/replay", { event_id: eventId });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/disabled after it answered 410 Gone; re-enable it first/);
    const skipped = await request<{ queued: number; skipped_disabled: number }>(app, "POST", "/pickup/webhooks/replay-dead", {
      since: "2000-01-01T00:00:00Z",
    });
    expect(skipped.body.data).toMatchObject({ queued: 0, skipped_disabled: 2 });

    const enabled = await request(app, "POST", "/pickup/webhooks/enable", { url });
    expect(enabled.body.data).toEqual({ url, was_disabled: true });
    // The dead one and the one dropped while disabled both go out now.
    const all = await request<{ queued: number; event_ids: string[] }>(app, "POST", "/pickup/webhooks/replay-dead", {
      since: "2000-01-01T00:00:00Z",
    });
    expect(all.body.data.event_ids.sort()).toEqual([eventId, gone!.id].sort());
    const before = network.received.length;
    await drainQueue();
    expect(
      network.received
        .slice(before)
        .map((r) => r.headers["webhook-id"])
        .sort(),
    ).toEqual([eventId, gone!.id].sort());
  });

  it("queues a replay whose queue send failed at the next outbox sweep", async () => {
    const app = await createTestApp();
    const { eventId } = await exhausted(app);
    sendFails = true;
    const replayed = await request<{ queued: boolean }>(app, "POST", "/pickup/webhooks/replay", { event_id: eventId });
    expect(replayed.body.data.queued).toBe(true);
    sendFails = false;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    await sweepPickupOutbox(testEnv, logger({}));
    expect(queued.filter((m) => m.eventId === eventId)).toEqual([{ sender: "pickup", eventId, attempt: 1, notBefore: Date.now() }]);
  });

  it("answers bad input with the field and what is wrong", async () => {
    const app = await createTestApp();
    const cases: [string, unknown, RegExp][] = [
      ["/pickup/webhooks/replay", { event_id: "msg_1; DROP TABLE" }, /event_id must be a notification id/],
      ["/pickup/webhooks/replay", {}, /event_id/],
      ["/pickup/webhooks/replay-dead", { since: "yesterday" }, /since must be a date and time/],
      ["/pickup/webhooks/replay-dead", { since: "2026-11-01T00:00:00Z", limit: 101 }, /limit must be at most 100/],
      ["/pickup/webhooks/enable", { url: "not a url" }, /url must be/],
    ];
    for (const [path, body, message] of cases) {
      const answer = await request(app, "POST", path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body.msg, path).toMatch(message);
    }
  });
});
