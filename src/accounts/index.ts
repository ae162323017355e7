import { z } from "zod";
import type { GroupModule } from "../platform/group";
import { database } from "../platform/database";
import { createRouter } from "../platform/openapi";
import { anyUrl, providerUrl } from "../platform/settings";
import { keyUpkeep } from "./keys";
import { accountRoutes } from "./routes";
import { sessionRoutes } from "./session-routes";

/** A · Accounts and keys: browser login, JWT sessions, API keys, users and pickup apps. */
export const accounts: GroupModule = {
  name: "accounts",
  title: "A accounts and keys",
  surfaces: [
    { prefix: "/auth", envelope: "account" },
    { prefix: "/api", envelope: "account" },
  ],
  scopes: ["tokens", "users"],
  access: [
    { prefix: "/api/tokens", credential: "bearer", resource: "tokens" },
    { prefix: "/api/apps", credential: "bearer", resource: "tokens" },
    { prefix: "/api/users", credential: "bearer", resource: "users" },
    { prefix: "/auth/logout", credential: "session" },
    { prefix: "/auth", credential: "public" },
  ],
  mount: "/",
  // Expiries reach the audit log within five minutes; usage past 90 days goes with them.
  tasks: [{ name: "key-upkeep", cron: "*/5 * * * *", run: (env) => keyUpkeep(database(env)) }],
  router: () => createRouter().route("/", sessionRoutes()).route("/", accountRoutes()),
  settings: z.object({
    JWT_SECRET: z.string().min(16, { error: "must be at least 16 characters (openssl rand -base64 32)" }),
    JWT_ISSUER: z.string().min(1),
    JWT_AUDIENCE: z.string().min(1),
    ADMIN_EMAILS: z.string(),
    CASDOOR_ENDPOINT: providerUrl,
    CASDOOR_CLIENT_ID: z.string().min(1),
    CASDOOR_CLIENT_SECRET: z.string().optional(),
    OIDC_DISCOVERY: z.enum(["true", "false"], { error: "must be true or false" }),
    OAUTH_REDIRECT_URL: anyUrl,
    FRONTEND_CALLBACK_URL: anyUrl,
  }),
};
