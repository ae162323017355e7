import { z } from "@hono/zod-openapi";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { DEFAULT_MEDIA_BYTES_PER_TENANT } from "../media/limits";
import { MEMBER_ROLES } from "../roles";
import { DEFAULT_THEME_BYTES_PER_TENANT } from "../sites/theme-limits";
import { DEFAULT_TEXT_BYTES_PER_TENANT } from "./text-limits";
import { auditLog, CONTENT_STATUSES } from "../schema";

// The admin API's answers that are no table's row; the console takes its types from here (import type), so a change breaks its typecheck.

export const tenantSchema = z
  .object({ id: z.number().int(), name: z.string(), slug: z.string(), role: z.enum(MEMBER_ROLES) })
  .openapi("TenantMembership", { example: { id: 1, name: "Harbour Media", slug: "harbour-media", role: "owner" } });
export type TenantMembership = z.infer<typeof tenantSchema>;

export const memberSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  fullName: z.string().nullable().optional(),
  role: z.enum(MEMBER_ROLES),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    invitedBy: z.object({ email: z.string(), fullName: z.string().nullable() }),
    createdAt: z.string(),
    expiresAt: z.string(),
    expired: z.boolean().openapi({ description: "Past its expiry: accepting it does nothing" }),
  })
  .openapi("Invitation");
export type Invitation = z.infer<typeof invitationSchema>;

/** What one kind of a tenant's data takes, and may take. */
const room = (usedExample: number, quotaExample: number) =>
  z.object({ usedBytes: z.number().int().openapi({ example: usedExample }), quotaBytes: z.number().int().openapi({ example: quotaExample }) });

/** What a tenant's media, themes and texts take, and may take (GET /tenants/{tenantId}/storage). */
export const storageSchema = z
  .object({
    media: room(482113, DEFAULT_MEDIA_BYTES_PER_TENANT).openapi({
      description: "The files of all its sites, each file's own size (its resized copies are not counted); MEDIA_BYTES_PER_TENANT",
    }),
    themes: room(2_310_000, DEFAULT_THEME_BYTES_PER_TENANT).openapi({
      description:
        "The uploaded themes of all its sites, unpacked: live ones, a replaced version until the daily cleanup, and one being stored; THEME_BYTES_PER_TENANT",
    }),
    text: room(91540, DEFAULT_TEXT_BYTES_PER_TENANT).openapi({
      description: "Its contents' texts: every saved version's title, intro and body, in UTF-8 bytes; TEXT_BYTES_PER_TENANT",
    }),
  })
  .openapi("Storage");
export type Storage = z.infer<typeof storageSchema>;

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
/** A page of a list, of any item. */
export type Page<T> = Omit<z.infer<ReturnType<typeof page>>, "items"> & { items: T[] };

/** What a menu item may link to (GET …/link-targets): found by words, contents with their status now. */
export const linkTargetsSchema = z
  .object({
    contents: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        language: z.string(),
        status: z.enum(CONTENT_STATUSES),
        publishAt: z.string().nullable(),
      }),
    ),
    categories: z.array(z.object({ id: z.number().int(), name: z.string(), slug: z.string() })),
    tags: z.array(z.object({ name: z.string(), published: z.number().int().openapi({ description: "Published contents with the tag" }) })),
  })
  .openapi("LinkTargets", {
    example: {
      contents: [{ id: 42, title: "Museum night on the harbour", language: "en", status: "published", publishAt: null }],
      categories: [{ id: 3, name: "Harbour", slug: "harbour" }],
      tags: [{ name: "harbour", published: 12 }],
    },
  });
export type LinkTargets = z.infer<typeof linkTargetsSchema>;

export const versionSchema = z.object({ version: z.number().int(), title: z.string(), savedBy: z.number().int().nullable(), savedAt: z.string() });
export type Version = z.infer<typeof versionSchema>;

export const versionTextSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  intro: z.string(),
  bodyMarkdown: z.string(),
  savedBy: z.number().int().nullable(),
  savedAt: z.string(),
});
export type VersionText = z.infer<typeof versionTextSchema>;

export const adDaySchema = z.object({ day: z.string(), impressions: z.number().int(), clicks: z.number().int() });
export type AdDay = z.infer<typeof adDaySchema>;

export const themesSchema = z
  .object({
    active: z.string(),
    previous: z.string().nullable().openapi({ description: "The theme active before the last activation: activating it rolls back" }),
    themes: z.array(z.string()),
  })
  .openapi({ example: { active: "harbour", previous: "default", themes: ["default", "harbour"] } });
export type Themes = z.infer<typeof themesSchema>;

export const auditSchema = rowAnswer(
  createSelectSchema(auditLog).extend({
    who: z
      .object({ email: z.string(), fullName: z.string().nullable() })
      .nullable()
      .openapi({ description: "The member who did it; null for the service itself (a scheduled task)" }),
    content: z
      .object({ id: z.number().int(), title: z.string(), siteId: z.number().int() })
      .nullable()
      .openapi({ description: "The content the entry is about, as it is now; null for other subjects and once it is deleted" }),
  }),
  "AuditEntry",
  {
    id: 981,
    tenantId: 1,
    userId: 1,
    action: "publish",
    subject: "content 42",
    contentId: 42,
    at: "2026-11-26T08:15:00.000Z",
    who: { email: "mara@example.com", fullName: "Mara Lind" },
    content: { id: 42, title: "Museum night on the harbour", siteId: 1 },
  },
);
export type AuditAnswer = z.infer<typeof auditSchema>;
