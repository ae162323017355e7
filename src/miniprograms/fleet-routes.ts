import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { idParam } from "../platform/openapi";
import type { tenantRoutes } from "../platform/route";
import { progressOf, rolloutsOf, startRollout } from "./fleet";
import { fleetRollout } from "./params";
import { FLEET_STATES, STAGES } from "./schema";
import type { Actor } from "./service";

type Route = ReturnType<typeof tenantRoutes>;

const progress = z
  .object({
    id: z.number().int(),
    templateId: z.number().int(),
    templateVersion: z.string(),
    phases: z.array(z.number().int()),
    stepMinutes: z.number().int(),
    expediteBudget: z.number().int(),
    expeditesUsed: z.number().int(),
    maxJsErrors: z.number().int(),
    createdAt: z.string(),
    finishedAt: z.string().nullable().openapi({ description: "Set once every mini-program of it is released, reverted or failed" }),
    total: z.number().int(),
    counts: z.record(z.enum(FLEET_STATES), z.number().int()).openapi({ description: "How many mini-programs are in each state" }),
    miniprograms: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        state: z.enum(FLEET_STATES),
        stage: z.enum(STAGES),
        percentage: z.number().int().nullable().openapi({ description: "The phased release's percentage reached (100 released, 0 reverted)" }),
        auditId: z.string().nullable(),
        expedited: z.boolean(),
        lastStep: z.string(),
        error: z.string().nullable().openapi({ description: "Why it stopped, or what failed and is tried again" }),
        updatedAt: z.string(),
      }),
    ),
  })
  .openapi({
    example: {
      id: 4,
      templateId: 3,
      templateVersion: "1.4.0",
      phases: [10, 50],
      stepMinutes: 60,
      expediteBudget: 2,
      expeditesUsed: 2,
      maxJsErrors: 20,
      createdAt: "2026-11-26T09:00:00.000Z",
      finishedAt: null,
      total: 3,
      counts: { pending: 0, committed: 0, quota_wait: 1, submitting: 0, auditing: 0, phased: 1, released: 0, reverted: 1, failed: 0 },
      miniprograms: [
        {
          id: 12,
          name: "Harbour Tickets",
          state: "phased",
          stage: "phased_release",
          percentage: 50,
          auditId: "1234567890",
          expedited: true,
          lastStep: "Phased release at 50 %",
          error: null,
          updatedAt: "2026-11-26T11:00:00.000Z",
        },
        {
          id: 13,
          name: "Harbour Café",
          state: "reverted",
          stage: "audit_passed",
          percentage: 0,
          auditId: "1234567891",
          expedited: true,
          lastStep: "Phased release reverted: users keep the version online before it",
          error: "31 JS errors at 10 % (more than 20; most often: TypeError: Cannot read properties of undefined)",
          updatedAt: "2026-11-26T10:00:00.000Z",
        },
        {
          id: 14,
          name: "Harbour Ferry",
          state: "quota_wait",
          stage: "code_committed",
          percentage: null,
          auditId: null,
          expedited: false,
          lastStep: "Waiting for the platform's audit quota (none left this month)",
          error: null,
          updatedAt: "2026-11-26T09:05:00.000Z",
        },
      ],
    },
  });

/** Fleet rollouts: one request starts a template's way to many mini-programs; a GET reads where each is. */
export function fleetRoutes(route: Route, actorOf: (c: Context<AppEnv>) => Actor) {
  route({
    method: "post",
    path: "/fleet/rollouts",
    summary:
      "Start a fleet rollout: commit, preflight, submit (expedited within the budget), phased release and full release of a template to many mini-programs (at most 500)",
    request: { body: { required: true, content: { "application/json": { schema: fleetRollout } } } },
    data: progress,
    answer: "The rollout, every mini-program pending: the scheduler takes the first steps within 5 minutes",
    status: 201,
    errors: [409],
    errorTexts: {
      404: "No such template, or a mini-program that is not the caller's",
      409: "A mini-program not at profile_updated yet, or in another rollout still running",
    },
    handle: (c) => startRollout(c.get("db"), actorOf(c), c.req.valid("json")),
  });
  route({
    method: "get",
    path: "/fleet/rollouts",
    summary: "The caller's fleet rollouts, newest first (at most 50), each with its counts per state",
    data: z
      .array(progress.pick({ id: true, templateId: true, templateVersion: true, total: true, createdAt: true, finishedAt: true, counts: true }))
      .openapi({
        example: [
          {
            id: 4,
            templateId: 3,
            templateVersion: "1.4.0",
            total: 3,
            createdAt: "2026-11-26T09:00:00.000Z",
            finishedAt: null,
            counts: { pending: 0, committed: 0, quota_wait: 1, submitting: 0, auditing: 0, phased: 1, released: 0, reverted: 1, failed: 0 },
          },
        ],
      }),
    answer: "The rollouts",
    handle: (c) => rolloutsOf(c.get("db"), actorOf(c)),
  });
  route({
    method: "get",
    path: "/fleet/rollouts/{id}",
    summary: "A fleet rollout's progress: counts per state, and each mini-program's state, stage, last step and error",
    request: { params: z.object({ id: idParam("id") }) },
    data: progress,
    answer: "The progress",
    handle: (c) => progressOf(c.get("db"), actorOf(c), c.req.valid("param").id),
  });
}
