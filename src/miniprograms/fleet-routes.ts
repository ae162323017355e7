import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { idParam } from "../platform/openapi";
import type { tenantRoutes } from "../platform/route";
import { progressOf, rolloutsOf, startRollout } from "./fleet";
import { fleetRollout } from "./params";
import { fleetProgressAnswer, fleetRolloutsAnswer } from "./answers";
import type { Actor } from "./service";

type Route = ReturnType<typeof tenantRoutes>;

/** Fleet rollouts: one request starts a template's way to many mini-programs; a GET reads where each is. */
export function fleetRoutes(route: Route, actorOf: (c: Context<AppEnv>) => Actor) {
  route({
    method: "post",
    path: "/fleet/rollouts",
    summary:
      "Start a fleet rollout: commit, preflight, submit (expedited within the budget), phased release and full release of a template to many mini-programs (at most 500)",
    request: { body: { required: true, content: { "application/json": { schema: fleetRollout } } } },
    data: fleetProgressAnswer,
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
    data: fleetRolloutsAnswer,
    answer: "The rollouts",
    handle: (c) => rolloutsOf(c.get("db"), actorOf(c)),
  });
  route({
    method: "get",
    path: "/fleet/rollouts/{id}",
    summary: "A fleet rollout's progress: counts per state, and each mini-program's state, stage, last step and error",
    request: { params: z.object({ id: idParam("id") }) },
    data: fleetProgressAnswer,
    answer: "The progress",
    handle: (c) => progressOf(c.get("db"), actorOf(c), c.req.valid("param").id),
  });
}
