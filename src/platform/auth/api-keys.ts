import { eq } from "drizzle-orm";
import { encryptSecret, randomBase62, sha256Hex } from "../crypto";
import type { Database } from "../database";
import { apiKeys, type ApiKey, type Plan, type User, users } from "./tables";

export const API_KEY_PREFIX = "svc_sk_";
export const API_SECRET_PREFIX = "svc_ss_";

/** The prefix, the first 4 and the last 4 characters: enough to recognise a key, useless to use it. */
export function maskToken(token: string): string {
  const body = token.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${body.slice(0, 4)}${"*".repeat(8)}${body.slice(-4)}`;
}

export interface NewApiKey {
  userId: number;
  name: string;
  description?: string | null;
  scopes?: string[];
  plan?: Plan | null;
  expiresAt?: string | null;
}

export interface IssuedApiKey {
  key: ApiKey;
  token: string;
  secret: string;
}

/** Creates a key; the token and the secret are in the answer and nowhere else in clear. */
export async function issueApiKey(db: Database, encryptionKey: string, input: NewApiKey): Promise<IssuedApiKey> {
  const token = API_KEY_PREFIX + randomBase62(40);
  const secret = API_SECRET_PREFIX + randomBase62(40);
  const [key] = await db
    .insert(apiKeys)
    .values({
      userId: input.userId,
      name: input.name,
      description: input.description ?? null,
      scopes: input.scopes ?? [],
      plan: input.plan ?? null,
      expiresAt: input.expiresAt ?? null,
      tokenHash: await sha256Hex(token),
      maskedToken: maskToken(token),
      encryptedSecret: await encryptSecret(secret, encryptionKey),
    })
    .returning();
  return { key: key!, token, secret };
}

export interface KeyWithUser {
  key: ApiKey;
  user: User;
}

/** Looks a presented token up by its hash: the index finds it, no comparison of secrets is involved. */
export async function findKeyByToken(db: Database, token: string): Promise<KeyWithUser | undefined> {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.tokenHash, await sha256Hex(token)))
    .limit(1);
  return row;
}
