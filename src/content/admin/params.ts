import { z } from "@hono/zod-openapi";
import { CONTENT_STATUSES, MEMBER_ROLES } from "../schema";
import { languageCode, MAX_TAG_LENGTH, queryInteger, SITE_PATH } from "../params";
import { adHtmlProblems } from "../sites/ad-html";
import { tagKey } from "../tag-spellings";
import { englishName, languageInEnglish } from "../sites/languages";

const slug = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: "The slug must be lower-case letters and digits joined by single dashes, like museum-night" })
  .max(80);
const name = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });
/** "German (de)": the language of a per-language text's refusal, its code last in the issue's path. */
const languageOf = (issue: { path?: PropertyKey[] }) => languageInEnglish(String(issue.path?.at(-1) ?? ""));
/** A text in each other language of the site, by code; the service checks the codes against the site's languages. */
const perLanguage = (what: string, max: number) =>
  z
    .record(
      languageCode,
      z
        .string()
        .trim()
        .min(1, { error: (issue) => `The ${what} in ${languageOf(issue)} must not be empty` })
        .max(max, { error: (issue) => `The ${what} in ${languageOf(issue)} must be at most ${max} characters` }),
    )
    .refine((texts) => Object.keys(texts).length <= 20, { error: "at most 20 languages" });
const domain = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: "must be a lower-case host name, e.g. news.example.com" });
/** An address a page links to: http(s), or a path of the site; never `javascript:`, `data:` or `//host`. */
const linkOrPath = z
  .string()
  .max(500, { error: "must be at most 500 characters" })
  .regex(new RegExp(`^(https?://\\S+|${SITE_PATH})$`, "i"), { error: "must be an http(s) URL or a path of the site starting with /" });
const isoInstant = z.iso.datetime({ error: "must be an ISO 8601 UTC timestamp, e.g. 2026-12-01T09:00:00Z" });

export const tenantCreate = z.strictObject({ name: name(100), slug });

export const memberAdd = z.strictObject({
  email: z.email({ error: "must be the email of a user who has logged in once" }),
  role: z.enum(MEMBER_ROLES, { error: `role must be one of ${MEMBER_ROLES.join(", ")}` }),
});

/** A language of a site: a code Intl knows (so that dates and the switcher can name it), not only one shaped like a code. */
const siteLanguage = languageCode.refine((code) => englishName(code) !== undefined, {
  error: (issue) => `${String(issue.input)} is not a language code we know: use one such as en, de, fr or pt-BR`,
});
/** An IANA time zone, as Intl knows them: dates on the site are written in it. */
const timeZone = z
  .string()
  .max(60)
  .refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { error: (issue) => `${String(issue.input)} is not a time zone we know: choose one such as Europe/Berlin or America/New_York` },
  );

export const memberInvite = z.strictObject({
  email: z.email({ error: "must be an email address, such as name@example.com" }).max(254, { error: "must be at most 254 characters" }),
  role: z.enum(MEMBER_ROLES, { error: `role must be one of ${MEMBER_ROLES.join(", ")}` }),
});

/** A member's own name: what bylines show; an email address is not a name, and is never shown as one. */
export const memberRename = z.strictObject({
  fullName: name(100).refine((given) => !given.includes("@"), { error: "must be a name, not an email address: bylines never show one" }),
});

export const siteCreate = z.strictObject({
  name: name(100),
  slug,
  defaultLanguage: siteLanguage.optional(),
  languages: z
    .array(siteLanguage)
    .min(1, { error: "a site needs at least one language" })
    .max(20, { error: "at most 20 languages" })
    .refine((codes) => new Set(codes).size === codes.length, { error: "each language only once" })
    .optional(),
  timezone: timeZone.optional(),
  theme: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, { error: "theme must be a theme's folder name" })
    .optional(),
  seoTitlePattern: z
    .string()
    .max(120, { error: "must be at most 120 characters" })
    .refine((pattern) => pattern.includes("{title}"), { error: "must contain {title}, where each page's own title goes, e.g. {title} · {site}" })
    .optional(),
  seoDescription: z.string().max(300, { error: "must be at most 300 characters" }).nullable().optional(),
  /** The description in each other language of the site (replaces the whole set; {} removes them). */
  seoDescriptions: perLanguage("description", 300).optional(),
  seoImage: linkOrPath.nullable().optional(),
  favicon: z
    .string()
    .max(200)
    .regex(/^\/media\//, { error: "must be an image of the site's Media (an address starting with /media/)" })
    .nullable()
    .optional(),
  analytics: z.boolean().optional(),
  /** Only at creation: a site of the tenant whose active theme the new site starts with, so that its pages show at once. */
  copyThemeFrom: z.number().int().positive().optional(),
});
/** Host names are claimed by a change, not at creation: each waits for its DNS proof (tenancy/domains.ts). */
export const siteUpdate = siteCreate
  .omit({ copyThemeFrom: true })
  .partial()
  .extend({
    primaryDomain: domain.nullable().optional(),
    aliases: z.array(domain).max(20, { error: "A site has at most 20 aliases" }).optional(),
  })
  // A change of two fields: an example with every field would rename the site and claim domains for whoever pastes it.
  .openapi({ example: { name: "Demo City Magazine", seoDescription: "News, culture and sport from Demo City" } });
export const domainVerify = z.strictObject({ host: domain });

export const categoryCreate = z.strictObject({
  siteId: z.number().int().positive(),
  parentId: z.number().int().positive().nullable().optional(),
  name: name(100),
  /** The name in each other language of the site (replaces the whole set; {} removes them). */
  names: perLanguage("name", 100).optional(),
  slug,
  description: z.string().max(500).nullable().optional(),
  /** The description in each other language of the site, as `names`. */
  descriptions: perLanguage("description", 500).optional(),
  position: z.number().int().min(0).max(10_000).optional(),
  seoTitle: z.string().max(120).nullable().optional(),
  seoDescription: z.string().max(300).nullable().optional(),
});
export const categoryUpdate = categoryCreate.omit({ siteId: true }).partial();
/** The new order of one parent's subcategories (null: the top level), each named once. */
export const categoryOrder = z
  .strictObject({
    parentId: z.number().int().positive().nullable(),
    ids: z.array(z.number().int().positive()).min(1).max(500),
  })
  // The demo's top level in `npm run dev` (City 1, Culture 2, Sport 3), Sport first: a pasted example that the demo takes.
  .openapi({ example: { parentId: null, ids: [3, 1, 2] } });

/** A body is bounded before it is rendered: 200,000 characters of Markdown. */
export const MAX_BODY_CHARACTERS = 200_000;

/**
 * A content's free tags as an editor types them: spaces trimmed and collapsed, and each tag once,
 * whatever its case or a dash for a space (the first spelling kept), so that `festival, Festival `
 * is one tag, one page, and so is `night life, Night-Life`.
 */
const contentTags = z
  .array(z.string().max(MAX_TAG_LENGTH))
  .max(30)
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.map((tag) => tag.trim().replace(/\s+/g, " ")).filter((tag) => tag !== "" && !seen.has(tagKey(tag)) && seen.add(tagKey(tag)));
  });

export const contentCreate = z.strictObject({
  siteId: z.number().int().positive(),
  title: name(200),
  slug,
  intro: z.string().max(1000).optional(),
  bodyMarkdown: z
    .string()
    .max(MAX_BODY_CHARACTERS, { error: `must be at most ${MAX_BODY_CHARACTERS} characters` })
    .optional(),
  coverImages: linkOrPath.nullable().optional(),
  coverAlt: z.string().max(300, { error: "The cover's description must be at most 300 characters" }).nullable().optional().openapi({
    description: "What the cover shows, for readers who cannot see it (its alt); null or empty: the cover only decorates",
    example: "Lanterns along the harbour gallery at dusk",
  }),
  language: languageCode,
  translationOf: z.number().int().positive().nullable().optional(),
  categoryIds: z.array(z.number().int().positive()).max(20).optional(),
  tags: contentTags.optional(),
  seoTitle: z.string().max(120).nullable().optional(),
  seoDescription: z.string().max(300).nullable().optional(),
  canonical: linkOrPath.nullable().optional(),
  noindex: z.boolean().optional(),
});
export const contentUpdate = contentCreate
  .omit({ siteId: true })
  .partial()
  // A change of two fields, not a new slug and language for whatever content the example names.
  .openapi({ example: { title: "Museum night at the harbour gallery", intro: "Guided tours every hour until midnight." } });

/** Publish now, or at `publishAt` (scheduled). */
export const publishRequest = z.strictObject({ publishAt: isoInstant.optional() });

export const contentListQuery = z.strictObject({
  siteId: queryInteger("siteId", 1, 1e12).optional(),
  status: z.enum(CONTENT_STATUSES, { error: `status must be one of ${CONTENT_STATUSES.join(", ")}` }).optional(),
  /** A content's language versions, asked from any of them: the original and those that translate it. */
  translationsOf: queryInteger("translationsOf", 1, 1e12).optional(),
  /** The contents filed under a category (not under its subcategories): what holds a category the console cannot delete. */
  categoryId: queryInteger("categoryId", 1, 1e12).optional(),
  /** Words its title holds, in any case (the console's search of the list). */
  q: z.string().trim().min(1, { error: "q must not be empty" }).max(100, { error: "q must be at most 100 characters" }).optional(),
  page: queryInteger("page", 1, 100_000).optional(),
  size: queryInteger("size", 1, 100).optional(),
});
/** The Trash, paged like the contents. */
export const trashListQuery = contentListQuery.omit({ status: true, translationsOf: true, categoryId: true, q: true });

const menuLink = z.union([
  // An item whose target is not chosen yet (the console's picker left empty) is named as such.
  z.strictObject({ category: z.number().int().positive({ error: "Choose the category this item leads to" }) }),
  z.strictObject({ content: z.number().int().positive({ error: "Choose the content this item leads to" }) }),
  z.strictObject({ tag: z.string().min(1, { error: "Choose the tag this item leads to" }).max(MAX_TAG_LENGTH) }),
  z.strictObject({
    url: z
      .string()
      .regex(/^(https?:\/\/|\/)/, { error: "The address must start with http://, https:// or /" })
      .max(500),
  }),
]);
/** Menus nest three levels at most: written out, so the bound is in the schema and the document. */
const menuLeaf = z.strictObject({ label: name(80), link: menuLink });
const menuBranch = menuLeaf.extend({ children: z.array(menuLeaf).max(50).optional() });
const menuItem = menuLeaf.extend({ children: z.array(menuBranch).max(50).optional() });

/** A menu's name: a slug, with `.<language>` for that language's version of the menu (`main.de`: German pages' `menus.main`). */
const menuName = z
  .string()
  .max(90)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z]{2}(-[A-Z]{2})?)?$/, {
    error: "A menu's name is lower-case words joined by dashes, with .<language> for that language's menu: main, main.de",
  });

/** Words to find in the titles of a menu's link targets. */
export const linkTargetQuery = z.strictObject({
  q: z.string().max(100, { error: "Search with at most 100 characters" }).optional().openapi({ description: "Words in a title or name" }),
});

/** The three content tag types of the interface, each with its own definition. */
export const contentTagWrite = z.discriminatedUnion("type", [
  z.strictObject({
    siteId: z.number().int().positive(),
    type: z.literal("menu"),
    name: menuName,
    definition: z.strictObject({ items: z.array(menuItem).max(50) }),
  }),
  z.strictObject({
    siteId: z.number().int().positive(),
    type: z.literal("taxonomy"),
    name: slug,
    definition: z.strictObject({
      categories: z.array(z.number().int().positive()).max(100).optional(),
      tags: z.array(z.string().min(1).max(MAX_TAG_LENGTH)).max(100).optional(),
    }),
  }),
  z.strictObject({
    siteId: z.number().int().positive(),
    type: z.literal("posts"),
    name: slug,
    definition: z.strictObject({
      categories: z.array(z.number().int().positive()).max(20).optional(),
      tags: z.array(z.string().min(1).max(MAX_TAG_LENGTH)).max(20).optional(),
      order: z.enum(["newest", "oldest", "title"]).default("newest"),
      limit: z.number().int().min(1).max(100).default(10),
    }),
  }),
]);

export const keyCreate = z.strictObject({
  name: name(100),
  siteIds: z.array(z.number().int().positive()).min(1).max(100).nullable().optional(),
  scopes: z
    .array(z.enum(["content:read", "content:write", "content:*"], { error: "scopes are content:read, content:write or content:*" }))
    .max(3)
    .optional(),
});

export const redirectWrite = z.strictObject({
  siteId: z.number().int().positive(),
  fromPath: z.string().regex(/^\/[^\s?#]{0,500}$/, { error: "The path must start with / and hold no spaces, ? or #" }),
  toUrl: z
    .string()
    // Not `//host` or `/\host`: browsers read both as another site's address.
    .regex(/^(https?:\/\/[^\s]+|\/(?![/\\])[^\s]*)$/, { error: "The destination must be an http(s) address or a path starting with one /" })
    .max(1000),
  status: z.union([z.literal(301), z.literal(302)], { error: "The status must be 301 or 302" }).default(301),
});

/**
 * An HTML ad's snippet, checked as it will be drawn (sites/ad-html.ts): no scripts, frames, forms
 * or event handlers, links to whole http(s) addresses, at most 20 of them. Its frame cleans it again.
 * The request's validation runs it (in the Worker: HTMLRewriter), not the service, which seeds call from Node.
 */
const adHtml = z
  .string()
  .max(20_000, { error: "html must be at most 20000 characters" })
  .superRefine(async (html, ctx) => {
    for (const problem of await adHtmlProblems(html)) ctx.addIssue({ code: "custom", message: problem });
  });

const adFields = {
  slot: z.string().regex(/^[a-z0-9-]{1,40}$/, { error: "slot must be a slot code: lower-case letters, digits, dashes" }),
  mediaId: z.number().int().positive().nullable().optional(),
  /** An image ad's click leads there: another site's address, or a page of this site (`/our-new-croissants`). */
  link: linkOrPath.nullable().optional(),
  /** Shown in a sandboxed iframe on the site, never inline. */
  html: adHtml.nullable().optional(),
  startsAt: isoInstant,
  endsAt: isoInstant.nullable().optional(),
  weight: z.number().int().min(1).max(1000).optional(),
  isActive: z.boolean().optional(),
  language: languageCode
    .nullable()
    .optional()
    .openapi({ description: "Shown on the site's pages in this language only; null (the default) on every language's" }),
  altText: z
    .string()
    .max(300, { error: "altText must be at most 300 characters" })
    .nullable()
    .optional()
    .openapi({ description: "An image ad's picture in words, for readers who cannot see it (its alt); null or empty: the theme's word for an ad" }),
  name: z
    .string()
    .trim()
    .max(100, { error: "name must be at most 100 characters" })
    .nullable()
    .optional()
    .openapi({ description: 'The editors\' name for the ad ("Winter sale"), in the console and its counts; readers never see it' }),
};

export const adCreate = z.discriminatedUnion("kind", [
  z.strictObject({
    siteId: z.number().int().positive(),
    kind: z.literal("image"),
    ...adFields,
    mediaId: z.number().int().positive({ error: "mediaId: an image ad needs its image" }),
  }),
  z.strictObject({
    siteId: z.number().int().positive(),
    kind: z.literal("html"),
    ...adFields,
    html: adHtml.min(1, { error: "html: an HTML ad needs its snippet" }),
  }),
]);
export const adUpdate = z.strictObject({
  kind: z.enum(["image", "html"]).optional(),
  ...adFields,
  slot: adFields.slot.optional(),
  startsAt: isoInstant.optional(),
});
