import { z } from "@hono/zod-openapi";

export const MAX_PAGE_SIZE = 100;

/** The last page a caller may ask for: far past any list here, and no deeper scan than that. */
const MOST_PAGES = 100_000;

/** Zero-based paging of style G: `page` from 0, `size` 1 to 100, default `defaultSize`. */
export const zeroBasedPaging = (defaultSize: number) =>
  z.object({
    page: z.coerce
      .number({ error: "page must be an integer" })
      .min(0, { error: "page must be 0 or greater" })
      .max(MOST_PAGES, { error: `page must be at most ${MOST_PAGES}` })
      .int({ error: "page must be an integer" })
      .default(0)
      .openapi({ param: { name: "page", in: "query" }, example: 0, description: "Page index, from 0" }),
    size: z.coerce
      .number({ error: "size must be an integer" })
      .min(1, { error: "size must be at least 1" })
      .max(MAX_PAGE_SIZE, { error: `size must be at most ${MAX_PAGE_SIZE}` })
      .int({ error: "size must be an integer" })
      .default(defaultSize)
      .openapi({
        param: { name: "size", in: "query" },
        example: defaultSize,
        description: `Page size, 1 to ${MAX_PAGE_SIZE} (${defaultSize} by default)`,
      }),
  });

export const zeroBasedPageQuery = zeroBasedPaging(20);

export function pageObjectSchema<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  });
}

export function pageObject<T>(content: T[], totalElements: number, page: number, size: number) {
  return { content, totalElements, totalPages: Math.ceil(totalElements / size), number: page, size };
}
