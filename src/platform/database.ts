import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { Bindings } from "./env";

export type Database = DrizzleD1Database;

export function database(env: Pick<Bindings, "DB">): Database {
  return drizzle(env.DB);
}
