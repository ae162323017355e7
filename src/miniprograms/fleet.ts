import { and, asc, count, desc, eq, inArray, isNull, lte, notExists, notInArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import type { Logger } from "../platform/logging";
import { phasedRelease, preflightProblems, revertPhased, speedupAudit } from "./operations";
import {
  codeTemplates,
  FLEET_FINAL,
  FLEET_STATES,
  fleetRollouts,
  fleetTargets,
  miniprograms,
  STAGES,
  type FleetRollout,
  type FleetState,
  type FleetTarget,
  type Miniprogram,
} from "./schema";
import { asAuthorizer, auditState, commitCode, release, stepRecord, submitAudit, type Actor } from "./service";
import type { TokenContext } from "./tokens";
import { callWeChat, type WeChatAnswer } from "./wechat/client";
import { WeChatError } from "./wechat/errors";

/**
 * A fleet rollout: one template version taken to many mini-programs of one user, each on its own
 * way (commit → preflight → submission, expedited within the rollout's budget → phased release
 * percentages → full release). The cron (`advanceRollouts`, every 5 minutes) hands the steps that
 * are due to the queue, no more submissions than the platform's shared audit quota has left; the
 * consumer (`fleetStep`) takes one step of one mini-program per message. A message names the
 * target's `turn`, and a step first moves the turn on: a redelivered or stale message finds it
 * moved and does nothing, so no step (and no submission) is taken twice.
 */

export const FLEET_QUEUE = "gateway-miniprogram-fleet";
/** How long a step sent to the queue is left to it before the cron sends its turn again. */
const LEASE_MINUTES = 10;
/** How often a running audit is asked about (the cron's own pace). */
const RECHECK_MINUTES = 5;
/** The most steps one run of the cron sends. */
const SENT_PER_RUN = 500;
/** D1 binds at most 100 parameters a statement. */
const CHUNK = 90;

export interface FleetMessage {
  rolloutId: number;
  miniprogramId: number;
  turn: number;
}

export interface RolloutInput {
  templateId: number;
  miniprogramIds: number[];
  phases: number[];
  stepMinutes: number;
  expediteBudget: number;
  maxJsErrors: number;
}

const chunks = <T>(items: readonly T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
const minutesFrom = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
const listed = (ids: readonly (number | string)[]) =>
  ids.length > 10 ? `${ids.slice(0, 10).join(", ")} and ${ids.length - 10} more` : ids.join(", ");
const batch = (db: Database, writes: BatchItem<"sqlite">[]) =>
  writes.length ? db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]) : Promise.resolve([]);

/** Starts a rollout: the caller's mini-programs, each at least profile_updated and in no other running rollout. */
export async function startRollout(db: Database, actor: Actor, input: RolloutInput) {
  const [template] = await db.select().from(codeTemplates).where(eq(codeTemplates.id, input.templateId)).limit(1);
  if (!template) throw new ApiError(404, `No code template ${input.templateId}: D2 lists them`);
  const found: Miniprogram[] = [];
  for (const ids of chunks(input.miniprogramIds))
    found.push(
      ...(await db
        .select()
        .from(miniprograms)
        .where(and(inArray(miniprograms.id, ids), eq(miniprograms.ownerId, actor.userId)))),
    );
  // Another user's mini-program reads as a missing one, as everywhere in group D.
  const missing = input.miniprogramIds.filter((id) => !found.some((mp) => mp.id === id));
  if (missing.length) throw new ApiError(404, `No mini-program configuration ${listed(missing)}`);
  const early = found.filter((mp) => STAGES.indexOf(mp.stage) < STAGES.indexOf("profile_updated")).map((mp) => `${mp.id} (${mp.stage})`);
  if (early.length) throw new ApiError(409, `A rollout commits code, which needs the stage profile_updated; not there yet: ${listed(early)}`);
  const busy: { miniprogramId: number; rolloutId: number }[] = [];
  for (const ids of chunks(input.miniprogramIds))
    busy.push(
      ...(await db
        .select({ miniprogramId: fleetTargets.miniprogramId, rolloutId: fleetTargets.rolloutId })
        .from(fleetTargets)
        .innerJoin(fleetRollouts, eq(fleetRollouts.id, fleetTargets.rolloutId))
        .where(and(inArray(fleetTargets.miniprogramId, ids), isNull(fleetRollouts.finishedAt), notInArray(fleetTargets.state, FLEET_FINAL)))),
    );
  if (busy.length)
    throw new ApiError(
      409,
      `Mini-programs ${listed(busy.map((b) => b.miniprogramId))} are in a rollout still running (${[...new Set(busy.map((b) => b.rolloutId))].join(", ")}): wait for it to end`,
    );
  const now = new Date().toISOString();
  // The rollout's id inside the batch: the newest of this user's, the batch being one transaction.
  const rolloutId = sql<number>`(SELECT max(${fleetRollouts.id}) FROM ${fleetRollouts} WHERE ${fleetRollouts.ownerId} = ${actor.userId})`;
  const [[created]] = await db.batch([
    db
      .insert(fleetRollouts)
      .values({
        ownerId: actor.userId,
        actorKeyId: actor.keyId,
        templateId: template.id,
        templateVersion: template.version,
        phases: input.phases,
        stepMinutes: input.stepMinutes,
        expediteBudget: input.expediteBudget,
        maxJsErrors: input.maxJsErrors,
        total: input.miniprogramIds.length,
        createdAt: now,
      })
      .returning(),
    // Nine values a row (the defaults are bound too): 10 rows a statement.
    ...chunks(input.miniprogramIds, 10).map((ids) =>
      db
        .insert(fleetTargets)
        .values(ids.map((miniprogramId) => ({ rolloutId, miniprogramId, lastStep: "Waiting for the scheduler", nextAt: now, updatedAt: now }))),
    ),
  ]);
  return progressOf(db, actor, created!.id);
}

/** A rollout's summary (counts per state) and where each of its mini-programs is. */
export async function progressOf(db: Database, actor: Actor, id: number) {
  const [rollout] = await db
    .select()
    .from(fleetRollouts)
    .where(and(eq(fleetRollouts.id, id), eq(fleetRollouts.ownerId, actor.userId)))
    .limit(1);
  if (!rollout) throw new ApiError(404, `No fleet rollout ${id}`);
  const rows = await db
    .select({ target: fleetTargets, name: miniprograms.name, stage: miniprograms.stage })
    .from(fleetTargets)
    .innerJoin(miniprograms, eq(miniprograms.id, fleetTargets.miniprogramId))
    .where(eq(fleetTargets.rolloutId, id))
    .orderBy(asc(fleetTargets.miniprogramId));
  const counts = Object.fromEntries(FLEET_STATES.map((state) => [state, 0])) as Record<FleetState, number>;
  for (const { target } of rows) counts[target.state]++;
  return {
    id: rollout.id,
    templateId: rollout.templateId,
    templateVersion: rollout.templateVersion,
    phases: rollout.phases,
    stepMinutes: rollout.stepMinutes,
    expediteBudget: rollout.expediteBudget,
    expeditesUsed: rollout.expeditesUsed,
    maxJsErrors: rollout.maxJsErrors,
    createdAt: rollout.createdAt,
    finishedAt: rollout.finishedAt,
    total: rollout.total,
    counts,
    miniprograms: rows.map(({ target: t, name, stage }) => ({
      id: t.miniprogramId,
      name,
      state: t.state,
      stage,
      percentage: t.percentage,
      auditId: t.auditId,
      expedited: t.expedited,
      lastStep: t.lastStep,
      error: t.error,
      updatedAt: t.updatedAt,
    })),
  };
}

/** How many of a user's rollouts the list shows: the newest. */
const LISTED_ROLLOUTS = 50;

/** The caller's newest rollouts, each with its counts per state. */
export async function rolloutsOf(db: Database, actor: Actor) {
  const rollouts = await db
    .select()
    .from(fleetRollouts)
    .where(eq(fleetRollouts.ownerId, actor.userId))
    .orderBy(desc(fleetRollouts.id))
    .limit(LISTED_ROLLOUTS);
  const tallies = rollouts.length
    ? await db
        .select({ rolloutId: fleetTargets.rolloutId, state: fleetTargets.state, n: count() })
        .from(fleetTargets)
        .where(
          inArray(
            fleetTargets.rolloutId,
            rollouts.map((r) => r.id),
          ),
        )
        .groupBy(fleetTargets.rolloutId, fleetTargets.state)
    : [];
  return rollouts.map((r) => {
    const counts = Object.fromEntries(FLEET_STATES.map((state) => [state, 0])) as Record<FleetState, number>;
    for (const t of tallies) if (t.rolloutId === r.id) counts[t.state] = t.n;
    return {
      id: r.id,
      templateId: r.templateId,
      templateVersion: r.templateVersion,
      total: r.total,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      counts,
    };
  });
}

const needsSubmission: readonly FleetState[] = ["committed", "quota_wait"];

/**
 * The cron: each step that is due goes to the queue, submissions only as many as the platform's
 * audit quota has left this month (one queryquota a run); the others wait for quota. Rollouts
 * whose mini-programs have all ended are closed.
 */
export async function advanceRollouts(ctx: TokenContext, queue: Queue, now = new Date()) {
  const { db } = ctx;
  const due = await db
    .select({ target: fleetTargets })
    .from(fleetTargets)
    .innerJoin(fleetRollouts, eq(fleetRollouts.id, fleetTargets.rolloutId))
    .where(and(isNull(fleetRollouts.finishedAt), notInArray(fleetTargets.state, FLEET_FINAL), lte(fleetTargets.nextAt, now.toISOString())))
    .orderBy(asc(fleetTargets.nextAt), asc(fleetTargets.rolloutId), asc(fleetTargets.miniprogramId))
    .limit(SENT_PER_RUN);
  const submitting = due.filter(({ target }) => needsSubmission.includes(target.state)).map(({ target }) => target);
  const quotaLeft = submitting.length ? await quotaRest(ctx, submitting[0]!.miniprogramId) : 0;
  const waiting = submitting.slice(Math.max(quotaLeft, 0));
  const sent = due.map(({ target }) => target).filter((t) => !waiting.includes(t));
  const leased = minutesFrom(now, LEASE_MINUTES);
  const byRollout = new Map<number, FleetTarget[]>();
  for (const t of sent) {
    const targets = byRollout.get(t.rolloutId) ?? [];
    targets.push(t);
    byRollout.set(t.rolloutId, targets);
  }
  await batch(db, [
    ...[...byRollout].flatMap(([rolloutId, targets]) =>
      chunks(targets.map((t) => t.miniprogramId)).map((ids) =>
        db
          .update(fleetTargets)
          .set({ nextAt: leased })
          .where(and(eq(fleetTargets.rolloutId, rolloutId), inArray(fleetTargets.miniprogramId, ids))),
      ),
    ),
    ...waiting
      .filter((t) => t.state !== "quota_wait")
      .map((t) =>
        db
          .update(fleetTargets)
          .set({ state: "quota_wait", lastStep: "Waiting for the platform's audit quota (none left this month)", updatedAt: now.toISOString() })
          .where(and(eq(fleetTargets.rolloutId, t.rolloutId), eq(fleetTargets.miniprogramId, t.miniprogramId), eq(fleetTargets.turn, t.turn))),
      ),
  ]);
  for (const part of chunks(sent, 100))
    await queue.sendBatch(
      part.map((t) => ({ body: { rolloutId: t.rolloutId, miniprogramId: t.miniprogramId, turn: t.turn } satisfies FleetMessage })),
    );
  const finished = await db
    .update(fleetRollouts)
    .set({ finishedAt: now.toISOString() })
    .where(
      and(
        isNull(fleetRollouts.finishedAt),
        notExists(
          db
            .select({ one: sql`1` })
            .from(fleetTargets)
            .where(and(eq(fleetTargets.rolloutId, fleetRollouts.id), notInArray(fleetTargets.state, FLEET_FINAL))),
        ),
      ),
    )
    .returning({ id: fleetRollouts.id });
  return { sent: sent.length, waitingForQuota: waiting.length, finished: finished.length };
}

/** The platform's audit submissions left this month (queryquota, with one of the mini-programs' tokens); none when WeChat does not say. */
async function quotaRest(ctx: TokenContext, miniprogramId: number): Promise<number> {
  const [mp] = await ctx.db.select().from(miniprograms).where(eq(miniprograms.id, miniprogramId)).limit(1);
  if (!mp) return 0;
  try {
    const quota = await asAuthorizer(ctx, mp, (token) =>
      callWeChat<WeChatAnswer>(ctx.upstream.transport, "/wxa/queryquota", { access_token: token }),
    );
    return Number(quota.rest ?? 0);
  } catch {
    return 0;
  }
}

/** The queue's consumer: one step a message; a failure of ours is noted on the mini-program and its turn sent again by the cron. */
export async function consumeFleet(ctx: TokenContext, batch: MessageBatch, log: Logger) {
  for (const message of batch.messages as readonly Message<FleetMessage>[]) {
    try {
      await fleetStep(ctx, message.body);
    } catch (error) {
      log.warn({ fleet: message.body, error: error instanceof Error ? error.message : String(error) });
    }
    message.ack();
  }
}

type Outcome = Partial<Pick<FleetTarget, "state" | "percentage" | "phasedAt" | "auditId" | "expedited" | "submissions" | "error">> & {
  lastStep: string;
  /** When the cron next sends it: now unless said. */
  nextAt?: string;
};

/** One step of one mini-program of a rollout, once per turn. */
async function fleetStep(ctx: TokenContext, message: FleetMessage, now = new Date()) {
  const { db } = ctx;
  const key = and(eq(fleetTargets.rolloutId, message.rolloutId), eq(fleetTargets.miniprogramId, message.miniprogramId));
  // The turn moves on first: of two deliveries of one message, only one gets past here.
  const [target] = await db
    .update(fleetTargets)
    .set({ turn: sql`${fleetTargets.turn} + 1`, nextAt: minutesFrom(now, LEASE_MINUTES) })
    .where(and(key, eq(fleetTargets.turn, message.turn), notInArray(fleetTargets.state, FLEET_FINAL)))
    .returning();
  if (!target) return;
  const [row] = await db
    .select({ rollout: fleetRollouts, mp: miniprograms })
    .from(fleetRollouts)
    .innerJoin(miniprograms, eq(miniprograms.id, target.miniprogramId))
    .where(and(eq(fleetRollouts.id, target.rolloutId), eq(miniprograms.ownerId, fleetRollouts.ownerId)))
    .limit(1);
  let outcome: Outcome;
  if (!row) outcome = { state: "failed", lastStep: "Stopped", error: "The mini-program is no longer its owner's" };
  else {
    try {
      outcome = await stepFor(ctx, row.rollout, target, row.mp, now);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 409))
        outcome = { state: "failed", lastStep: `Stopped at ${target.state}`, error: error.message };
      else
        outcome = {
          lastStep: target.lastStep,
          error: `${error instanceof Error ? error.message : String(error)}: tried again in ${RECHECK_MINUTES} minutes`,
          nextAt: minutesFrom(now, RECHECK_MINUTES),
        };
    }
  }
  await db
    .update(fleetTargets)
    .set({ error: null, ...outcome, nextAt: outcome.nextAt ?? now.toISOString(), updatedAt: now.toISOString() })
    .where(and(key, eq(fleetTargets.turn, target.turn)));
}

async function stepFor(ctx: TokenContext, rollout: FleetRollout, target: FleetTarget, mp: Miniprogram, now: Date): Promise<Outcome> {
  const actor: Actor = { userId: rollout.ownerId, keyId: rollout.actorKeyId };
  switch (target.state) {
    case "pending": {
      const answer = await commitCode(ctx, actor, mp, rollout.templateId);
      if (answer.errcode !== 0)
        return {
          state: "failed",
          lastStep: "Commit refused",
          error: `WeChat refused the commit (errcode ${answer.errcode}): ${answer.message ?? answer.errmsg}`,
        };
      return { state: "committed", lastStep: `Committed template ${rollout.templateId} (${rollout.templateVersion})` };
    }
    case "committed":
    case "quota_wait":
      return submit(ctx, actor, rollout, target, mp, now);
    case "submitting":
      // The worker stopped during the submission: what WeChat has decides, and it is never submitted again.
      if (mp.stage === "audit_submitted" && mp.auditId)
        return { state: "auditing", auditId: mp.auditId, lastStep: `Submitted for audit (auditid ${mp.auditId})` };
      return {
        state: "failed",
        lastStep: "Submission interrupted",
        error: "The submission's outcome is unknown (the worker stopped during it); it is not submitted again: D8 tells whether WeChat has it",
      };
    case "auditing": {
      const state = await auditState(ctx, actor, mp);
      if (state.status === 0) return releaseFirst(ctx, actor, rollout, { ...mp, stage: "audit_passed" }, now);
      if (state.status === 1)
        return { state: "failed", lastStep: "Audit rejected", error: `WeChat rejected the audit: ${state.reason || "no reason given"}` };
      if (state.status === 3) return { state: "failed", lastStep: "Audit withdrawn", error: "The audit was withdrawn (undocodeaudit)" };
      return { lastStep: state.status === 4 ? "Audit delayed by WeChat" : "Auditing", nextAt: minutesFrom(now, RECHECK_MINUTES) };
    }
    case "phased":
      return nextPhase(ctx, actor, rollout, target, mp, now);
    default:
      return { lastStep: target.lastStep };
  }
}

/** The preflight, then the one submission (claimed first), then an expedite if the rollout's budget has one. */
async function submit(ctx: TokenContext, actor: Actor, rollout: FleetRollout, target: FleetTarget, mp: Miniprogram, now: Date): Promise<Outcome> {
  const { db } = ctx;
  const blocking = (await preflightProblems(ctx, mp)).filter((p) => p.blocking);
  if (blocking.length) {
    await stepRecord(db, mp.id, "preflight", actor.keyId, { rollout: rollout.id }, { ready: false, problems: blocking });
    if (blocking.every((p) => p.check === "quota"))
      return {
        state: "quota_wait",
        lastStep: "Waiting for the platform's audit quota (none left this month)",
        nextAt: minutesFrom(now, RECHECK_MINUTES),
      };
    return { state: "failed", lastStep: "Preflight refused", error: blocking.map((p) => `${p.check}: ${p.message}`).join("; ") };
  }
  const key = and(eq(fleetTargets.rolloutId, target.rolloutId), eq(fleetTargets.miniprogramId, target.miniprogramId));
  const [claimed] = await db
    .update(fleetTargets)
    .set({ state: "submitting", submissions: sql`${fleetTargets.submissions} + 1` })
    .where(and(key, eq(fleetTargets.turn, target.turn), eq(fleetTargets.submissions, 0)))
    .returning();
  if (!claimed) return { state: "failed", lastStep: "Submission refused", error: "Already submitted once in this rollout" };
  const answer = await submitAudit(ctx, actor, mp);
  if (!answer.auditid) {
    // WeChat refused it: nothing was submitted.
    if (answer.errcode === 85085) return { state: "quota_wait", submissions: 0, lastStep: "Waiting for the platform's audit quota (WeChat: 85085)" };
    return {
      state: "failed",
      lastStep: "Submission refused",
      error: `WeChat refused the submission (errcode ${answer.errcode}): ${answer.message ?? answer.errmsg}`,
    };
  }
  const submitted: Outcome = {
    state: "auditing",
    auditId: answer.auditid,
    lastStep: `Submitted for audit (auditid ${answer.auditid})`,
    nextAt: minutesFrom(now, RECHECK_MINUTES),
  };
  const [budget] = await db
    .update(fleetRollouts)
    .set({ expeditesUsed: sql`${fleetRollouts.expeditesUsed} + 1` })
    .where(and(eq(fleetRollouts.id, rollout.id), sql`${fleetRollouts.expeditesUsed} < ${fleetRollouts.expediteBudget}`))
    .returning();
  if (!budget) return submitted;
  const [auditing] = await db.select().from(miniprograms).where(eq(miniprograms.id, mp.id)).limit(1);
  const speedup = await speedupAudit(ctx, actor, auditing!);
  if (speedup.errcode === 0) return { ...submitted, expedited: true, lastStep: `${submitted.lastStep}, expedited`, nextAt: now.toISOString() };
  // Not used: given back to the rollout's budget.
  await db
    .update(fleetRollouts)
    .set({ expeditesUsed: sql`${fleetRollouts.expeditesUsed} - 1` })
    .where(eq(fleetRollouts.id, rollout.id));
  return { ...submitted, lastStep: `${submitted.lastStep}; not expedited: ${speedup.message ?? speedup.errmsg}` };
}

/** After the audit: the first percentage of the phased release, or a full release when there are none or nothing is online yet. */
async function releaseFirst(ctx: TokenContext, actor: Actor, rollout: FleetRollout, mp: Miniprogram, now: Date): Promise<Outcome> {
  const [first] = rollout.phases;
  if (first !== undefined) {
    const answer = await phasedRelease(ctx, actor, mp, first);
    if (answer.errcode === 0)
      return {
        state: "phased",
        percentage: first,
        phasedAt: now.toISOString(),
        lastStep: `Phased release at ${first} %`,
        nextAt: minutesFrom(now, rollout.stepMinutes),
      };
    // WeChat releases in phases only over a version already online (85079): a first release is a full one.
    if (answer.errcode !== 85079)
      return {
        state: "failed",
        lastStep: "Phased release refused",
        error: `WeChat refused the phased release (errcode ${answer.errcode}): ${answer.message ?? answer.errmsg}`,
      };
  }
  const answer = await release(ctx, actor, mp);
  if (answer.errcode !== 0)
    return {
      state: "failed",
      lastStep: "Release refused",
      error: `WeChat refused the release (errcode ${answer.errcode}): ${answer.message ?? answer.errmsg}`,
    };
  return {
    state: "released",
    percentage: 100,
    lastStep: first === undefined ? "Released to everyone" : "Released to everyone at once: nothing was online for a phased release",
  };
}

/** A phased step held long enough: its JS errors read; too many revert it, else the next percentage (100 at the end). */
async function nextPhase(ctx: TokenContext, actor: Actor, rollout: FleetRollout, target: FleetTarget, mp: Miniprogram, now: Date): Promise<Outcome> {
  const percentage = target.percentage ?? 0;
  const errors = await jsErrorsSince(ctx, mp, target.phasedAt ?? now.toISOString(), now);
  await stepRecord(ctx.db, mp.id, "jserrors", actor.keyId, { since: target.phasedAt, percentage }, errors);
  if (errors.count > rollout.maxJsErrors) {
    const reverted = await revertPhased(ctx, actor, mp);
    const found = `${errors.count} JS errors at ${percentage} % (more than ${rollout.maxJsErrors}${errors.top ? `; most often: ${errors.top}` : ""})`;
    if (reverted.errcode !== 0)
      return {
        state: "failed",
        lastStep: "Revert refused",
        error: `${found}; WeChat refused the revert (errcode ${reverted.errcode}): ${reverted.message ?? reverted.errmsg}`,
      };
    return { state: "reverted", percentage: 0, lastStep: "Phased release reverted: users keep the version online before it", error: found };
  }
  const next = rollout.phases.find((p) => p > percentage) ?? 100;
  const answer = await phasedRelease(ctx, actor, mp, next);
  if (answer.errcode !== 0)
    return {
      state: "failed",
      lastStep: `Phased release to ${next} % refused`,
      error: `WeChat refused (errcode ${answer.errcode}): ${answer.message ?? answer.errmsg}`,
    };
  if (next === 100) return { state: "released", percentage: 100, lastStep: "Released to everyone after the phased release" };
  return {
    state: "phased",
    percentage: next,
    phasedAt: now.toISOString(),
    lastStep: `Phased release at ${next} %`,
    nextAt: minutesFrom(now, rollout.stepMinutes),
  };
}

/** The JS errors WeChat's operations centre counted since the phased step began (jserr_list, by day). */
async function jsErrorsSince(ctx: TokenContext, mp: Miniprogram, since: string, now: Date) {
  const result = await asAuthorizer(ctx, mp, (token) =>
    callWeChat<WeChatAnswer & { data?: { errorMsg?: string; pv?: number }[] }>(
      ctx.upstream.transport,
      "/wxaapi/log/jserr_list",
      { access_token: token },
      {
        appid: mp.authorizerAppId,
        errType: "0",
        startTime: since.slice(0, 10),
        endTime: now.toISOString().slice(0, 10),
        keyword: "",
        openid: "",
        orderby: "pv",
        desc: "2",
        offset: 0,
        limit: 100,
      },
    ),
  ).catch((error: unknown) => {
    if (error instanceof WeChatError) throw new ApiError(502, `WeChat refused jserr_list (errcode ${error.errcode}): ${error.message}`);
    throw error;
  });
  const data = Array.isArray(result.data) ? result.data : [];
  return { count: data.reduce((n, e) => n + (Number(e.pv) || 0), 0), top: data[0]?.errorMsg ?? null };
}
