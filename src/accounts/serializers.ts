import type { IssuedApiKey } from "../platform/auth/api-keys";
import { users, type ApiKey, type User } from "../platform/auth/tables";
import type { RolledKey } from "./keys";
import type { accountAuditEvents } from "./schema";
import type { App } from "../pickup/schema";
import type { IssuedApp } from "../pickup/apps";
import { byColumnName } from "./column-names";

/** The user record of A8–A10: the row, but for the plan, under its columns' names. */
export const userRecord = ({ plan: _plan, ...user }: User) => byColumnName(users, user);

export const keyListItem = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  masked_token: k.maskedToken,
  created_at: k.createdAt,
  last_used: k.lastUsed,
  is_active: k.isActive,
});

export const keyDetail = (k: ApiKey) => ({
  ...keyListItem(k),
  description: k.description,
  scopes: k.scopes,
  expires_at: k.expiresAt,
  allowed_ips: k.allowedIps,
  // Once the overlap has passed the replaced token is gone: nothing to say.
  previous_valid_until: k.previousValidUntil !== null && Date.parse(k.previousValidUntil) > Date.now() ? k.previousValidUntil : null,
});

export const keyCreated = ({ key, token, secret }: IssuedApiKey) => ({
  id: key.id,
  token,
  secret,
  name: key.name,
  user_id: key.userId,
  created_at: key.createdAt,
  is_active: key.isActive,
  masked_token: key.maskedToken,
  scopes: key.scopes,
  expires_at: key.expiresAt,
  allowed_ips: key.allowedIps,
});

export const keyRolled = (rolled: RolledKey) => ({ ...keyCreated(rolled), previous_valid_until: rolled.previousValidUntil });

export const keyUsageAnswer = (keyId: number, since: string, rows: { day: string; routeGroup: string; status: number; requests: number }[]) => ({
  key_id: keyId,
  since,
  total_requests: rows.reduce((sum, row) => sum + row.requests, 0),
  data: rows.map((row) => ({ day: row.day, group: row.routeGroup, status: row.status, requests: row.requests })),
});

export const auditEntry = (e: typeof accountAuditEvents.$inferSelect) => ({
  id: e.id,
  action: e.action,
  actor_user_id: e.actorUserId,
  actor_key_id: e.actorKeyId,
  key_id: e.keyId,
  detail: e.detail,
  created_at: e.createdAt,
});

export const appListItem = (a: App) => ({
  id: a.id,
  name: a.name,
  masked_token: a.maskedToken,
  has_hot_api_key: a.encryptedHotApiKey !== null,
  is_active: a.isActive,
  created_at: a.createdAt,
});

export const appCreated = ({ app, appToken, webhookSecret }: IssuedApp) => ({
  ...appListItem(app),
  app_token: appToken,
  webhook_secret: webhookSecret,
});
