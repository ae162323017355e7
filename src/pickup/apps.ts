import { and, desc, eq } from "drizzle-orm";
import { maskToken } from "../platform/auth/api-keys";
import { apps, type App } from "./schema";
import { encryptSecret, randomBase62, sha256Hex, toBase64 } from "../platform/crypto";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { accountRoomFull, measureAccountRows, withinAccountRoom } from "../platform/account-rooms";

export const APP_TOKEN_PREFIX = "svc_at_";

export interface IssuedApp {
  app: App;
  appToken: string;
  webhookSecret: string;
}

/** Apps an account keeps, deleted ones included: a deleted app's tasks and deliveries are kept, and nothing deletes it. */
export const APPS_PER_ACCOUNT = 100;

/** An app of group P: the token and the webhook secret are in the answer, once. Past `APPS_PER_ACCOUNT` it is a 409. */
export async function createApp(
  db: Database,
  encryptionKey: string,
  userId: number,
  input: { name: string; hot_api_key?: string },
): Promise<IssuedApp> {
  const appToken = APP_TOKEN_PREFIX + randomBase62(40);
  // Standard Webhooks secrets are `whsec_` followed by base64 of 24 to 64 random bytes.
  const webhookSecret = `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
  const [[app]] = await withinAccountRoom(
    async () =>
      db.batch([
        db
          .insert(apps)
          .values({
            userId,
            name: input.name,
            tokenHash: await sha256Hex(appToken),
            maskedToken: maskToken(appToken, APP_TOKEN_PREFIX),
            encryptedHotApiKey: input.hot_api_key ? await encryptSecret(input.hot_api_key, encryptionKey) : null,
            encryptedWebhookSecret: await encryptSecret(webhookSecret, encryptionKey),
          })
          .returning(),
        measureAccountRows(db, userId, "pickup_apps", { table: apps, owner: apps.userId }, APPS_PER_ACCOUNT),
      ]),
    () => accountRoomFull(APPS_PER_ACCOUNT, "pickup apps, deleted ones included"),
  );
  return { app: app!, appToken, webhookSecret };
}

export const listApps = (db: Database, userId: number) => db.select().from(apps).where(eq(apps.userId, userId)).orderBy(desc(apps.id));

export async function deleteApp(db: Database, userId: number, id: number): Promise<void> {
  const [app] = await db
    .update(apps)
    .set({ isActive: false })
    .where(and(eq(apps.id, id), eq(apps.userId, userId)))
    .returning({ id: apps.id });
  if (!app) throw new ApiError(404, "Not found");
}
