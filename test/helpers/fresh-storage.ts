import { forgetDataVersions } from "../../src/platform/read-cache";

/**
 * Empties the database and KV of the `jobs` project's workerd before a file, so that each of its
 * files starts from the migrations and the seed alone, as a fresh workerd would, without loading
 * the Worker again (seconds of CPU a file).
 */
export async function emptyStorage(env: Cloudflare.Env) {
  const { results } = await env.DB.prepare(
    "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ type: string; name: string; sql: string | null }>();
  // A virtual table (the search indexes) takes its shadow tables with it: dropped first, the rest after.
  const isVirtual = (row: { sql: string | null }) => row.sql?.startsWith("CREATE VIRTUAL TABLE") ?? false;
  const virtualTables = results.filter(isVirtual).map((row) => row.name);
  const shadowOf = (name: string) => virtualTables.some((table) => name.startsWith(`${table}_`));
  const drops = [
    ...results.filter((row) => row.type === "view").map((row) => `DROP VIEW "${row.name}"`),
    ...virtualTables.map((name) => `DROP TABLE "${name}"`),
    ...results.filter((row) => row.type === "table" && !isVirtual(row) && !shadowOf(row.name)).map((row) => `DROP TABLE "${row.name}"`),
  ];
  if (drops.length > 0) await env.DB.batch(["PRAGMA defer_foreign_keys = on", ...drops].map((sql) => env.DB.prepare(sql)));
  let cursor: string | undefined;
  do {
    const page = await env.KV.list({ cursor });
    await Promise.all(page.keys.map((key) => env.KV.delete(key.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  forgetDataVersions();
}

/**
 * Moves the data versions past any an earlier file of the same workerd used: the answers it kept
 * (in this isolate and in the Cache API) are under those versions and must not be found again.
 */
export async function freshDataVersions(env: Cloudflare.Env) {
  await env.DB.prepare("UPDATE data_versions SET version = version + ?").bind(Date.now()).run();
  forgetDataVersions();
}
