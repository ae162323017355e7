import { createRouter } from "../../platform/openapi";
import { tenantRoutes } from "../../platform/route";
import { adRoutes } from "./ads";
import { auditRoutes } from "./audit";
import { categoryRoutes } from "./categories";
import { contentRoutes } from "./contents";
import { keyRoutes } from "./keys";
import { mediaLibraryRoutes } from "./media";
import { memberRoutes } from "./members";
import { redirectRoutes } from "./redirects";
import { sessionRoutes } from "./session";
import { siteRoutes } from "./sites";
import { tagRoutes } from "./tags";
import { tenantListRoutes } from "./tenants";
import { themeRoutes } from "./themes";
import { trashRoutes } from "./trash";
import { CONTENT_ERROR_TEXTS } from "../error-texts";

export const ADMIN_BASE_PATH = "/admin/api";

/** The admin API the console uses: tenant members with a session, each action checked against the member's role. */
export function adminRoutes() {
  const r = createRouter();
  const route = tenantRoutes(r, {
    tags: ["C · Content admin"],
    idempotentWrites: true,
    security: [{ Bearer: [] }, { ConsoleSession: [] }],
    errors: [400, 401, 403, 404, 415, 429],
    errorTexts: CONTENT_ERROR_TEXTS,
  });
  // Members' data and CSRF tokens: no browser or proxy keeps a copy.
  r.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });
  // In the document's order: each resource's routes together.
  for (const register of [
    sessionRoutes,
    tenantListRoutes,
    memberRoutes,
    siteRoutes,
    categoryRoutes,
    contentRoutes,
    trashRoutes,
    tagRoutes,
    keyRoutes,
    mediaLibraryRoutes,
    redirectRoutes,
    adRoutes,
    themeRoutes,
    auditRoutes,
  ])
    register(route);
  return r;
}
