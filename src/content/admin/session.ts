import { z } from "@hono/zod-openapi";
import { currentCsrfToken, endSession, startSession } from "../tenancy/member-session";
import type { AdminRoute } from "./guard";

const csrfSchema = z.object({ csrfToken: z.string().openapi({ description: "Send as X-CSRF-Token with every write that uses the cookie" }) });

/** The console's session: started from a JWT, read after a reload, ended. */
export function sessionRoutes(route: AdminRoute) {
  route({
    method: "post",
    path: "/session",
    summary: "Start a console session: an HttpOnly cookie (SameSite=Lax) from the JWT, and its CSRF token",
    data: csrfSchema,
    answer: "The cookie is set",
    handle: async (c) => ({ csrfToken: await startSession(c) }),
  });
  route({
    method: "get",
    path: "/session",
    summary: "The session's user and CSRF token (after a reload of the console)",
    data: z.object({ userId: z.number().int(), csrfToken: z.string().nullable() }),
    answer: "The session",
    handle: async (c) => ({ userId: c.get("principal").userId, csrfToken: await currentCsrfToken(c) }),
  });
  route({
    method: "delete",
    path: "/session",
    summary: "End the console session: its id is deleted server-side, so the cookie's value is dead everywhere",
    data: z.object({ ended: z.literal(true) }),
    answer: "Ended",
    handle: async (c) => {
      await endSession(c);
      return { ended: true as const };
    },
  });
}
