import { eq } from "drizzle-orm";
import { issueApiKey, type IssuedApiKey } from "../../src/platform/auth/api-keys";
import { type Plan, type Role, users } from "../../src/platform/auth/tables";
import type { Database } from "../../src/platform/database";

/** Local users have no identity provider account: their casdoor_id says so. */
export const localCasdoorId = (email: string) => `local:${email}`;

export async function findOrCreateLocalUser(db: Database, email: string, role: Role = "user") {
  const casdoorId = localCasdoorId(email);
  const [existing] = await db.select().from(users).where(eq(users.casdoorId, casdoorId)).limit(1);
  if (existing) {
    if (role === "admin" && existing.role !== "admin") {
      const [promoted] = await db.update(users).set({ role }).where(eq(users.id, existing.id)).returning();
      return promoted!;
    }
    return existing;
  }
  const [created] = await db
    .insert(users)
    .values({ casdoorId, email, username: email.split("@")[0]!, fullName: email, role })
    .returning();
  return created!;
}

export interface KeyRequest {
  email: string;
  name: string;
  plan?: Plan;
  scopes?: string[];
}

export async function createLocalKey(db: Database, encryptionKey: string, request: KeyRequest): Promise<IssuedApiKey> {
  const user = await findOrCreateLocalUser(db, request.email);
  return issueApiKey(db, encryptionKey, {
    userId: user.id,
    name: request.name,
    plan: request.plan ?? null,
    scopes: request.scopes ?? [],
  });
}
