import type { IssuedApiKey } from "../platform/auth/api-keys";
import { users, type ApiKey, type User } from "../platform/auth/tables";
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
