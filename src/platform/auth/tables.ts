import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { currentTimestamp } from "../columns";

export const PLANS = ["free", "basic", "enterprise", "internal"] as const;
export type Plan = (typeof PLANS)[number];

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Every credential belongs to a user; deactivating the user stops all of them at once. */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    email: text("email").notNull(),
    fullName: text("full_name"),
    casdoorId: text("casdoor_id").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    plan: text("plan", { enum: PLANS }).notNull().default("free"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    updatedAt: text("updated_at").notNull().default(currentTimestamp),
  },
  (t) => [uniqueIndex("users_casdoor_id").on(t.casdoorId), index("users_email").on(t.email)],
);

/** The token itself is never stored: only its SHA-256. The secret is kept AES-GCM encrypted. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    description: text("description"),
    tokenHash: text("token_hash").notNull(),
    maskedToken: text("masked_token").notNull(),
    encryptedSecret: text("encrypted_secret").notNull(),
    scopes: text("scopes", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    plan: text("plan", { enum: PLANS }),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull().default(currentTimestamp),
    lastUsed: text("last_used"),
    expiresAt: text("expires_at"),
    /** Null: any address. Else the CIDR ranges (`203.0.113.0/24`, `2001:db8::/32`) a request must come from. */
    allowedIps: text("allowed_ips", { mode: "json" }).$type<string[]>(),
    /** The token a roll replaced, still accepted with its own secret until `previous_valid_until`. */
    previousTokenHash: text("previous_token_hash"),
    previousEncryptedSecret: text("previous_encrypted_secret"),
    previousValidUntil: text("previous_valid_until"),
  },
  (t) => [
    uniqueIndex("api_keys_token_hash").on(t.tokenHash),
    index("api_keys_user").on(t.userId),
    index("api_keys_previous_token_hash").on(t.previousTokenHash),
    index("api_keys_expires_at").on(t.expiresAt),
  ],
);

/** Requests per key, day (UTC), group and status: counted in isolate memory, added here off the request path. */
export const keyUsageDaily = sqliteTable(
  "key_usage_daily",
  {
    keyId: integer("key_id").notNull(),
    day: text("day").notNull(),
    routeGroup: text("route_group").notNull(),
    status: integer("status").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day, t.routeGroup, t.status] }), index("key_usage_daily_day").on(t.day)],
);

export type User = typeof users.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
