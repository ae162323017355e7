import { Hono } from "hono";
import type { AppEnv } from "../../platform/env";
import { notConfigured } from "../../platform/errors";
import { ADMIN_BASE_PATH } from "./routes";

export const CONSOLE_PATH = "/admin";

/**
 * The admin console: a single-page app (console/, built by Vite into public/admin) over the admin
 * API. Every path under /admin but the API's is the app's page, so a reload or a shared link
 * opens the screen it names; its scripts and styles come from the Worker's static assets.
 */
export function consoleRoutes() {
  const router = new Hono<AppEnv>();
  // Vite names each file by a hash of its content, so a name never changes its bytes: browsers keep it for good.
  router.get("/assets/*", async (c) => {
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    if (asset.status !== 200) return asset;
    const kept = new Response(asset.body, asset);
    kept.headers.set("Cache-Control", "public, max-age=31536000, immutable");
    return kept;
  });
  router.get("/*", async (c, next) => {
    // The API's paths are not the page: a GET mounted after this one (group D's /admin/api/deposits) answers them, or none does (404).
    if (c.req.path.startsWith(`${ADMIN_BASE_PATH}/`) || c.req.path === ADMIN_BASE_PATH) return next();
    const shell = await c.env.ASSETS.fetch(new URL(`${CONSOLE_PATH}/`, c.req.url));
    if (!shell.ok) throw notConfigured("The console is not built: npm run build:console");
    return new Response(shell.body, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } });
  });
  return router;
}
