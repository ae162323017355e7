import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export interface JobCounts {
  inserted: number;
  updated: number;
  closed: number;
  unchanged: number;
  /** Figures a feed gave that are older than the record (a correction the feed has not caught up with): kept. */
  outdated?: number;
}

/** One row per run of a refresh job, whatever its end. */
export const jobRuns = sqliteTable(
  "job_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    job: text("job").notNull(),
    trigger: text("trigger", { enum: ["cron", "manual", "cli"] }).notNull(),
    source: text("source").notNull(),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    status: text("status", { enum: ["running", "succeeded", "failed", "refused"] }).notNull(),
    counts: text("counts", { mode: "json" }).$type<JobCounts>(),
    error: text("error"),
  },
  (t) => [index("job_runs_job_started").on(t.job, t.startedAt)],
);

export type JobRun = typeof jobRuns.$inferSelect;

/**
 * Versions of data that changes only in bulk (the refresh jobs, the seed): readers cache their
 * answers under it (platform/read-cache.ts), so a run's changes are a new cache key.
 */
export const dataVersions = sqliteTable("data_versions", {
  name: text("name").primaryKey(),
  version: integer("version").notNull().default(1),
  updatedAt: text("updated_at").notNull(),
});
