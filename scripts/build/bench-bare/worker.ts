import { Hono } from "hono";

/** The most the bench hands over as the page: a site's home page is some 10 KB. */
const MAX_PAGE_BYTES = 256 * 1024;

/** The page the site rows are measured beside, as the bench handed it over (this isolate's memory). */
let page: string | undefined;

/**
 * The bench's yardstick: a bare Hono JSON route on the same runtime, nothing else; and for the
 * site's pages a bare route answering the same HTML bytes, since `wrangler dev` runs every HTML
 * answer through an HTMLRewriter of its own (docs/benchmarks.md).
 */
const app = new Hono();
app.get("/", (c) => c.json({ status: "ok" }));
app.put("/page", async (c) => {
  const html = await c.req.text();
  if (html.length > MAX_PAGE_BYTES) return c.text("too large", 413);
  page = html;
  return c.body(null, 204);
});
app.get("/page", (c) => (page === undefined ? c.text("no page handed over yet", 404) : c.html(page)));

export default app;
