import { z } from "@hono/zod-openapi";
import { and, eq, lt, sql } from "drizzle-orm";
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { decryptSecret, encryptSecret, sha256Hex } from "./crypto";
import type { Database } from "./database";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { describeFailure } from "./failures";

/**
 * `Idempotency-Key` on the POST writes of groups A, C, D and P: the same key and body within 24 h
 * answers the first answer without doing the work again; the same key with another body is a 422;
 * while the first request runs, a second is a 409. Only successful answers are kept: a refused or
 * failed request did no work, and its retry is decided anew.
 */
export const idempotentRequests = sqliteTable(
  "idempotent_requests",
  {
    /** Whose keys these are: the user, the key or app that called (callers never share keys). */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the method, path, query and body. */
    digest: text("digest").notNull(),
    /** Null while the first request runs. */
    status: integer("status"),
    contentType: text("content_type"),
    /** Sealed with KEY_ENCRYPTION_KEY, as stored secrets are: a kept answer may hold one (a new key's). */
    body: text("body"),
    /** Milliseconds since the epoch; the claim of a request that died is taken over after STALE_MS. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEPT_MS = 24 * 3600 * 1000;
/** A request runs for seconds at most; a claim older than this with no answer is one whose isolate went away. */
const STALE_MS = 2 * 60 * 1000;
/** Answers larger than this are not kept (creates answer a few hundred bytes). */
const KEPT_BODY_BYTES = 64 * 1024;
/** Expired rows deleted a claim at a time, so that the cleanup is bounded too. */
const PURGE_ROWS = 100;

/** What the OpenAPI document shows, and what a request's header must be. */
export const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, "Idempotency-Key must be 1 to 255 visible ASCII characters")
    .optional()
    .openapi({
      description: "Any unique string (a UUID): a retry with the same key and body within 24 h gets the first answer, and the work is done once",
      example: "5f0c6a4e-1d2b-4c59-9b8e-2f7d0a6f3c11",
    }),
});

/** Whose keys: a key, an app or a session of one user never see each other's. */
function scopeOf(c: Context<AppEnv>): string | undefined {
  const principal = c.get("principal");
  if (!principal) return undefined;
  return [`u${principal.userId}`, principal.keyId === null ? "" : `k${principal.keyId}`, principal.credential ?? ""].join(":");
}

async function requestDigest(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const body = c.req.raw.body ? await c.req.text() : "";
  return sha256Hex(`${c.req.method}\n${url.pathname}${url.search}\n${body}`);
}

/** Claims the key for this request: true when it is ours to run (new, expired, or abandoned). */
async function claim(db: Database, scope: string, key: string, digest: string, now: number): Promise<boolean> {
  const t = idempotentRequests;
  const claimed = await db
    .insert(t)
    .values({ scope, key, digest, createdAt: now })
    .onConflictDoUpdate({
      target: [t.scope, t.key],
      set: { digest, status: null, contentType: null, body: null, createdAt: now },
      setWhere: sql`${t.createdAt} < ${now - KEPT_MS} or (${t.status} is null and ${t.createdAt} < ${now - STALE_MS})`,
    })
    .returning({ createdAt: t.createdAt });
  return claimed.length > 0;
}

/**
 * Runs `run` once for a request's `Idempotency-Key` (none: it just runs). A repeat gets the kept
 * answer with `Idempotent-Replayed: true`.
 */
export async function idempotently(c: Context<AppEnv>, run: () => Promise<Response>): Promise<Response> {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  const scope = scopeOf(c);
  if (key === undefined || scope === undefined) return run();
  const type = c.req.header("Content-Type") ?? "";
  // A binary upload is streamed to storage, not held to be compared: its retry has no body to match.
  if (c.req.raw.body && !/^application\/json\b/i.test(type)) {
    throw new ApiError(400, "Idempotency-Key is accepted on JSON requests only; send this upload without it");
  }
  const db = c.get("db");
  const t = idempotentRequests;
  const digest = await requestDigest(c);
  const now = Date.now();
  if (!(await claim(db, scope, key, digest, now))) {
    const [first] = await db
      .select()
      .from(t)
      .where(and(eq(t.scope, scope), eq(t.key, key)));
    // Gone between the two statements (its request failed): this one may run.
    if (!first) return run();
    if (first.digest !== digest) throw new ApiError(422, "This Idempotency-Key was used with another request; use a new key for a new request");
    if (first.status === null) throw new ApiError(409, "A request with this Idempotency-Key is still running; retry after it finishes");
    return new Response(first.body === null ? null : await decryptSecret(first.body, c.env.KEY_ENCRYPTION_KEY), {
      status: first.status,
      headers: { "Content-Type": first.contentType ?? "application/json", "Idempotent-Replayed": "true" },
    });
  }
  const log = (error: unknown, step: string) => c.get("log").error({ idempotency: step, ...describeFailure(error) });
  // A forget that fails leaves the claim to go stale (STALE_MS): the caller's own answer is what matters.
  const forget = () =>
    db
      .delete(t)
      .where(and(eq(t.scope, scope), eq(t.key, key)))
      .then(
        () => undefined,
        (error: unknown) => log(error, "forget"),
      );
  let answer: Response;
  try {
    answer = await run();
  } catch (error) {
    await forget();
    throw error;
  }
  const body = answer.status < 300 ? await answer.clone().text() : undefined;
  if (body === undefined || new TextEncoder().encode(body).length > KEPT_BODY_BYTES) await forget();
  else {
    const sealed = await encryptSecret(body, c.env.KEY_ENCRYPTION_KEY);
    // The work is done: a failure to keep its answer must not tell the caller to do it again. A retry
    // with the key then meets the unfinished claim (409) until it goes stale.
    await db
      .update(t)
      .set({ status: answer.status, contentType: answer.headers.get("Content-Type"), body: sealed })
      .where(and(eq(t.scope, scope), eq(t.key, key)))
      .catch((error: unknown) => log(error, "keep"));
  }
  // Expired keys go a few at a time, on the writes that make new ones.
  c.executionCtx.waitUntil(
    db
      .delete(t)
      .where(sql`rowid in (select rowid from ${t} where ${lt(t.createdAt, now - KEPT_MS)} limit ${PURGE_ROWS})`)
      .then(
        () => undefined,
        (error: unknown) => log(error, "purge"),
      ),
  );
  return answer;
}
