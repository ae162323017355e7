import { sql } from "drizzle-orm";

/**
 * What the tables of every group share. Kept apart from the database connection, so that the
 * tables' row types can be imported where no Worker runs (the admin console's build).
 */

/** The default of a created_at column: the database's clock as ISO 8601 with milliseconds, UTC. */
export const currentTimestamp = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
