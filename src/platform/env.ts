import type { Principal } from "./auth/principal";
import type { Database } from "./database";
import type { EnvelopeKind } from "./envelope";
import type { Logger } from "./logging";

/** Bindings declared in wrangler.toml, plus the secrets of .dev.vars / `wrangler secret put`. */
export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  THEMES: R2Bucket;
  /** The static files of public/ (the docs page's scripts and styles). */
  ASSETS: Fetcher;
  /** The purchase-fields service (O13), reached by RPC; see src/reference/purchase-fields.ts. */
  PURCHASE_FIELDS: Fetcher;
  WEBHOOKS: Queue;
  WEBHOOKS_DLQ: Queue;
  PICKUPS: Queue;
  ENVIRONMENT: string;
  BUILD_VERSION: string;
  KEY_ENCRYPTION_KEY: string;
  JWT_SECRET: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  /** Comma-separated: these users become admins when they log in. */
  ADMIN_EMAILS: string;
  CASDOOR_ENDPOINT: string;
  CASDOOR_CLIENT_ID: string;
  CASDOOR_CLIENT_SECRET: string;
  /** "true": read the provider's endpoints from /.well-known/openid-configuration. */
  OIDC_DISCOVERY: string;
  /** This service's /auth/callback, as registered with the provider. */
  OAUTH_REDIRECT_URL: string;
  /** Where A2 sends the browser with token, user_id, username and email. */
  FRONTEND_CALLBACK_URL: string;
  /** Optional JSON overriding the rate limits (see platform/rate-limit.ts). */
  RATE_LIMITS?: string;
  /** A refresh run that would change or retire more than this share of its records is refused (default 0.25). */
  JOB_MAX_CHANGE_SHARE?: string;
  /** Feed URLs of the refresh jobs; each has a public default except where docs/operations.md says. */
  EU_VAT_FEED_URL?: string;
  OECD_CIT_FEED_URL?: string;
  ENCYCLOPEDIA_FEED_URL?: string;
  CHINA_FEED_URL?: string;
  REFERENCE_FEED_URL?: string;
  HS_FEED_URL?: string;
  HS_SECTIONS_FEED_URL?: string;
  UNITS_FEED_URL?: string;
  /** The HTTP carrier's REST API; service codes other than "sandbox" go there. */
  CARRIER_API_URL?: string;
  /** DNS-over-HTTPS resolver used to refuse webhook hosts with private addresses. */
  DOH_RESOLVER_URL?: string;
  /** Workers AI, when bound ([ai] in wrangler.toml): group I's second engine and a translator. */
  AI?: Ai;
  /** "workers-ai" makes Workers AI the default engine of group I (default "embedded"). */
  AI_ENGINE?: string;
  /** How long a Workers AI or translation call may take before it is given up (default 10000 ms). */
  AI_TIMEOUT_MS?: string;
  /** "workers-ai", "libretranslate" or "openai"; unset, the first one configured is used. */
  TRANSLATION_PROVIDER?: string;
  LIBRETRANSLATE_URL?: string;
  LIBRETRANSLATE_API_KEY?: string;
  /** An OpenAI-compatible API: base URL up to /v1, key and chat model. */
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_MODEL?: string;
}

export interface Variables {
  requestId: string;
  /** The request's services, put on the context once by `requestContext`. */
  db: Database;
  log: Logger;
  /** The envelope of the surface the path belongs to. */
  envelope: EnvelopeKind;
  principal: Principal;
  businessParams: Record<string, unknown>;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
