import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Bindings } from "../platform/env";

/**
 * The sandbox's own state, what WeChat would keep: not in the production schema (src/db/schema.ts
 * leaves this module out, so drizzle-kit writes no migration for it). The sandbox creates its
 * tables on its first use, outside production; they persist in the local D1 across restarts.
 */

/** What WeChat would keep for each authorized mini-program. */
export const sandboxApps = sqliteTable("wechat_sandbox_apps", {
  appId: text("app_id").primaryKey(),
  /** The one refresh token that works now: each refresh rotates it, as WeChat does. */
  refreshToken: text("refresh_token").notNull(),
  nickname: text("nickname"),
  signature: text("signature"),
  headImageMediaId: text("head_image_media_id"),
  commit: text("commit", { mode: "json" }).$type<{ templateId: number; userVersion: string; extJson: string }>(),
  /** The next audit's outcome, steered by POST /wechat-sandbox/steer: pass or fail, after so many seconds. */
  steering: text("steering", { mode: "json" }).$type<{ outcome: "pass" | "fail"; reason?: string; delaySeconds: number }>(),
  testers: text("testers", { mode: "json" }).$type<string[]>().notNull().default([]),
  releasedVersion: text("released_version"),
});

export const sandboxAudits = sqliteTable("wechat_sandbox_audits", {
  auditId: integer("audit_id").primaryKey({ autoIncrement: true }),
  appId: text("app_id").notNull(),
  /** `withdrawn` once undocodeaudit took it back before its time. */
  outcome: text("outcome", { enum: ["pass", "fail", "withdrawn"] }).notNull(),
  reason: text("reason"),
  decideAt: text("decide_at").notNull(),
  /** Set once the audit's push event has gone to the receiver. */
  pushedAt: text("pushed_at"),
});

/** A release the sandbox made live: `app_version` numbers them, as WeChat's history does. */
export interface SandboxRelease {
  app_version: number;
  user_version: string;
  user_desc: string;
  commit_time: number;
}

/** What WeChat keeps of a mini-program's audit settings and releases (the operations of sandbox-operations.ts). */
export interface SandboxAppState {
  privacy?: {
    owner_setting: Record<string, unknown>;
    setting_list: { privacy_key: string; privacy_text: string }[];
    update_time: number;
  };
  domains: Record<"requestdomain" | "wsrequestdomain" | "uploaddomain" | "downloaddomain" | "webviewdomain" | "prefetchdomain", string[]>;
  categories: { first: number; first_name: string; second: number; second_name: string; audit_status: number; audit_reason: string }[];
  releases: SandboxRelease[];
  /** The app_version online now, and the audit whose version was released last. */
  live: number | null;
  releasedAudit?: number;
  /** The live release came from a rollback, or was rolled back from: WeChat allows one rollback per release. */
  rolledBack: boolean;
  gray: { gray_percentage: number; create_timestamp: number } | null;
  visitStatus: "open" | "close";
  /** When undocodeaudit succeeded (ISO times): WeChat allows 5 a day and 10 a month. */
  withdrawals: string[];
  /** The audits expedited (speedupaudit), the newest 20: a second expedite of one is refused (89404). */
  expedited?: number[];
  /** The JS errors WeChat's operations centre counted (jserr_list), set by POST /wechat-sandbox/js-errors. */
  jsErrors: { message: string; count: number; at: string }[];
}

export const sandboxAppStates = sqliteTable("wechat_sandbox_app_states", {
  appId: text("app_id").primaryKey(),
  state: text("state", { mode: "json" }).$type<SandboxAppState>().notNull(),
});

/** The platform's audit quota for a month (`YYYY-MM`), shared by all its mini-programs: queryquota reads it. */
export const sandboxQuotas = sqliteTable("wechat_sandbox_quotas", {
  month: text("month").primaryKey(),
  rest: integer("rest").notNull(),
  speedupRest: integer("speedup_rest").notNull(),
});

/** The tables above as SQL (test/miniprograms/sandbox-tables.test.ts checks that they agree). */
const CREATE_TABLES = [
  `CREATE TABLE IF NOT EXISTS wechat_sandbox_apps (
    app_id text PRIMARY KEY NOT NULL,
    refresh_token text NOT NULL,
    nickname text,
    signature text,
    head_image_media_id text,
    "commit" text,
    steering text,
    testers text DEFAULT '[]' NOT NULL,
    released_version text
  )`,
  `CREATE TABLE IF NOT EXISTS wechat_sandbox_audits (
    audit_id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
    app_id text NOT NULL,
    outcome text NOT NULL,
    reason text,
    decide_at text NOT NULL,
    pushed_at text
  )`,
  `CREATE TABLE IF NOT EXISTS wechat_sandbox_app_states (
    app_id text PRIMARY KEY NOT NULL,
    state text NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS wechat_sandbox_quotas (
    month text PRIMARY KEY NOT NULL,
    rest integer NOT NULL,
    speedup_rest integer NOT NULL
  )`,
];

/** Per D1 binding, made once per isolate; a failure is tried again on the next use. */
const created = new WeakMap<D1Database, Promise<unknown>>();

/** Makes the next use create the tables again, after something outside the sandbox dropped them (a test emptying its storage). */
export const forgetSandboxTables = (env: Pick<Bindings, "DB">) => created.delete(env.DB);

/** Creates the sandbox's tables where they do not exist yet. */
export function ensureSandboxTables(env: Pick<Bindings, "DB">): Promise<unknown> {
  let done = created.get(env.DB);
  if (!done) {
    done = env.DB.batch(CREATE_TABLES.map((sql) => env.DB.prepare(sql))).catch((error: unknown) => {
      created.delete(env.DB);
      throw error;
    });
    created.set(env.DB, done);
  }
  return done;
}
