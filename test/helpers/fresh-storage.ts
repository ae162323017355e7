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
}

const IDS_PER_FILE = 1_000_000;

/**
 * Moves what an earlier file of the same workerd may still hold by number past anything it saw:
 * the data versions (the answers it kept, in this isolate and in the Cache API, are under them),
 * and each table's next id, a million further for each file, so that a message it left queued,
 * delivered now, names no row of this file's.
 */
export async function freshNumbers(env: Cloudflare.Env) {
  // The isolate outlives each file, and with it this count.
  const files = (globalThis.testFilesEmptied ?? 0) + 1;
  globalThis.testFilesEmptied = files;
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'").all<{
    name: string;
  }>();
  await env.DB.batch([
    env.DB.prepare("UPDATE data_versions SET version = version + ?").bind(Date.now()),
    env.DB.prepare("DELETE FROM sqlite_sequence"),
    ...results.map((table) => env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").bind(table.name, files * IDS_PER_FILE)),
  ]);
  forgetDataVersions();
}
