import { z } from "@hono/zod-openapi";
import { FLEET_STATES, STAGES } from "./schema";

// The answers group D's routes document, written once: the routes declare them, the admin console reads their types.

const weChatFields = {
  errcode: z.number().int().openapi({ description: "WeChat's errcode as it gave it: 0 on success" }),
  errmsg: z.string().openapi({ description: "WeChat's errmsg as it gave it" }),
  message: z.string().optional().openapi({ description: "What a non-zero errcode means (docs/miniprograms.md lists them)" }),
};
/** WeChat's own shape: errcode and errmsg as it gave them, and what a refusal means. */
export const weChatAnswer = z.object(weChatFields);

/** WeChat's shape with its own fields, which a refusal (only errcode, errmsg and message) lacks. */
export const answer = <T extends z.ZodRawShape>(shape: T, example: Record<string, unknown>) =>
  z
    .object(weChatFields)
    .extend(z.object(shape).partial().shape)
    .openapi({ example: { errcode: 0, errmsg: "ok", ...example } });

export const page = <T extends z.ZodType>(item: T) => z.object({ Total: z.number().int(), CurrPage: z.number().int(), Data: z.array(item) });

export const miniprogramItem = z.object({
  Id: z.number().int(),
  Name: z.string(),
  ConfigType: z.string(),
  Stage: z.enum(STAGES),
  AppId: z.string().nullable(),
});
export const templateItem = z.object({ Id: z.number().int(), Name: z.string(), Version: z.string(), Description: z.string(), Created: z.string() });

export const stepsAnswer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    stage: z.enum(STAGES),
    appId: z.string().nullable().openapi({ description: "The authorized mini-program's app id (null before authorization)" }),
    steps: z.array(
      z.object({
        step: z.string(),
        label: z.string().openapi({ description: "What the step did, in words" }),
        actorKeyId: z.number().int().nullable(),
        request: z.unknown(),
        answer: z.unknown(),
        at: z.string(),
      }),
    ),
  })
  .openapi({
    example: {
      id: 12,
      name: "Harbour Tickets",
      stage: "authorized",
      appId: "wx3f2a9c1b7d5e8a04",
      steps: [
        {
          step: "categoryadd",
          label: "Adding a category",
          actorKeyId: 5,
          request: { categories: [{ first: 8, second: 12 }] },
          answer: { errcode: 0, errmsg: "ok" },
          at: "2026-11-26T08:15:00.000Z",
        },
      ],
    },
  });

export const privacyAnswer = answer(
  {
    code_exist: z.number().int(),
    privacy_list: z.array(z.string()),
    setting_list: z.array(z.object({ privacy_key: z.string(), privacy_text: z.string() })),
    owner_setting: z.record(z.string(), z.unknown()),
    update_time: z.number().int(),
  },
  {
    code_exist: 1,
    privacy_list: ["UserInfo", "PhoneNumber"],
    setting_list: [{ privacy_key: "UserInfo", privacy_text: "To show your name on your tickets" }],
    owner_setting: { contact_email: "privacy@harbour.example", notice_method: "A pop-up on first use" },
    update_time: 1764145200,
  },
);

export const domainsAnswer = answer(
  {
    server: z.record(z.string(), z.array(z.string())).optional(),
    webview: z.array(z.string()).optional(),
    prefetch: z.array(z.string()).optional(),
  },
  {
    server: { requestdomain: ["https://api.harbour.example"], wsrequestdomain: [], uploaddomain: [], downloaddomain: [] },
    webview: [],
    prefetch: [],
  },
);

export const allCategoriesAnswer = answer(
  { categories: z.array(z.unknown()) },
  { categories: [{ id: 2, name: "Tools", level: 1, father: 0, children: [201], sensitive_type: 0, qualify: "" }] },
);

const category = z.object({
  first: z.number().int(),
  first_name: z.string(),
  second: z.number().int(),
  second_name: z.string(),
  audit_status: z.number().int().openapi({ description: "1 in audit, 2 rejected, 3 approved" }),
  audit_reason: z.string(),
});
export const categoriesAnswer = answer(
  { categories: z.array(category), limit: z.number().int(), quota: z.number().int() },
  {
    categories: [{ first: 2, first_name: "Tools", second: 201, second_name: "Bookings", audit_status: 3, audit_reason: "" }],
    limit: 5,
    quota: 4,
  },
);

export const preflightAnswer = z
  .object({
    ready: z.boolean().openapi({ description: "No blocking problem: D6 will call WeChat" }),
    problems: z.array(z.object({ check: z.enum(["privacy", "categories", "domains", "name", "quota"]), blocking: z.boolean(), message: z.string() })),
  })
  .openapi({
    example: {
      ready: false,
      problems: [
        {
          check: "privacy",
          blocking: true,
          message: "The privacy guide does not cover what the code uses: PhoneNumber (WeChat refuses with 89248)",
        },
      ],
    },
  });

export const quotaAnswer = answer(
  { rest: z.number().int(), limit: z.number().int(), speedup_rest: z.number().int(), speedup_limit: z.number().int() },
  { rest: 18, limit: 20, speedup_rest: 2, speedup_limit: 3 },
);

export const phasedPlanAnswer = answer(
  { gray_release_plan: z.object({ status: z.number().int(), create_timestamp: z.number().int(), gray_percentage: z.number().int() }) },
  { gray_release_plan: { status: 1, create_timestamp: 1764145200, gray_percentage: 10 } },
);

export const historyAnswer = answer(
  {
    version_list: z.array(
      z.object({ app_version: z.number().int(), user_version: z.string(), user_desc: z.string(), commit_time: z.number().int() }),
    ),
  },
  { version_list: [{ app_version: 3, user_version: "1.4.0", user_desc: "Ticket shop", commit_time: 1764145200 }] },
);

export const auditStateAnswer = z
  .object({ status: z.number().int(), reason: z.string(), auditid: z.string().nullable(), screenshots: z.array(z.string()) })
  .openapi({ example: { status: 0, reason: "", auditid: "1234567890", screenshots: [] } });

/** A fleet rollout's progress: counts per state, and where each of its mini-programs is. */
export const fleetProgressAnswer = z
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

/** The caller's rollouts, each with its counts per state. */
export const fleetRolloutsAnswer = z
  .array(
    fleetProgressAnswer.pick({ id: true, templateId: true, templateVersion: true, total: true, createdAt: true, finishedAt: true, counts: true }),
  )
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
  });

export type MiniprogramItem = z.infer<typeof miniprogramItem>;
export type TemplateItem = z.infer<typeof templateItem>;
export type Steps = z.infer<typeof stepsAnswer>;
export type WeChatAnswer = z.infer<typeof weChatAnswer>;
export type Privacy = z.infer<typeof privacyAnswer>;
export type Domains = z.infer<typeof domainsAnswer>;
export type AllCategories = z.infer<typeof allCategoriesAnswer>;
export type Categories = z.infer<typeof categoriesAnswer>;
export type Preflight = z.infer<typeof preflightAnswer>;
export type Quota = z.infer<typeof quotaAnswer>;
export type PhasedPlan = z.infer<typeof phasedPlanAnswer>;
export type History = z.infer<typeof historyAnswer>;
export type AuditState = z.infer<typeof auditStateAnswer>;
export type FleetProgress = z.infer<typeof fleetProgressAnswer>;
export type FleetRolloutSummary = z.infer<typeof fleetRolloutsAnswer>[number];
