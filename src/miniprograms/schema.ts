import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { currentTimestamp } from "../platform/columns";
import { users } from "../platform/auth/tables";

/**
 * A hosted mini-program's way from configuration to release; each step needs the one before
 * (service.ts `STEP_NEEDS`). `audit_submitted` holds while WeChat audits: the audit's own state
 * (`auditStatus`) says passed, rejected, auditing, withdrawn or delayed. `phased_release` holds while
 * the passed version reaches a percentage of users; reverted, it is back at `audit_passed`.
 */
export const STAGES = [
  "configured",
  "authorized",
  "name_verified",
  "profile_updated",
  "code_committed",
  "audit_submitted",
  "audit_passed",
  "phased_release",
  "released",
] as const;
export type Stage = (typeof STAGES)[number];

/** WeChat's audit states: 0 passed, 1 rejected, 2 auditing, 3 withdrawn, 4 delayed. */
export const AUDIT_STATES = { passed: 0, rejected: 1, auditing: 2, withdrawn: 3, delayed: 4 } as const;

export const miniprograms = sqliteTable(
  "miniprograms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The user whose keys may manage it: another user's id is a 404. */
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    icon: text("icon"),
    license: text("license"),
    licenseType: text("license_type"),
    introduction: text("introduction"),
    configType: text("config_type").notNull().default("standard"),
    /** The mini-program's app id once its owner has authorized the platform. */
    authorizerAppId: text("authorizer_app_id"),
    /** AES-GCM sealed (KEY_ENCRYPTION_KEY): it rotates at each refresh, and losing it loses the authorization. */
    authorizerRefreshToken: text("authorizer_refresh_token"),
    /** The pre-auth code of the authorization link last made for it: the authorized event names it. */
    preAuthCode: text("pre_auth_code"),
    stage: text("stage", { enum: STAGES }).notNull().default("configured"),
    templateId: integer("template_id"),
    templateVersion: text("template_version"),
    extJson: text("ext_json"),
    auditId: text("audit_id"),
    auditStatus: integer("audit_status"),
    auditReason: text("audit_reason"),
    auditScreenshots: text("audit_screenshots", { mode: "json" }).$type<string[]>(),
    /** R2 keys of the tester QR code and the unlimited wxa code (D7), served at /deposits/codes/<key>. */
    testQrKey: text("test_qr_key"),
    wxaCodeKey: text("wxa_code_key"),
    testers: text("testers", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    updatedAt: text("updated_at").notNull().default(currentTimestamp),
  },
  (t) => [index("miniprograms_owner").on(t.ownerId), uniqueIndex("miniprograms_appid").on(t.authorizerAppId)],
);
export type Miniprogram = typeof miniprograms.$inferSelect;

/** Every step taken on a mini-program: when, by which key, what was asked and what WeChat answered. */
export const miniprogramSteps = sqliteTable(
  "miniprogram_steps",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    miniprogramId: integer("miniprogram_id")
      .notNull()
      .references(() => miniprograms.id),
    step: text("step").notNull(),
    /** The API key that asked, or null for WeChat's pushes and the scheduled jobs. */
    actorKeyId: integer("actor_key_id"),
    request: text("request", { mode: "json" }).$type<unknown>(),
    answer: text("answer", { mode: "json" }).$type<unknown>(),
    at: text("at").notNull().default(currentTimestamp),
  },
  (t) => [index("miniprogram_steps_miniprogram").on(t.miniprogramId, t.id)],
);

/** The platform's code templates (wxa/gettemplatelist), kept in step by a scheduled job. */
export const codeTemplates = sqliteTable("code_templates", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  version: text("version").notNull(),
  description: text("description").notNull().default(""),
  createdAt: text("created_at").notNull(),
});
export type CodeTemplate = typeof codeTemplates.$inferSelect;

/**
 * The platform's credentials from WeChat: the verify ticket, the component access token and each
 * authorizer's access token, sealed. A refresh takes the row's lease first, so that one worker
 * at a time refreshes (an authorizer's refresh token rotates: a lost race loses it).
 */
export const wechatCredentials = sqliteTable("wechat_credentials", {
  name: text("name").primaryKey(),
  sealedValue: text("sealed_value"),
  expiresAt: text("expires_at"),
  leaseHolder: text("lease_holder"),
  leaseUntil: text("lease_until"),
  updatedAt: text("updated_at").notNull().default(currentTimestamp),
});

/** Where a mini-program of a fleet rollout is (fleet.ts moves it): one step a turn, the queue's message naming the turn. */
export const FLEET_STATES = ["pending", "committed", "quota_wait", "submitting", "auditing", "phased", "released", "reverted", "failed"] as const;
export type FleetState = (typeof FLEET_STATES)[number];
/** Where a mini-program's part of a rollout ends. */
export const FLEET_FINAL: FleetState[] = ["released", "reverted", "failed"];

/** A template version rolled out to many mini-programs of one user at once (fleet.ts). */
export const fleetRollouts = sqliteTable(
  "fleet_rollouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id),
    actorKeyId: integer("actor_key_id"),
    templateId: integer("template_id").notNull(),
    templateVersion: text("template_version").notNull(),
    /** The phased release's percentages, rising, each held `stepMinutes` before the next; then 100. */
    phases: text("phases", { mode: "json" }).$type<number[]>().notNull(),
    stepMinutes: integer("step_minutes").notNull(),
    /** How many audits this rollout may expedite (speedupaudit), of the platform's monthly expedites. */
    expediteBudget: integer("expedite_budget").notNull(),
    expeditesUsed: integer("expedites_used").notNull().default(0),
    /** More JS errors than this during a phased step reverts that mini-program's phased release. */
    maxJsErrors: integer("max_js_errors").notNull(),
    total: integer("total").notNull(),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    finishedAt: text("finished_at"),
  },
  (t) => [index("fleet_rollouts_owner").on(t.ownerId, t.id), index("fleet_rollouts_running").on(t.finishedAt)],
);
export type FleetRollout = typeof fleetRollouts.$inferSelect;

/** One mini-program's way through a rollout. `turn` numbers its steps: a queue message acts only on the turn it names. */
export const fleetTargets = sqliteTable(
  "fleet_rollout_targets",
  {
    rolloutId: integer("rollout_id")
      .notNull()
      .references(() => fleetRollouts.id),
    miniprogramId: integer("miniprogram_id")
      .notNull()
      .references(() => miniprograms.id),
    state: text("state", { enum: FLEET_STATES }).notNull().default("pending"),
    turn: integer("turn").notNull().default(0),
    /** The phased release's percentage reached, and when it was reached. */
    percentage: integer("percentage"),
    phasedAt: text("phased_at"),
    auditId: text("audit_id"),
    /** Audit submissions made for this rollout: 0 or 1, never more. */
    submissions: integer("submissions").notNull().default(0),
    expedited: integer("expedited", { mode: "boolean" }).notNull().default(false),
    lastStep: text("last_step").notNull(),
    error: text("error"),
    /** When the cron next hands it to the queue. */
    nextAt: text("next_at").notNull(),
    updatedAt: text("updated_at").notNull().default(currentTimestamp),
  },
  (t) => [
    primaryKey({ columns: [t.rolloutId, t.miniprogramId] }),
    index("fleet_rollout_targets_due").on(t.nextAt),
    index("fleet_rollout_targets_miniprogram").on(t.miniprogramId),
  ],
);
export type FleetTarget = typeof fleetTargets.$inferSelect;
