import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PLANS, users } from "../platform/auth/tables";
import { currentTimestamp } from "../platform/columns";
import { VERSION_RECORD_BYTES } from "./admin/text-limits";
import { MEMBER_ROLES } from "./roles";

/** Every table of group C carries `tenant_id`: the service filters on it in one place (tenancy/scope.ts). */

export const tenants = sqliteTable(
  "tenants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    /** The rate-limit plan of its keys: basic (300 a minute) unless set, since a site's readers share it. */
    plan: text("plan", { enum: PLANS }).notNull().default("basic"),
    /** The account that created it: operator-paid budgets (C5–C7) and the tenant cap count against it. */
    ownerId: integer("owner_id").references(() => users.id),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [uniqueIndex("tenants_slug").on(t.slug), index("tenants_owner").on(t.ownerId)],
);

export { MEMBER_ROLES, type MemberRole } from "./roles";

export const tenantMembers = sqliteTable(
  "tenant_members",
  {
    tenantId: integer("tenant_id")
      .notNull()
      .references(() => tenants.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index("tenant_members_user").on(t.userId)],
);

/** An invitation to join a tenant with a role, by email, until it expires: accepted when someone with that (verified) email signs in. */
export const tenantInvitations = sqliteTable(
  "tenant_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** Lower case: an address is matched whatever its case. */
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    invitedBy: integer("invited_by")
      .notNull()
      .references(() => users.id),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [uniqueIndex("tenant_invitations_tenant_email").on(t.tenantId, t.email), index("tenant_invitations_email").on(t.email)],
);

export const sites = sqliteTable(
  "sites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    /** Unique across tenants: `<slug>.localhost` reaches the site in development. */
    slug: text("slug").notNull(),
    defaultLanguage: text("default_language").notNull().default("en"),
    languages: text("languages", { mode: "json" }).$type<string[]>().notNull().default([]),
    timezone: text("timezone").notNull().default("UTC"),
    theme: text("theme").notNull().default("default"),
    /** The theme active before the last activation: the console's roll back. */
    previousTheme: text("previous_theme"),
    seoTitlePattern: text("seo_title_pattern").notNull().default("{title} · {site}"),
    seoDescription: text("seo_description"),
    /** The description in the site's other languages, by code: a page in one of them shows its own, else `seoDescription`. */
    seoDescriptions: text("seo_descriptions", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    seoImage: text("seo_image"),
    /** An image of the site's media served at `/favicon.ico` (null: the theme's, else the built-in icon). */
    favicon: text("favicon"),
    analytics: integer("analytics", { mode: "boolean" }).notNull().default(false),
    /** Bumped by every change to the site's content: part of the edge cache's keys (delivery/cache.ts). */
    contentVersion: integer("content_version").notNull().default(1),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    updatedAt: text("updated_at").notNull().default(currentTimestamp),
  },
  (t) => [uniqueIndex("sites_slug").on(t.slug), index("sites_tenant").on(t.tenantId)],
);

/**
 * The host names of sites, primary domain and aliases alike. A host routes to its site only once
 * the tenant proved it (`verifiedAt`); one verified row per host in the whole service (the
 * partial unique index), so no tenant can take a host another one proved. Pending claims of one
 * host by several sites may coexist: a claim alone never blocks the host's real owner.
 */
export const siteDomains = sqliteTable(
  "site_domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    host: text("host").notNull(),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull().default(false),
    /** The value the DNS TXT record must hold: random, per claim. */
    verificationToken: text("verification_token").notNull(),
    verifiedAt: text("verified_at"),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [
    uniqueIndex("site_domains_site_host").on(t.siteId, t.host),
    uniqueIndex("site_domains_verified_host")
      .on(t.host)
      .where(sql`${t.verifiedAt} IS NOT NULL`),
  ],
);

export const categories = sqliteTable(
  "categories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    parentId: integer("parent_id"),
    name: text("name").notNull(),
    /** The name in the site's other languages, by code: that language's pages show it, else `name`. */
    names: text("names", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    slug: text("slug").notNull(),
    description: text("description"),
    /** The description in the site's other languages, by code, as `names` is the name. */
    descriptions: text("descriptions", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    position: integer("position").notNull().default(0),
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
  },
  (t) => [uniqueIndex("categories_site_slug").on(t.siteId, t.slug), index("categories_tenant").on(t.tenantId)],
);

export const CONTENT_STATUSES = ["draft", "scheduled", "published", "archived"] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

export const contents = sqliteTable(
  "contents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    intro: text("intro").notNull().default(""),
    bodyMarkdown: text("body_markdown").notNull().default(""),
    /** Rendered when saved, without raw HTML (markdown.ts). */
    bodyHtml: text("body_html").notNull().default(""),
    coverImages: text("cover_images"),
    /** What the cover shows, for readers who cannot see it (its alt); null, a cover that only decorates. */
    coverAlt: text("cover_alt"),
    status: text("status", { enum: CONTENT_STATUSES }).notNull().default("draft"),
    /** UTC ISO 8601; a scheduled content is public from then on, no cron needed. */
    publishAt: text("publish_at"),
    authorId: integer("author_id"),
    language: text("language").notNull(),
    /** The content this one translates (the group's first content); null for an original. */
    translationOf: integer("translation_of"),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
    canonical: text("canonical"),
    noindex: integer("noindex", { mode: "boolean" }).notNull().default(false),
    version: integer("version").notNull().default(1),
    /** Set when the content went to the Trash: gone from the site and the lists, restorable until the purge (admin/trash.ts). */
    deletedAt: text("deleted_at"),
    deletedBy: integer("deleted_by"),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    updatedAt: text("updated_at").notNull().default(currentTimestamp),
  },
  (t) => [
    uniqueIndex("contents_site_language_slug").on(t.siteId, t.language, t.slug),
    index("contents_trash")
      .on(t.tenantId, t.deletedAt)
      .where(sql`${t.deletedAt} IS NOT NULL`),
    index("contents_site_status_publish").on(t.siteId, t.status, t.publishAt),
    index("contents_tenant").on(t.tenantId),
  ],
);

export const contentCategories = sqliteTable(
  "content_categories",
  {
    tenantId: integer("tenant_id").notNull(),
    contentId: integer("content_id")
      .notNull()
      .references(() => contents.id),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.categoryId] }), index("content_categories_category").on(t.categoryId)],
);

/** Each save of a content, restorable. */
export const contentVersions = sqliteTable(
  "content_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    contentId: integer("content_id")
      .notNull()
      .references(() => contents.id),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    intro: text("intro").notNull(),
    bodyMarkdown: text("body_markdown").notNull(),
    savedBy: integer("saved_by"),
    savedAt: text("saved_at").notNull().default(currentTimestamp),
    /** What the version takes of the tenant's room (TEXT_BYTES_PER_TENANT): its text in UTF-8 bytes, and its record's. */
    textBytes: integer("text_bytes").generatedAlwaysAs(
      sql`${sql.raw(String(VERSION_RECORD_BYTES))} + length(CAST(title AS BLOB)) + length(CAST(intro AS BLOB)) + length(CAST(body_markdown AS BLOB))`,
      { mode: "virtual" },
    ),
  },
  // The tenant's text is the sum of its versions' bytes: read from the index alone.
  (t) => [
    uniqueIndex("content_versions_content_version").on(t.contentId, t.version),
    index("content_versions_tenant_bytes").on(t.tenantId, t.textBytes),
  ],
);

/** What a tenant keeps that has a bound: its texts' bytes, its sites, its themes' bytes, and its rows of the kinds each site lists whole. */
export const ROOM_KINDS = ["text", "sites", "themes", "categories", "tags", "ads", "redirects", "keys"] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

/**
 * A tenant's use of one kind of room against its bound, as the last write measured it: a batch
 * that adds to it ends by writing this row, and its check (one a kind, `within_<kind>_room`, so
 * that a refusal names its kind) fails the whole batch past the bound.
 */
export const tenantRooms = sqliteTable(
  "tenant_rooms",
  {
    tenantId: integer("tenant_id").notNull(),
    kind: text("kind", { enum: ROOM_KINDS }).notNull(),
    used: integer("used").notNull(),
    room: integer("room").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.kind] }),
    ...ROOM_KINDS.map((kind) => check(`within_${kind}_room`, sql`${t.kind} <> ${sql.raw(`'${kind}'`)} OR ${t.used} <= ${t.room}`)),
  ],
);

export const CONTENT_TAG_TYPES = ["menu", "taxonomy", "posts"] as const;
export type ContentTagType = (typeof CONTENT_TAG_TYPES)[number];

/** Named data for templates: a menu's items, a taxonomy's members, a posts query (schemas.ts says each shape). */
export const contentTags = sqliteTable(
  "content_tags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    type: text("type", { enum: CONTENT_TAG_TYPES }).notNull(),
    name: text("name").notNull(),
    definition: text("definition", { mode: "json" }).$type<unknown>().notNull(),
  },
  // By tenant too: a write counts the tenant's rows (tenancy/rooms.ts).
  (t) => [uniqueIndex("content_tags_site_name").on(t.siteId, t.name), index("content_tags_tenant").on(t.tenantId)],
);

/**
 * The console's sessions: the cookie holds a random id, this row its SHA-256. Logout deletes the
 * row; expiry and the user's deactivation end it too (tenancy/member-session.ts).
 */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [index("console_sessions_user").on(t.userId)],
);

/** `svc_tk_` keys: SHA-256 only, bound to a tenant and, when `siteIds` is set, to some of its sites. */
export const tenantKeys = sqliteTable(
  "tenant_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    maskedToken: text("masked_token").notNull(),
    siteIds: text("site_ids", { mode: "json" }).$type<number[] | null>(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull().default([]),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdBy: integer("created_by").notNull(),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [uniqueIndex("tenant_keys_token_hash").on(t.tokenHash), index("tenant_keys_tenant").on(t.tenantId)],
);

/** Who published, unpublished or deleted what, and when. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    userId: integer("user_id").notNull(),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    /** The content the entry is about, for a link to it (none once it is deleted, or for other subjects). */
    contentId: integer("content_id"),
    at: text("at").notNull().default(currentTimestamp),
  },
  (t) => [index("audit_log_tenant_at").on(t.tenantId, t.at)],
);

/** Images and files of a site, stored in R2 under a random key; the row says what they are. */
export const media = sqliteTable(
  "media",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    key: text("key").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /** An image's pixels, read from its header at upload (null for a PDF, and for uploads made before November 2026). */
    width: integer("width"),
    height: integer("height"),
    /** The widths of the resized copies stored beside it (`<key>-<width>w.webp`), for `srcset`. */
    variantWidths: text("variant_widths", { mode: "json" }).$type<number[]>().notNull().default([]),
    /** What an image shows, in words (its alt): what its Markdown and a cover taken from it start with; null, none written yet. */
    altText: text("alt_text"),
    uploadedBy: integer("uploaded_by").notNull(),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  // The tenant's storage is the sum of its files' sizes (MEDIA_BYTES_PER_TENANT): read from the index alone.
  (t) => [uniqueIndex("media_key").on(t.key), index("media_site").on(t.siteId), index("media_tenant_size").on(t.tenantId, t.size)],
);

/**
 * Each upload of a theme, its files under `themes/<site>/<name>/versions/<version>/`: written before
 * the first file is stored, made live in one write once the last one is (the site serves the live
 * version of each name), removed with its files by the storage cleanup once not live for an hour.
 */
export const themeVersions = sqliteTable(
  "theme_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    name: text("name").notNull(),
    version: text("version").notNull(),
    live: integer("live", { mode: "boolean" }).notNull().default(false),
    /** Its files unpacked, what it takes of the tenant's room for themes until they are removed (0 once its theme is deleted). */
    bytes: integer("bytes").notNull().default(0),
    /** When its upload began, or it was made live or superseded: what the cleanup's hour counts from. */
    updatedAt: text("updated_at").notNull().default(currentTimestamp),
  },
  (t) => [uniqueIndex("theme_versions_version").on(t.siteId, t.name, t.version), index("theme_versions_stale").on(t.live, t.updatedAt)],
);

/**
 * A media object put to R2 whose row is not written yet: its row is written in the same batch that
 * removes this one, so one left behind (a crash between the two) names an orphan for the cleanup.
 */
export const mediaUploads = sqliteTable(
  "media_uploads",
  {
    key: text("key").primaryKey(),
    createdAt: text("created_at").notNull().default(currentTimestamp),
  },
  (t) => [index("media_uploads_created").on(t.createdAt)],
);

export const redirects = sqliteTable(
  "redirects",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    fromPath: text("from_path").notNull(),
    toUrl: text("to_url").notNull(),
    status: integer("status").notNull().default(301),
  },
  // By tenant too: a write counts the tenant's rows (tenancy/rooms.ts).
  (t) => [uniqueIndex("redirects_site_from").on(t.siteId, t.fromPath), index("redirects_tenant").on(t.tenantId)],
);

export const AD_KINDS = ["image", "html"] as const;

/** An ad in a slot of a site: an image from the media with a link, or an HTML snippet shown in a sandboxed iframe. */
export const ads = sqliteTable(
  "ads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: integer("tenant_id").notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    slot: text("slot").notNull(),
    kind: text("kind", { enum: AD_KINDS }).notNull(),
    mediaId: integer("media_id"),
    link: text("link"),
    html: text("html"),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at"),
    weight: integer("weight").notNull().default(1),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    /** The pages it shows on: those in this language; null, every language's. */
    language: text("language"),
    /** What an image ad's picture says, for readers who cannot see it (its alt); null, the theme's word for an ad. */
    altText: text("alt_text"),
    /** The editors' own name for it ("Winter sale"), in the console and its counts; readers never see it. */
    name: text("name"),
  },
  // By tenant too: a write counts the tenant's rows (tenancy/rooms.ts).
  (t) => [index("ads_site_slot").on(t.siteId, t.slot), index("ads_tenant").on(t.tenantId)],
);

/** Impressions and clicks of an ad, a row a day (UTC). */
export const adStats = sqliteTable(
  "ad_stats",
  {
    tenantId: integer("tenant_id").notNull(),
    adId: integer("ad_id")
      .notNull()
      .references(() => ads.id),
    day: text("day").notNull(),
    impressions: integer("impressions").notNull().default(0),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.adId, t.day] })],
);

export type Tenant = typeof tenants.$inferSelect;
export type Site = typeof sites.$inferSelect;
export type SiteDomain = typeof siteDomains.$inferSelect;

/** A host name of a site as the admin API shows it (tenancy/domains.ts). */
export interface DomainView {
  host: string;
  primary: boolean;
  verified: boolean;
  /** The DNS record that proves the claim; null once proved. */
  verification: { type: "TXT"; name: string; value: string } | null;
}

/** A site as the admin API shows it: its claimed primary domain and aliases, and each claim's state. */
export type SiteView = Site & { primaryDomain: string | null; aliases: string[]; domains: DomainView[] };
export type Category = typeof categories.$inferSelect;
export type Content = typeof contents.$inferSelect;
export type ContentTag = typeof contentTags.$inferSelect;
export type TenantKey = typeof tenantKeys.$inferSelect;
export type Media = typeof media.$inferSelect;
export type Redirect = typeof redirects.$inferSelect;
export type Ad = typeof ads.$inferSelect;
