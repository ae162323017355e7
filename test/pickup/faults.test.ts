import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import type { CarrierMessage } from "../../src/pickup/service";
import type { Bindings } from "../../src/platform/env";
import { expectRetryLater, Faults, forEachFault } from "../helpers/faults";
import { createTestApp, fakeNetwork, pickup, submission, type TestApp } from "../helpers/pickups";

const UNAVAILABLE = { code: 503, msg: "The service is temporarily unavailable; retry in a few seconds", data: null };

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  // Its token known to this isolate before the loops: each run then makes the same calls.
  await new Faults().fetch("/api/v1/pickup/list", post("/pickup/list", { pageNumber: 1, pageSize: 1 }));
});
beforeEach(() => {
  fakeNetwork();
  // Nothing runs behind the test's back: what was queued is read from the spies.
  const sent = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as QueueSendResponse; // only awaited, never read
  vi.spyOn(env.PICKUPS, "send").mockResolvedValue(sent);
  vi.spyOn(env.WEBHOOKS, "send").mockResolvedValue(sent);
});
afterEach(() => vi.restoreAllMocks());

const post = (path: string, body: unknown, extra: Record<string, string> = {}): RequestInit & { path: string } => ({
  path: `/api/v1${path}`,
  method: "POST",
  headers: { Authorization: `appToken ${app.appToken}`, "Content-Type": "application/json", ...extra },
  body: JSON.stringify(body),
});

const tasksWith = async (requestId: string) =>
  (await env.DB.prepare("SELECT id, process FROM pickup_tasks WHERE request_id = ?").bind(requestId).all<{ id: number; process: string }>()).results;
const eventsOf = async (taskId: number) =>
  (await env.DB.prepare("SELECT payload FROM webhook_events WHERE task_id = ? ORDER BY rowid").bind(taskId).all<{ payload: string }>()).results.map(
    (e) => (JSON.parse(e.payload) as { data: { process: string } }).data.process,
  );
const task = (id: number) => env.DB.prepare("SELECT process, failure_reason FROM pickup_tasks WHERE id = ?").bind(id).first();

async function submitted(): Promise<number> {
  const res = await pickup("/carrier/pickup/submit", app, submission());
  return (await res.json<{ data: { task_id: number } }>()).data.task_id;
}

describe("pickups while D1 or a queue fails", () => {
  it("stores a submission once, answers it or asks for a retry, and a failed carrier-call send is left to the outbox", async () => {
    const failed = await forEachFault(async (faults) => {
      const body = submission();
      const request = post("/carrier/pickup/submit", body);
      const first = await faults.fetch(request.path, request);
      if (first.status !== 200) {
        expect(await expectRetryLater(first)).toEqual(UNAVAILABLE);
        expect(await tasksWith(body.request_id)).toEqual([]);
        expect((await pickup("/carrier/pickup/submit", app, body)).status).toBe(200);
      }
      const [stored, ...more] = await tasksWith(body.request_id);
      expect(more).toEqual([]);
      // Answered though its carrier call could not be queued: pending, for the sweep (docs/pickup.md, the outbox).
      expect(stored?.process).toBe("pending");
    });
    expect(failed).toContain("PICKUPS send");
  });

  it("creates a failed task again all or nothing: the move and its notification together", async () => {
    await forEachFault(async (faults) => {
      const taskId = await submitted();
      await env.DB.prepare("UPDATE pickup_tasks SET process = 'failed', state = 0 WHERE id = ?").bind(taskId).run();
      const request = post("/pickup/re-create", { taskId });
      const first = await faults.fetch(request.path, request);
      if (first.status !== 200) {
        expect(await expectRetryLater(first)).toEqual(UNAVAILABLE);
        expect(await task(taskId)).toMatchObject({ process: "failed" });
        expect(await eventsOf(taskId)).toEqual([]);
        expect((await pickup("/pickup/re-create", app, { taskId })).status).toBe(200);
      }
      expect(await task(taskId)).toMatchObject({ process: "pending" });
      expect(await eventsOf(taskId)).toEqual(["pending"]);
    });
  });

  it("moves a task at the carrier's answer all or nothing, retries a storage failure, and never blames the carrier for it", async () => {
    const failed = await forEachFault(async (faults) => {
      const taskId = await submitted();
      // The last attempt the queue allows: a storage failure here must still not end the task as failed.
      const message = { id: `m-${taskId}`, timestamp: new Date(), attempts: 3, body: { taskId, action: "create" } satisfies CarrierMessage };
      const consume = async (bindings: Bindings) => {
        const batch = createMessageBatch<CarrierMessage>("gateway-pickups", [message]);
        const ctx = createExecutionContext();
        const threw = await Promise.resolve((worker as ExportedHandler<Bindings, unknown, CarrierMessage>).queue!(batch, bindings, ctx)).then(
          () => false,
          () => true,
        );
        const result = await getQueueResult(batch, ctx);
        return threw || result.retryMessages.length > 0;
      };
      const retried = await consume(faults.env);
      const moved = await eventsOf(taskId);
      expect((await task(taskId))?.process).toBe(["pending", ...moved].at(-1));
      if (retried) {
        expect(moved).not.toContain("failed");
        // The queue delivers the message again.
        expect(await consume(env)).toBe(false);
      }
      expect(await task(taskId)).toMatchObject({ process: "create", failure_reason: null });
      expect(await eventsOf(taskId)).toEqual(["processing", "create"]);
    });
    expect(failed.filter((call) => call.startsWith("DB"))).not.toEqual([]);
  });
});
