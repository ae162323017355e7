import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { Bindings } from "./env";

export type Database = DrizzleD1Database;


/** One Drizzle instance per D1 binding, made once per isolate rather than once per request. */
const instances = new WeakMap<D1Database, Database>();

export function database(env: Pick<Bindings, "DB">): Database {
  let db = instances.get(env.DB);
  if (!db) {
    db = drizzle(env.DB);
    instances.set(env.DB, db);
  }
  return db;
}
