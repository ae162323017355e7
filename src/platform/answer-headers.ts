import type { Context } from "hono";

/**
 * Writes headers on an answer after its handler ran. Hono's `c.header` copies the whole Response
 * at each call once one exists, since it cannot tell whether its headers may change: three to six
 * copies a request, an eighth of a cached page's isolate time in a CPU profile. An answer made in this Worker can change its
 * headers in place; one whose headers are immutable (fetched: a static asset, a Cache API match)
 * is copied once by the first write.
 */
export function setAnswerHeaders(c: Context, headers: [name: string, value: string][]): void {
  const [first, ...rest] = headers;
  if (!first) return;
  let target = c.res.headers;
  try {
    target.set(...first);
  } catch {
    c.header(...first);
    target = c.res.headers;
  }
  for (const header of rest) target.set(...header);
}
