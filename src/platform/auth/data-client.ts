import type { Context } from "hono";
import { readBizContent } from "../biz-content";
import { constantTimeEqual, decryptSecret } from "../crypto";
import { database } from "../database";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { clientAddress } from "../ip-ranges";
import { consumeRateLimit, type RateWindow } from "../rate-limit";
import { API_KEY_PREFIX, assertUsableKey, findKeyByToken, keyPrincipal, keySecret } from "./api-keys";
import type { Principal } from "./principal";
import { NONCE_TTL_SECONDS, SIGNATURE_WINDOW_MS, type SignedParam, signatureMatches, signedValue, signingString, signingStringV2 } from "./signature";

const unauthorized = (message: string) => new ApiError(401, message);

/** Failed secrets and signatures a minute, per key and per client address, before 429. */
export const AUTH_FAILURES_PER_KEY = 10;
export const AUTH_FAILURES_PER_ADDRESS = 30;

interface FailureLimit {
  subject: string;
  windows: RateWindow[];
}

const perMinute = (subject: string, limit: number): FailureLimit => ({ subject, windows: [{ name: "minute", seconds: 60, limit }] });

/** Without a client address (local development, tests) only the key is counted. */
function addressLimit(c: Context<AppEnv>): FailureLimit[] {
  const address = clientAddress(c.req.header("CF-Connecting-IP"));
  return address === undefined ? [] : [perMinute(`authfail:ip:${address}`, AUTH_FAILURES_PER_ADDRESS)];
}

const keyLimit = (keyId: number): FailureLimit[] => [perMinute(`authfail:key:${keyId}`, AUTH_FAILURES_PER_KEY)];

/** Refuses, before any secret is compared, a key or an address that failed too often this minute. */
async function refuseWhileThrottled(c: Context<AppEnv>, limits: FailureLimit[]) {
  for (const { subject, windows } of limits) {
    const state = await consumeRateLimit(c.env.KV, (work) => c.executionCtx.waitUntil(work), subject, windows, Date.now(), true);
    if (!state.allowed) {
      c.header("Retry-After", state.headers["Retry-After"]);
      throw new ApiError(429, `Too many failed authentications; retry after ${state.headers["Retry-After"]} s`);
    }
  }
}

/** Counts a failed authentication against the client address and the key, when known, then fails. */
async function failed(c: Context<AppEnv>, keyId: number | undefined, error: ApiError): Promise<never> {
  for (const { subject, windows } of [...addressLimit(c), ...(keyId === undefined ? [] : keyLimit(keyId))]) {
    await consumeRateLimit(c.env.KV, (work) => c.executionCtx.waitUntil(work), subject, windows);
  }
  throw error;
}

const TIMESTAMP = /^\d{10,16}$/;
const NONCE = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Style G (and a DELETE, which has no body) signs its query parameters, each value of a parameter
 * sent twice; style F the top-level keys of bizContent, an array among them as one JSON value.
 */
async function signedParams(c: Context<AppEnv>): Promise<SignedParam[]> {
  if (c.req.method === "GET" || c.req.method === "DELETE")
    return Object.entries(c.req.queries()).flatMap(([name, values]) => values.map((value): SignedParam => [name, value]));
  return Object.entries(await readBizContent(c)).map(([name, value]): SignedParam => [name, signedValue(value)]);
}

async function verifySignedRequest(c: Context<AppEnv>, keyId: number, secret: string, signature: string) {
  const timestamp = c.req.header("X-Timestamp");
  const nonce = c.req.header("X-Nonce");
  if (!timestamp || !TIMESTAMP.test(timestamp)) {
    throw unauthorized("X-Timestamp header required: epoch milliseconds as a string");
  }
  if (Math.abs(Date.now() - Number(timestamp)) > SIGNATURE_WINDOW_MS) {
    // The usual slip: `date +%s` gives seconds, which read as milliseconds are in 1970.
    const inSeconds = Math.abs(Date.now() - Number(timestamp) * 1000) <= SIGNATURE_WINDOW_MS;
    throw unauthorized(
      `X-Timestamp is more than 300 seconds away from server time${inSeconds ? ": it is in seconds; send epoch milliseconds (date +%s%3N)" : ""}`,
    );
  }
  if (!nonce || !NONCE.test(nonce)) {
    throw unauthorized("X-Nonce header required: 8 to 64 letters, digits, '-' or '_'");
  }
  // X-Signature-Version 2 binds method and path; without it, the interface's original form (1).
  const version = c.req.header("X-Signature-Version") ?? "1";
  if (version !== "1" && version !== "2") throw unauthorized("X-Signature-Version must be 1 or 2");
  if (version === "1" && c.env.SIGNATURE_VERSIONS === "2") {
    throw unauthorized(
      "X-Signature-Version: 2 is required: this service no longer accepts version 1 signatures, which do not bind the method and path",
    );
  }
  const nonceKey = `nonce:${keyId}:${nonce}`;
  // Read while the signature is computed; only a good signature writes the nonce (below), so that
  // nobody can burn another client's nonces.
  const usedElsewhere = nonceSeenHere(nonceKey) ? Promise.resolve("here") : c.env.KV.get(nonceKey);
  // A bad signature throws before the read is awaited: its failure, if any, must not go unhandled.
  usedElsewhere.catch(() => undefined);
  const params = await signedParams(c);
  const canonical = version === "2" ? signingStringV2(c.req.method, c.req.path, params, timestamp, nonce) : signingString(params, timestamp, nonce);
  if (!(await signatureMatches(secret, canonical, signature))) await failed(c, keyId, unauthorized("Invalid signature"));
  // Memory again after the awaits: two requests with one nonce at the same moment in one isolate
  // both read KV as empty, and only the first to get here may pass.
  if ((await usedElsewhere) !== null || nonceSeenHere(nonceKey)) throw unauthorized("Nonce has already been used");
  rememberNonce(nonceKey);
  // This isolate refuses a replay at once from memory; KV tells the others. The write runs while the
  // route works, and the access policy holds the answer until it is done (DECISIONS: before the answer).
  c.set(
    "recordedBeforeAnswer",
    c.env.KV.put(nonceKey, "1", { expirationTtl: NONCE_TTL_SECONDS }).then(
      () => true,
      (error: unknown) => {
        c.get("log").error({ error: `nonce not recorded: ${String(error)}` });
        return false;
      },
    ),
  );
}

/** Nonces this isolate accepted, until they could no longer be replayed (the signature window); bounded. */
const seenNonces = new Map<string, number>();
const SEEN_NONCES_MAX = 20_000;
const nonceSeenHere = (key: string) => (seenNonces.get(key) ?? 0) > Date.now();
function rememberNonce(key: string) {
  seenNonces.set(key, Date.now() + SIGNATURE_WINDOW_MS);
  if (seenNonces.size <= SEEN_NONCES_MAX) return;
  const now = Date.now();
  for (const [old, until] of seenNonces) if (until <= now || seenNonces.size > SEEN_NONCES_MAX) seenNonces.delete(old);
}

/**
 * Groups T, I and O: `X-API-Key` with `X-API-Secret`, or with a signature over the business
 * parameters (`X-Timestamp`, `X-Nonce`, `X-Signature`).
 */
export async function authenticateDataClient(c: Context<AppEnv>): Promise<Principal> {
  const token = c.req.header("X-API-Key");
  if (!token)
    throw unauthorized(
      /^Bearer\s+(\S+)/i.exec(c.req.header("Authorization") ?? "")?.[1]?.startsWith(API_KEY_PREFIX)
        ? "X-API-Key header required: these groups take the key as X-API-Key, with X-API-Secret or a signature, not as Authorization: Bearer"
        : "X-API-Key header required",
    );
  await refuseWhileThrottled(c, addressLimit(c));
  const found = await findKeyByToken(c.get("db"), token, database(c.env));
  if (!found)
    await failed(
      c,
      undefined,
      unauthorized(
        // Another kind of key (a tenant's svc_tk_…) is said to be one: the prefix is the caller's own to read.
        token.startsWith(API_KEY_PREFIX)
          ? "Invalid authentication credentials"
          : `Not a data-service key: these groups take a key that starts with ${API_KEY_PREFIX}, with X-API-Secret or a signature (a key of another kind, a tenant's, is for that group's API)`,
      ),
    );
  assertUsableKey(found);
  await refuseWhileThrottled(c, keyLimit(found.key.id));

  const presentedSecret = c.req.header("X-API-Secret");
  const signature = c.req.header("X-Signature");
  if (!presentedSecret && !signature) throw unauthorized("X-API-Secret or X-Signature header required");
  const secret = await keySecret(found, (sealed) => decryptSecret(sealed, c.env.KEY_ENCRYPTION_KEY));
  if (presentedSecret) {
    if (!constantTimeEqual(secret, presentedSecret)) await failed(c, found.key.id, unauthorized("Invalid authentication credentials"));
  } else {
    await verifySignedRequest(c, found.key.id, secret, signature!);
  }
  return keyPrincipal(c, found);
}
