import { z } from "@hono/zod-openapi";
import { MAX_PAGE_SIZE } from "../platform/pagination";
import { DOMAIN_LIMITS, domainProblem } from "./wechat/domains";

const page = (fallback: number) =>
  z.strictObject({
    pageNumber: z
      .number({ error: "pageNumber must be a number" })
      .min(1, { error: "pageNumber starts at 1" })
      .max(100_000)
      .int({ error: "pageNumber must be a whole number" })
      .default(1),
    pageSize: z
      .number({ error: "pageSize must be a number" })
      .min(1, { error: "pageSize must be from 1 to 100" })
      .max(MAX_PAGE_SIZE, { error: "pageSize must be from 1 to 100" })
      .int({ error: "pageSize must be a whole number" })
      .default(fallback),
  });

/** D1 pages of 20, D2 of 15, at most 100 (the interface's defaults). */
export const miniprogramPage = page(20);
export const templatePage = page(15);

/** The interface gives configuration ids as strings; a number is accepted too. */
const configurationId = z
  .union([z.string().regex(/^\d{1,12}$/, { error: "id must be a configuration id (digits)" }), z.number().int().positive()], {
    error: "id is required: the configuration id",
  })
  // The demo's configuration in `npm run dev`: a pasted example reaches it.
  .openapi({ example: 1 })
  .transform(String);
const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` });
const url = (field: string) => z.url({ protocol: /^https?$/, error: `${field} must be an http(s) URL` }).max(1000);

export const byId = z.strictObject({ id: configurationId });
export const nameVerify = z.strictObject({ id: configurationId, name: text("name", 30) }).openapi({ example: { id: 1, name: "Harbour Tickets" } });
export const profileUpdate = z
  .strictObject({
    id: configurationId,
    name: text("name", 30),
    icon: url("icon"),
    license: url("license"),
    licenseType: text("licenseType", 40),
    explain: text("explain", 120),
  })
  .openapi({
    example: {
      id: 1,
      name: "Harbour Tickets",
      icon: "https://cdn.example.com/harbour/icon.png",
      license: "https://cdn.example.com/harbour/business-licence.jpg",
      licenseType: "business_license",
      explain: "Tickets and opening hours of the harbour gallery",
    },
  });
export const codeCommit = z
  .strictObject({
    id: configurationId,
    tplId: z.number({ error: "tplId is required: a template id of D2" }).int().positive(),
  })
  .openapi({ example: { id: 1, tplId: 3 } });
export const testerBind = z
  .strictObject({ id: configurationId, messengerId: text("messengerId", 64) })
  .openapi({ example: { id: 1, messengerId: "harbour_tester" } });
export const miniprogramCreate = z
  .strictObject({ name: text("name", 30), configType: text("configType", 40).optional() })
  .openapi({ example: { name: "Harbour Tickets", configType: "ticketing" } });

// The audit settings and release control (operations.ts).

/** WeChat's privacy interface keys (privacy_key of the privacy guide). */
export const PRIVACY_KEYS = [
  "UserInfo",
  "Location",
  "Address",
  "Invoice",
  "RunData",
  "Record",
  "Album",
  "Camera",
  "PhoneNumber",
  "Contact",
  "DeviceInfo",
  "EXIDNumber",
  "EXOrderInfo",
  "EXUserPublishContent",
  "EXUserFollowAcct",
  "EXUserOpLog",
  "AlbumWriteOnly",
  "LicensePlate",
  "BlueTooth",
  "CalendarWriteOnly",
  "Email",
  "MessageFile",
  "ChooseLocation",
  "Accelerometer",
  "Compass",
  "DeviceMotion",
  "Gyroscope",
  "Clipboard",
] as const;

export const privacySet = z
  .strictObject({
    id: configurationId,
    ownerSetting: z
      .strictObject({
        contactEmail: z.email({ error: "ownerSetting.contactEmail must be an email address" }).max(254).optional(),
        contactPhone: z
          .string()
          .regex(/^\+?[0-9 -]{5,20}$/, { error: "ownerSetting.contactPhone must be a phone number" })
          .optional(),
        contactWeixin: text("ownerSetting.contactWeixin", 64).optional(),
        contactQq: z
          .string()
          .regex(/^\d{5,12}$/, { error: "ownerSetting.contactQq must be a QQ number" })
          .optional(),
        noticeMethod: text("ownerSetting.noticeMethod", 200),
        storeExpireTimestamp: text("ownerSetting.storeExpireTimestamp", 100).optional(),
      })
      .refine((o) => Boolean(o.contactEmail || o.contactPhone || o.contactWeixin || o.contactQq), {
        error: "ownerSetting needs one contact: contactEmail, contactPhone, contactWeixin or contactQq",
      }),
    settings: z
      .array(
        z.strictObject({
          privacyKey: z.enum(PRIVACY_KEYS, { error: `privacyKey must be one of WeChat's privacy interfaces: ${PRIVACY_KEYS.join(", ")}` }),
          privacyText: text("privacyText", 200),
        }),
        { error: "settings is required: the privacy interfaces and what each is used for" },
      )
      .min(1, { error: "settings must name at least one privacy interface" })
      .max(PRIVACY_KEYS.length, { error: `settings takes at most ${PRIVACY_KEYS.length} entries` })
      .refine((list) => new Set(list.map((s) => s.privacyKey)).size === list.length, { error: "settings names a privacy interface twice" }),
  })
  .openapi({
    example: {
      id: 1,
      ownerSetting: { contactEmail: "privacy@harbour.example", noticeMethod: "A pop-up on first use" },
      settings: [
        { privacyKey: "UserInfo", privacyText: "To show your name on your tickets" },
        { privacyKey: "PhoneNumber", privacyText: "To send your tickets by text message" },
      ],
    },
  });

/** A domain list of one kind, each checked as WeChat checks it (wechat/domains.ts), at most `max`. */
const domains = (field: string, scheme: "https" | "wss", max: number) =>
  z
    .array(
      z
        .string({ error: `${field} holds domains as strings` })
        .max(253, { error: `A domain in ${field} is at most 253 characters` })
        .superRefine((domain, ctx) => {
          const problem = domainProblem(domain, scheme);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
      { error: `${field} must be a list of domains` },
    )
    .max(max, { error: `At most ${max} domains in ${field} (WeChat's limit)` })
    .refine((list) => new Set(list).size === list.length, { error: `A domain appears twice in ${field}` });
const domainAction = z.enum(["add", "delete", "set"], { error: "action must be add, delete or set" });

export const serverDomains = z
  .strictObject({
    id: configurationId,
    action: domainAction,
    requestDomains: domains("requestDomains", "https", DOMAIN_LIMITS.server).optional(),
    socketDomains: domains("socketDomains", "wss", DOMAIN_LIMITS.server).optional(),
    uploadDomains: domains("uploadDomains", "https", DOMAIN_LIMITS.server).optional(),
    downloadDomains: domains("downloadDomains", "https", DOMAIN_LIMITS.server).optional(),
  })
  .openapi({ example: { id: 1, action: "add", requestDomains: ["https://api.harbour.example"], socketDomains: ["wss://live.harbour.example"] } });
export const webviewDomains = z
  .strictObject({ id: configurationId, action: domainAction, domains: domains("domains", "https", DOMAIN_LIMITS.webview) })
  .openapi({ example: { id: 1, action: "set", domains: ["https://www.harbour.example"] } });
export const prefetchDomains = z
  .strictObject({ id: configurationId, domains: domains("domains", "https", DOMAIN_LIMITS.prefetch) })
  .openapi({ example: { id: 1, domains: ["https://api.harbour.example"] } });

const categoryId = (field: string) =>
  z
    .number({ error: `${field} must be a category id (a number)` })
    .int()
    .positive()
    .max(1_000_000_000);
export const categoryAdd = z
  .strictObject({
    id: configurationId,
    categories: z
      .array(
        z.strictObject({
          first: categoryId("first"),
          second: categoryId("second"),
          certificates: z
            .array(z.strictObject({ key: text("certificates.key", 100), value: text("certificates.value", 1000) }))
            .max(10, { error: "certificates takes at most 10 entries" })
            .optional(),
        }),
        { error: "categories is required: a list of { first, second }" },
      )
      .min(1, { error: "categories must name at least one category" })
      .max(5, { error: "categories takes at most 5 (WeChat's limit for a mini-program)" }),
  })
  .openapi({ example: { id: 1, categories: [{ first: 2, second: 201 }] } });
export const categoryDelete = z
  .strictObject({ id: configurationId, first: categoryId("first"), second: categoryId("second") })
  .openapi({ example: { id: 1, first: 2, second: 201 } });
export const phasedRelease = z
  .strictObject({
    id: configurationId,
    percentage: z
      .number({ error: "percentage is required: the share of users, 1 to 100" })
      .min(1, { error: "percentage must be from 1 to 100" })
      .max(100, { error: "percentage must be from 1 to 100" })
      .int({ error: "percentage must be a whole number" }),
  })
  .openapi({ example: { id: 1, percentage: 10 } });
export const rollbackTo = z
  .strictObject({
    id: configurationId,
    appVersion: z.number({ error: "appVersion must be a version number of the history" }).int().positive().max(1_000_000_000).optional(),
  })
  .openapi({ example: { id: 1, appVersion: 3 } });
export const visitStatus = z
  .strictObject({ id: configurationId, action: z.enum(["open", "close"], { error: "action must be open or close" }) })
  .openapi({ example: { id: 1, action: "close" } });

// Fleet rollouts (fleet.ts).

/** The most mini-programs one rollout takes. */
export const MAX_FLEET = 500;
const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, { error: `${field} must be from ${min} to ${max}` })
    .max(max, { error: `${field} must be from ${min} to ${max}` })
    .int({ error: `${field} must be a whole number` });
const fleetMember = z
  .union([z.string().regex(/^\d{1,12}$/, { error: "Each mini-program id must be a configuration id (digits)" }), z.number().int().positive()], {
    error: "Each mini-program id must be a configuration id (digits)",
  })
  .transform(Number);
export const fleetRollout = z
  .strictObject({
    templateId: z
      .number({ error: "templateId is required: a template id of D2" })
      .int({ error: "templateId must be a whole number" })
      .positive()
      .openapi({ description: "The template of D2 to commit" }),
    miniprogramIds: z
      .array(fleetMember, { error: "miniprogramIds is required: the ids of the mini-programs to roll out to" })
      .min(1, { error: "miniprogramIds must name at least one mini-program" })
      .max(MAX_FLEET, { error: `A rollout takes at most ${MAX_FLEET} mini-programs` })
      .refine((ids) => new Set(ids).size === ids.length, { error: "miniprogramIds must not name a mini-program twice" })
      .openapi({ description: "The caller's mini-programs (1–500), each at least profile_updated and in no other running rollout" }),
    phases: z
      .array(whole("Each phase", 1, 99), { error: "phases must be a list of percentages" })
      .max(10, { error: "phases takes at most 10 percentages" })
      .refine((p) => p.every((x, i) => i === 0 || x > p[i - 1]!), { error: "phases must rise: each percentage higher than the one before" })
      .default([10, 50])
      .openapi({ description: "Rising percentages of the phased release, each held stepMinutes; none: a full release at once" }),
    stepMinutes: whole("stepMinutes", 5, 10_080)
      .default(60)
      .openapi({ description: "How long each percentage is held before its JS errors are read" }),
    expediteBudget: whole("expediteBudget", 0, 100)
      .default(0)
      .openapi({ description: "How many of the rollout's audits may be expedited (the platform's monthly expedites)" }),
    maxJsErrors: whole("maxJsErrors", 0, 1_000_000)
      .default(0)
      .openapi({ description: "More JS errors than this during a phased step reverts that mini-program's phased release" }),
  })
  .openapi({ example: { templateId: 3, miniprogramIds: [12, 13, 14], phases: [10, 50], stepMinutes: 60, expediteBudget: 2, maxJsErrors: 20 } });
/** What a rollout's request may send (the defaults left out): the console builds it. */
export type FleetRolloutBody = z.input<typeof fleetRollout>;
