import type { Principal } from "./auth/principal";

/** Bindings declared in wrangler.toml, plus the secrets of .dev.vars / `wrangler secret put`. */
export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  THEMES: R2Bucket;
  WEBHOOKS: Queue;
  ENVIRONMENT: string;
  JWT_ISSUER: string;
  BUILD_VERSION: string;
  KEY_ENCRYPTION_KEY: string;
  JWT_SECRET: string;
}

export interface Variables {
  requestId: string;
  principal: Principal;
  businessParams: Record<string, unknown>;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
