import type { IssuedApiKey } from "../platform/auth/api-keys";
import type { ApiKey, User } from "../platform/auth/tables";
import type { App } from "../pickup/schema";
import type { IssuedApp } from "../pickup/apps";

/** Group A speaks snake_case, as the interface's records do. */
export const userRecord = (u: User) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  full_name: u.fullName,
  casdoor_id: u.casdoorId,
  role: u.role,
  is_active: u.isActive,
  created_at: u.createdAt,
  updated_at: u.updatedAt,
});

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
