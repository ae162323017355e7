import { eq } from "drizzle-orm";
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import type { WebhookMessage } from "../../src/platform/webhooks";
import { pickupTasks, webhookEvents } from "../../src/pickup/schema";
import { moveTask } from "../../src/pickup/service";
import { database } from "../../src/platform/database";
import type { Bindings } from "../../src/platform/env";
import { createTestApp, fakeNetwork, type FakeNetwork, submission, type TestApp } from "../helpers/pickups";

let network: FakeNetwork;
let scheduled: { body: WebhookMessage; delaySeconds: number }[];
let deadLetters: unknown[];
let testEnv: Bindings;

const producer = (record: (body: unknown, options?: QueueSendOptions) => void) =>
  ({
    send: async (body: unknown, options?: QueueSendOptions) => {
      record(body, options);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: 0 } } };
    },
  }) as unknown as Queue;

beforeEach(() => {
  network = fakeNetwork();
  scheduled = [];
  deadLetters = [];
  // The webhook producers record the next attempts, so that the test plays the schedule out
  // attempt by attempt instead of waiting hours for the queue to deliver them.
  testEnv = {
    ...env,
    WEBHOOKS: producer((body, options) => scheduled.push({ body: body as WebhookMessage, delaySeconds: options?.delaySeconds ?? 0 })),
    WEBHOOKS_DLQ: producer((body) => deadLetters.push(body)),
  };
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A task's row as P1 stores it. */
function taskValues(app: TestApp, url: string) {
  const body = submission({ webhook_url: url });
  const now = new Date().toISOString();
  return {
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
    webhookUrl: url,
    signString: body.sign_string,
    createdAt: now,
    updatedAt: now,
  };
}

/** A task stored as P1 stores it, moved on by the service so that its notification is queued here. */
async function taskWithEvent(app: TestApp, url: string) {
  const [task] = await database(env).insert(pickupTasks).values(taskValues(app, url)).returning();
  await moveTask(database(env), testEnv, task!, ["pending"], { process: "processing" });
  const message = scheduled.find((s) => s.body.attempt === 1)!.body;
  scheduled.length = 0;
  return { taskId: task!.id, message };
}

async function pendingEvent(url = "https://receiver.test/hook") {
  const app = await createTestApp();
  return { app, ...(await taskWithEvent(app, url)) };
}

async function deliver(body: WebhookMessage) {
  const ctx = createExecutionContext();
  const batch = createMessageBatch<WebhookMessage>("gateway-webhooks", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }]);
  await worker.queue(batch, testEnv);
  return getQueueResult(batch, ctx);
}

const attemptsOf = async (taskId: number) =>
  (
    await env.DB.prepare("SELECT attempt, status, error, next_attempt_at, attempted_at FROM webhook_deliveries WHERE task_id = ? ORDER BY id")
      .bind(taskId)
      .all<{
        attempt: number;
        status: number | null;
        error: string | null;
        next_attempt_at: string | null;
        attempted_at: string;
      }>()
  ).results;

const outcomeOf = async (eventId: string) =>
  (await env.DB.prepare("SELECT outcome FROM webhook_events WHERE id = ?").bind(eventId).first<{ outcome: string }>())?.outcome;

describe("webhook delivery", () => {
  it("retries on the schedule after three failures, then delivers", async () => {
    const { taskId, message } = await pendingEvent();
    network.replies = [{ status: 500 }, { status: 503 }, { status: 502 }, { status: 200 }];
    let next: WebhookMessage | undefined = message;
    const delays: number[] = [];
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let hops = 0; next && hops < 10; hops++) {
      // Each attempt is made when it is due.
      vi.setSystemTime(Math.max(Date.now(), next.notBefore));
      const result = await deliver(next);
      expect(result.explicitAcks).toHaveLength(1);
      const hop = scheduled.shift();
      if (hop) delays.push(hop.delaySeconds);
      next = hop?.body;
    }
    const attempts = await attemptsOf(taskId);
    expect(attempts.map((a) => a.status)).toEqual([500, 503, 502, 200]);
    expect(attempts[3]!.next_attempt_at).toBeNull();
    // 5 s, 5 min, 30 min, each within 10%.
    [5, 300, 1800].forEach((seconds, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(Math.floor(seconds * 0.9));
      expect(delays[i]).toBeLessThanOrEqual(Math.ceil(seconds * 1.1));
    });
    expect(await outcomeOf(message.eventId)).toBe("delivered");
  });

  it("waits at least as long as the receiver's Retry-After", async () => {
    const { message } = await pendingEvent();
    network.replies = [{ status: 429, headers: { "Retry-After": "120" } }];
    await deliver(message);
    expect(scheduled[0]!.delaySeconds).toBeGreaterThanOrEqual(119);
  });

  it("hops long waits: a 20 h wait goes out as a 12 h queue delay", async () => {
    const { message } = await pendingEvent();
    const later = { ...message, attempt: 9, notBefore: Date.now() + 20 * 3600 * 1000 };
    await deliver(later);
    expect(scheduled[0]!.delaySeconds).toBe(12 * 3600);
    expect(scheduled[0]!.body).toEqual(later);
    expect(network.received.filter((r) => r.headers["webhook-id"] === message.eventId)).toHaveLength(0);
  });

  it("gives up after the tenth attempt and sends the message to the dead-letter queue", async () => {
    const { taskId, message } = await pendingEvent();
    network.replies = [{ status: 500 }];
    await deliver({ ...message, attempt: 10 });
    expect(scheduled).toHaveLength(0);
    expect(deadLetters).toEqual([{ ...message, attempt: 10 }]);
    expect(await outcomeOf(message.eventId)).toBe("dead");
    expect((await attemptsOf(taskId))[0]).toMatchObject({ attempt: 10, status: 500, error: "HTTP 500" });
  });

  it("disables the endpoint when it answers 410, and sends it nothing more", async () => {
    const { app, taskId, message } = await pendingEvent("https://gone.test/hook");
    network.replies = [{ status: 410 }];
    await deliver(message);
    expect(scheduled).toHaveLength(0);
    expect(await outcomeOf(message.eventId)).toBe("disabled");

    const second = await taskWithEvent(app, "https://gone.test/hook");
    const before = network.received.length;
    await deliver(second.message);
    expect(network.received.length).toBe(before);
    expect(await outcomeOf(second.message.eventId)).toBe("disabled");
    expect((await attemptsOf(taskId)).length).toBe(1);
  });

  it("does not follow redirects", async () => {
    const { taskId, message } = await pendingEvent();
    network.replies = [{ status: 302, headers: { Location: "http://169.254.169.254/" } }];
    await deliver(message);
    expect((await attemptsOf(taskId))[0]).toMatchObject({ status: 302, error: "redirect to 302 not followed" });
    expect(network.received.filter((r) => r.url.includes("169.254"))).toHaveLength(0);
    expect(scheduled).toHaveLength(1);
  });

  it("records a receiver that does not answer", async () => {
    const { taskId, message } = await pendingEvent();
    vi.mocked(globalThis.fetch).mockImplementation(async (input) => {
      if (String(input instanceof Request ? input.url : input).includes("cloudflare-dns.com"))
        return Response.json({ Answer: [{ type: 1, data: "93.184.215.14" }] });
      throw new DOMException("The operation timed out.", "TimeoutError");
    });
    await deliver(message);
    expect((await attemptsOf(taskId))[0]).toMatchObject({ status: null, error: "timed out after 15 s" });
  });
});

describe("four hundred notifications at a receiver that fails 30 % of attempts", () => {
  it("delivers every one, in each task's order, the duplicates a timeout makes counted, none lost", async () => {
    const TASKS = 80;
    const app = await createTestApp();
    // A seeded draw, so that a failure can be replayed.
    let seed = 20261126;
    const draw = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const accepted: { eventId: string; taskId: number }[] = [];
    let acceptedThenTimedOut = 0;
    network.receiver = async (request) => {
      const roll = draw();
      if (roll < 0.08) return new Response("receiver error", { status: 500 });
      if (roll < 0.16) throw new TypeError("Network connection lost.");
      if (roll < 0.23) throw new DOMException("The operation timed out.", "TimeoutError");
      const notice = { eventId: request.headers["webhook-id"]!, taskId: (JSON.parse(request.body) as { data: { task_id: number } }).data.task_id };
      accepted.push(notice);
      // Taken in, but answered after the sender's 15 s: the sender retries, the receiver sees a duplicate.
      if (roll < 0.3) {
        acceptedThenTimedOut++;
        throw new DOMException("The operation timed out.", "TimeoutError");
      }
      return new Response(null, { status: 204 });
    };

    // 80 tasks with five notifications each, written in their order and all queued at once: some
    // 120 of the 400 first attempts fail, and their retries interleave with the rest.
    const db = database(env);
    const [firstTask, ...otherTasks] = Array.from({ length: TASKS }, () =>
      db.insert(pickupTasks).values(taskValues(app, "https://receiver.test/hook")),
    );
    await db.batch([firstTask!, ...otherTasks]);
    const taskIds = (await db.select({ id: pickupTasks.id }).from(pickupTasks).where(eq(pickupTasks.appId, app.appId)).orderBy(pickupTasks.id)).map(
      (task) => task.id,
    );
    const events = taskIds.flatMap((taskId) =>
      ["processing", "failed", "pending", "processing", "create"].map((process) => ({
        id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        taskId,
        type: "pickup.process_changed",
        payload: JSON.stringify({ type: "pickup.process_changed", data: { task_id: taskId, process } }),
        createdAt: new Date().toISOString(),
      })),
    );
    const [firstEvent, ...otherEvents] = events.map((event) => db.insert(webhookEvents).values(event));
    await db.batch([firstEvent!, ...otherEvents]);
    scheduled = events.map((event) => ({ body: { sender: "pickup", eventId: event.id, attempt: 1, notBefore: Date.now() }, delaySeconds: 0 }));

    // The test clock: each round jumps to the earliest attempt due and hands the queue what is due then.
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let rounds = 0; scheduled.length > 0; rounds++) {
      expect(rounds).toBeLessThan(500);
      vi.setSystemTime(Math.max(Date.now(), Math.min(...scheduled.map((s) => s.body.notBefore))));
      const due = scheduled.filter((s) => s.body.notBefore <= Date.now() + 1000);
      scheduled = scheduled.filter((s) => !due.includes(s));
      // Four consumers at once, as the queue runs them.
      const batches = [0, 1, 2, 3].map((k) => due.filter((_, i) => i % 4 === k).map((s) => s.body)).filter((b) => b.length > 0);
      await Promise.all(
        batches.map((bodies) => {
          const batch = createMessageBatch<WebhookMessage>(
            "gateway-webhooks",
            bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
          );
          return worker.queue(batch, testEnv);
        }),
      );
    }

    const { results: settled } = await env.DB.prepare(
      `SELECT id, task_id AS taskId, outcome FROM webhook_events WHERE task_id IN (${taskIds.join(",")}) ORDER BY rowid`,
    ).all<{ id: string; taskId: number; outcome: string }>();
    expect(settled).toHaveLength(TASKS * 5);
    expect(settled.filter((e) => e.outcome !== "delivered")).toEqual([]);
    const firstArrival = [...new Map(accepted.map((a) => [a.eventId, a])).values()];
    expect(new Set(firstArrival.map((a) => a.eventId))).toEqual(new Set(settled.map((e) => e.id)));
    // The duplicates are exactly the notifications taken in whose answer came too late.
    expect(accepted.length - firstArrival.length).toBe(acceptedThenTimedOut);
    expect(deadLetters).toEqual([]);
    // Each task's notifications arrived in the order they happened.
    for (const taskId of taskIds) {
      const arrived = [...new Set(accepted.filter((a) => a.taskId === taskId).map((a) => a.eventId))];
      expect(arrived, `task ${taskId}`).toEqual(settled.filter((e) => e.taskId === taskId).map((e) => e.id));
    }
  }, 120_000);
});
