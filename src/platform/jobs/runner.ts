import { and, desc, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import type { Database } from "../database";
import type { Bindings } from "../env";
import { failureText } from "../failures";
import { logger } from "../logging";
import { bumpDataVersion } from "../read-cache";
import { platformSettings, settingsOf } from "../settings";
import { type JobCounts, type JobRun, jobRuns } from "./tables";

/** A feed that cannot be used as it is: nothing is changed, and the run says why. */
export class FeedError extends Error {}

/** A JSON feed checked against its schema; what is wrong with it becomes the run's error. */
export function parseFeedJson<S extends z.ZodType>(text: string | undefined, schema: S, what: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text ?? "");
  } catch {
    throw new FeedError(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FeedError(`${what} is malformed at ${issue.path.join(".") || "the top"}: ${issue.message}`);
  }
  return parsed.data;
}

export interface Feed {
  /** What was read, by the names the job gives its sources. */
  bodies: Record<string, string>;
  source: string;
}

export interface JobPlan {
  statements: BatchItem<"sqlite">[];
  counts: JobCounts;
  /** How many records the job looks after now, for the share of them a run may change. */
  existing: number;
}

/** A source's URL setting in its group's settings schema: its name says what to set, its value comes from the parse. */
export interface FeedSetting {
  name: string;
  read: (env: Bindings) => string | undefined;
}

/** The setting `name` of a group's settings schema, read from that schema's parse (`settingsOf`). */
export function feedSetting<S extends z.ZodObject>(schema: S, name: keyof z.output<S> & string): FeedSetting {
  return {
    name,
    read: (env) => {
      const value: unknown = settingsOf(env, schema)[name];
      return typeof value === "string" ? value : undefined;
    },
  };
}

export interface JobDefinition {
  name: string;
  cron: string;
  description: string;
  /** Each source by name: its group's setting that may point elsewhere, and the default. The first is the main one. */
  sources: { name: string; setting: FeedSetting; defaultUrl?: string; optional?: boolean }[];
  plan(db: Database, feed: Feed, now: string): Promise<JobPlan>;
  /** What follows once a run's changes are stored (group T queues its webhooks); a failure here is logged, the run stands. */
  afterStored?(db: Database, env: Bindings): Promise<void>;
}

export type Trigger = JobRun["trigger"];

const FETCH_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CHANGE_SHARE = 0.25;
const emptyCounts = (): JobCounts => ({ inserted: 0, updated: 0, closed: 0, unchanged: 0 });

export function sourceUrls(job: JobDefinition, env: Bindings): Record<string, string | undefined> {
  return Object.fromEntries(job.sources.map((s) => [s.name, s.setting.read(env) || s.defaultUrl]));
}

async function fetchFeed(job: JobDefinition, env: Bindings): Promise<Feed> {
  const urls = sourceUrls(job, env);
  const bodies: Record<string, string> = {};
  for (const source of job.sources) {
    const url = urls[source.name];
    if (!url) {
      if (source.optional) continue;
      throw new FeedError(`no source configured: set ${source.setting.name}`);
    }
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch (error) {
      throw new FeedError(`${url}: ${error instanceof Error && error.name === "TimeoutError" ? "timed out" : "unreachable"}`);
    }
    if (!res.ok) {
      if (source.optional && res.status === 404) continue;
      throw new FeedError(`${url}: HTTP ${res.status}`);
    }
    bodies[source.name] = await res.text();
  }
  return { bodies, source: urls[job.sources[0]!.name]! };
}

/**
 * One run: record it, read the feed (or take the one given), plan the changes, refuse a plan that
 * would change too large a share of the records, apply the rest in one batch, record the end.
 */
export async function runJob(db: Database, env: Bindings, job: JobDefinition, trigger: Trigger, given?: Feed): Promise<JobRun> {
  const now = new Date().toISOString();
  const [run] = await db
    .insert(jobRuns)
    .values({ job: job.name, trigger, source: given?.source ?? sourceUrls(job, env)[job.sources[0]!.name] ?? "", startedAt: now, status: "running" })
    .returning();
  const finish = async (status: JobRun["status"], counts: JobCounts, error: string | null) => {
    const [done] = await db
      .update(jobRuns)
      .set({ status, counts, error, finishedAt: new Date().toISOString() })
      .where(eq(jobRuns.id, run!.id))
      .returning();
    const log = logger({ job: job.name, run: run!.id, trigger });
    if (status === "succeeded") log.info({ status, counts });
    else log.warn({ status, counts, error });
    return done!;
  };

  let plan: JobPlan;
  try {
    plan = await job.plan(db, given ?? (await fetchFeed(job, env)), now);
  } catch (error) {
    if (error instanceof FeedError) return finish("failed", emptyCounts(), error.message);
    return finish("failed", emptyCounts(), `unexpected: ${failureText(error)}`);
  }

  const maxShare = settingsOf(env, platformSettings).JOB_MAX_CHANGE_SHARE ?? DEFAULT_MAX_CHANGE_SHARE;
  const changed = plan.counts.updated + plan.counts.closed;
  if (plan.existing > 0 && changed / plan.existing > maxShare) {
    const share = Math.round((changed / plan.existing) * 100);
    return finish("refused", plan.counts, `would change or retire ${changed} of ${plan.existing} records (${share}%), more than ${maxShare * 100}%`);
  }
  if (plan.statements.length > 0) {
    const [first, ...rest] = plan.statements;
    // The cached T and O answers go stale with the rows, in the same batch.
    try {
      await db.batch([first!, ...rest, bumpDataVersion(db)]);
    } catch (error) {
      // Nothing was applied (one batch): the next run plans the same changes again.
      return finish("failed", emptyCounts(), `storage: ${failureText(error)}`);
    }
    await job.afterStored?.(db, env).catch((error: unknown) => logger({ job: job.name, run: run!.id }).warn({ afterStored: failureText(error) }));
  }
  return finish("succeeded", plan.counts, null);
}

export async function lastRuns(db: Database, job: string) {
  const [last] = await db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(desc(jobRuns.id)).limit(1);
  const [success] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), eq(jobRuns.status, "succeeded")))
    .orderBy(desc(jobRuns.id))
    .limit(1);
  return { last, success };
}
