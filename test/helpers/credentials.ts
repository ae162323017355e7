import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { forgetCachedKeys, issueApiKey } from "../../src/platform/auth/api-keys";
import { apiKeys, type Plan, type Role, users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";

export interface TestKey {
  token: string;
  secret: string;
  keyId: number;
  userId: number;
}

let serial = 0;

/** A fresh user with one key; storage is shared within a file, so every call is unique. */
export async function createTestKey(options: { scopes?: string[]; plan?: Plan; expiresAt?: string; role?: Role } = {}): Promise<TestKey> {
  const db = database(env);
  const tag = `${Date.now()}-${++serial}-${Math.random().toString(36).slice(2)}`;
  const [user] = await db
    .insert(users)
    .values({ username: `user-${tag}`, email: `user-${tag}@example.com`, casdoorId: `casdoor-${tag}`, role: options.role ?? "user" })
    .returning();
  const issued = await issueApiKey(db, env.KEY_ENCRYPTION_KEY, {
    userId: user!.id,
    name: "test key",
    scopes: options.scopes ?? [],
    plan: options.plan ?? "internal",
    expiresAt: options.expiresAt,
  });
  return { token: issued.token, secret: issued.secret, keyId: issued.key.id, userId: user!.id };
}

/** Revokes as the service does, in this isolate: the row, and the isolate's cached copy. */
export async function revokeKey(keyId: number) {
  await database(env).update(apiKeys).set({ isActive: false }).where(eq(apiKeys.id, keyId));
  forgetCachedKeys({ keyId });
}

export async function deactivateUser(userId: number) {
  await database(env).update(users).set({ isActive: false }).where(eq(users.id, userId));
  forgetCachedKeys({ userId });
}
