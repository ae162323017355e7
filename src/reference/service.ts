import { asc } from "drizzle-orm";
import type { Database } from "../platform/database";
import { countries } from "./schema";

export const listCountries = (db: Database) => db.select().from(countries).orderBy(asc(countries.code));
