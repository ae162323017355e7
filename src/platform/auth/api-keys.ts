import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Context } from "hono";
import { encryptSecret, randomBase62, sha256Hex } from "../crypto";
import type { Database } from "../database";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import type { Principal } from "./principal";
import { IsolateCache } from "../isolate-cache";
import { addressInRanges, clientAddress } from "../ip-ranges";
import { apiKeys, type ApiKey, type Plan, type User, users } from "./tables";

export const API_KEY_PREFIX = "svc_sk_";
export const API_SECRET_PREFIX = "svc_ss_";
const LAST_USED_RESOLUTION_MS = 60_000;
const unauthorized = (message: string) => new ApiError(401, message);

/** The prefix, the first 4 and the last 4 characters: enough to recognise a key, useless to use it. */
export function maskToken(token: string, prefix = API_KEY_PREFIX): string {
  const body = token.slice(prefix.length);
  return `${prefix}${body.slice(0, 4)}${"*".repeat(8)}${body.slice(-4)}`;
}

export interface NewApiKey {
  userId: number;
  name: string;
  description?: string | null;
  scopes?: string[];
  plan?: Plan | null;
  expiresAt?: string | null;
  allowedIps?: string[] | null;
}

export interface IssuedApiKey {
  key: ApiKey;
  token: string;
  secret: string;
}

/** A new token and secret, in clear for the answer and as the row keeps them (hashed, masked, sealed). */
export async function newKeyCredentials(encryptionKey: string) {
  const token = API_KEY_PREFIX + randomBase62(40);
  const secret = API_SECRET_PREFIX + randomBase62(40);
  const stored = { tokenHash: await sha256Hex(token), maskedToken: maskToken(token), encryptedSecret: await encryptSecret(secret, encryptionKey) };
  return { token, secret, stored };
}

/** The insert of a new key, for a caller that batches it with other writes (group A's audit event). */
export function insertApiKey(db: Database, input: NewApiKey, stored: Awaited<ReturnType<typeof newKeyCredentials>>["stored"]) {
  return db
    .insert(apiKeys)
    .values({
      userId: input.userId,
      name: input.name,
      description: input.description ?? null,
      scopes: input.scopes ?? [],
      plan: input.plan ?? null,
      expiresAt: input.expiresAt ?? null,
      allowedIps: input.allowedIps ?? null,
      ...stored,
    })
    .returning();
}

/** Creates a key; the token and the secret are in the answer and nowhere else in clear. */
export async function issueApiKey(db: Database, encryptionKey: string, input: NewApiKey): Promise<IssuedApiKey> {
  const { token, secret, stored } = await newKeyCredentials(encryptionKey);
  const [key] = await insertApiKey(db, input, stored);
  return { key: key!, token, secret };
}

export interface KeyWithUser {
  key: ApiKey;
  user: User;
  /** Found by the token a roll replaced: its own secret, and only until the overlap ends. */
  previous?: boolean;
}

/**
 * Keys found lately, per isolate, by token hash: the hot path skips the database. An entry lives
 * `KEY_CACHE_MS`, so a key revoked (or a user deactivated) elsewhere stops working here within
 * that bound; where it is revoked, `forgetCachedKeys` drops it at once. Most recently used last;
 * the oldest goes when the cache is full. Unknown tokens are not cached.
 */
export const KEY_CACHE_MS = 10_000;
const verifiedKeys = new IsolateCache<{ found: KeyWithUser; secret?: Promise<string> }>(1000, KEY_CACHE_MS);

/** Drops cached keys: one key, or every key of a user (revoked, deactivated, changed). */
export function forgetCachedKeys(which: { keyId?: number; userId?: number }) {
  verifiedKeys.forget(({ found }) => found.key.id === which.keyId || found.user.id === which.userId);
}

/** Looks a presented token up by its hash: the index finds it, no comparison of secrets is involved. */
export async function findKeyByToken(db: Database, token: string, primary?: Database): Promise<KeyWithUser | undefined> {
  const hash = await sha256Hex(token);
  const cached = verifiedKeys.get(hash);
  if (cached) return cached.found;
  const lookup = (from: Database) =>
    from
      .select({ key: apiKeys, user: users })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(or(eq(apiKeys.tokenHash, hash), eq(apiKeys.previousTokenHash, hash)))
      .limit(1);
  // A key made a moment ago may not have reached the replica that answered: the primary has it.
  let [row] = await lookup(db);
  if (!row && primary) [row] = await lookup(primary);
  if (!row) return undefined;
  const found: KeyWithUser = row.key.tokenHash === hash ? row : { ...row, previous: true };
  verifiedKeys.set(hash, { found });
  return found;
}

/** A key's secret, decrypted once per cached entry rather than on every request. */
export function keySecret(found: KeyWithUser, decrypt: (sealed: string) => Promise<string>): Promise<string> {
  // The cache's key is the token's hash, which the row holds.
  const sealed = found.previous ? found.key.previousEncryptedSecret! : found.key.encryptedSecret;
  const entry = verifiedKeys.get(found.previous ? found.key.previousTokenHash! : found.key.tokenHash);
  if (entry?.found === found) return (entry.secret ??= decrypt(sealed));
  return decrypt(sealed);
}

/** When the presented token stops working: its key's expiry, or the end of the roll's overlap for the token a roll replaced. */
function stopsAt({ key, previous }: KeyWithUser): string | null {
  const ends = [key.expiresAt, previous ? key.previousValidUntil : null].filter((at): at is string => at !== null);
  return ends.sort()[0] ?? null;
}

/** Rule 2 of the interface: the key exists and is active, and so is its user. */
export function assertUsableKey(found: KeyWithUser | undefined): asserts found is KeyWithUser {
  if (!found) throw unauthorized("Invalid authentication credentials");
  if (!found.key.isActive) throw unauthorized("API key has been revoked");
  if (found.key.expiresAt && Date.parse(found.key.expiresAt) <= Date.now()) throw unauthorized("API key has expired");
  // Checked against the clock on every request, so that a cached row never extends the overlap.
  if (found.previous && !(Date.parse(found.key.previousValidUntil ?? "") > Date.now())) {
    throw unauthorized("API key has been rolled: this token stopped working when its overlap ended; use the new one");
  }
  if (!found.user.isActive) throw unauthorized("Invalid authentication credentials");
}

/** An answer to a key that stops within this many days carries `X-API-Key-Expires` (docs/accounts.md). */
export const EXPIRY_WARNING_DAYS = 14;

/** A key limited to IP ranges is refused from anywhere else, and where the address is unknown. */
function assertAllowedAddress(c: Context<AppEnv>, { key }: KeyWithUser) {
  if (key.allowedIps === null) return;
  const address = clientAddress(c.req.header("CF-Connecting-IP"));
  if (address === undefined || !addressInRanges(address, key.allowedIps)) {
    throw new ApiError(403, "This API key may not be used from this IP address");
  }
}

/** Records `last_used` at most once a minute per key, after the answer has gone. */
function noteKeyUse(c: Context<AppEnv>, { key }: KeyWithUser) {
  const now = Date.now();
  if (key.lastUsed && now - Date.parse(key.lastUsed) < LAST_USED_RESOLUTION_MS) return;
  const cutoff = new Date(now - LAST_USED_RESOLUTION_MS).toISOString();
  // The cached row remembers it too, so that a cached key writes at most once a minute as well.
  key.lastUsed = new Date(now).toISOString();
  c.executionCtx.waitUntil(
    c
      .get("db")
      .update(apiKeys)
      .set({ lastUsed: new Date(now).toISOString() })
      .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsed), lt(apiKeys.lastUsed, cutoff))))
      .run(),
  );
}

export function keyPrincipal(c: Context<AppEnv>, found: KeyWithUser): Principal {
  assertAllowedAddress(c, found);
  const stops = stopsAt(found);
  if (stops !== null && Date.parse(stops) - Date.now() <= EXPIRY_WARNING_DAYS * 86_400_000) c.header("X-API-Key-Expires", stops);
  noteKeyUse(c, found);
  const { key, user } = found;
  return { keyId: key.id, userId: user.id, role: user.role, plan: key.plan ?? user.plan, scopes: key.scopes };
}
