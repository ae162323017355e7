import { z } from "@hono/zod-openapi";

/**
 * A page of a site by its path, as a link may give it (`/our-new-croissants`): not `//host` or
 * `/\host`, which a browser reads as another host's address. A regular expression's source.
 */
export const SITE_PATH = String.raw`\/(?![/\\])\S*`;

/** A query or path integer: digits only, within bounds. */
export const queryInteger = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be an integer` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `${name} must be from ${min} to ${max}` })
    .openapi({ type: "integer", minimum: min, maximum: max });

export const siteIdQuery = z.strictObject({
  siteId: queryInteger("siteId", 1, 1e12).openapi({ param: { name: "siteId", in: "query" }, example: "1" }),
});

export const languageCode = z
  .string()
  .regex(/^[a-z]{2}(-[A-Z]{2})?$/, { error: "language must be an ISO 639-1 code, optionally with a region: en, pt-BR" });

/** The longest free tag, in UTF-16 units as zod and JS count: what an editor may give, and so what a reader may ask for. */
export const MAX_TAG_LENGTH = 60;

export const contentListQuery = z.strictObject({
  siteId: queryInteger("siteId", 1, 1e12),
  categoryId: queryInteger("categoryId", 1, 1e12).optional().openapi({ description: "A category; its descendants' contents are included" }),
  tag: z
    .string()
    .min(1)
    .max(MAX_TAG_LENGTH, { error: `tag must be at most ${MAX_TAG_LENGTH} characters` })
    .optional()
    .openapi({ description: "A free tag, in any case and with a dash for a space as its page's address writes it (night-life: Night Life)" }),
  language: languageCode.optional(),
  q: z
    .string()
    .max(200, { error: "q must be at most 200 characters" })
    .regex(/[\p{L}\p{N}]/u, { error: "q must contain a letter or digit" })
    .optional()
    .openapi({
      description: "Words to find in the title, intro or body; a word of three letters or more also finds the words it begins (markt: Markthalle)",
    }),
  page: queryInteger("page", 1, 100_000).optional().openapi({ description: "From 1 (default 1)" }),
  size: queryInteger("size", 1, 100).optional().openapi({ description: "1 to 100 (default 20)" }),
});
