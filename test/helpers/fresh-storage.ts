import { forgetSandboxTables } from "../../src/miniprograms/sandbox-tables";
import { forgetDataVersions } from "../../src/platform/read-cache";

/**
 * Empties the database and KV before a file that rewrites the seeded data (and the file after it),
 * so that it starts from the migrations and the seed alone, as a fresh workerd would, without
 * loading the Worker again (seconds of CPU a file).
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
  // The WeChat sandbox makes its tables once per isolate: they are gone now. The isolate outlives
  // each emptying, and with it this count (the ids and fixtures of each storage follow it).
  forgetSandboxTables(env);
  globalThis.testStoragesEmptied = (globalThis.testStoragesEmptied ?? 0) + 1;
  let cursor: string | undefined;
  do {
    const page = await env.KV.list({ cursor });
    await Promise.all(page.keys.map((key) => env.KV.delete(key.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

// Small enough that an id stays within what the interface takes for one (a unit's at most 1,000,000).
const IDS_PER_STORAGE = 20_000;

/**
 * A fixture made once per storage (a key, synced templates): the files of a workerd share it
 * until one of them starts from emptied storage, which has no such rows.
 */
export function oncePerStorage<T>(make: () => Promise<T>): () => Promise<T> {
  let made: { storage: number; value: Promise<T> } | undefined;
  return () => {
    const storage = globalThis.testStoragesEmptied ?? 0;
    if (made?.storage !== storage) made = { storage, value: make() };
    return made.value;
  };
}

/**
 * Moves what an earlier file of the same workerd may still hold by number past anything it saw:
 * the data versions (the answers it kept, in this isolate and in the Cache API, are under them) and,
 * with `ids` (emptied storage), each table's next id, 20,000 further for each emptying, so that a
 * message an earlier file left queued, or what the isolate keeps by id, names no row of this file's.
 */
export async function newNumbers(env: Cloudflare.Env, { ids }: { ids: boolean }) {
  const statements = [env.DB.prepare("UPDATE data_versions SET version = version + ?").bind(Date.now())];
  if (ids) {
    const emptyings = globalThis.testStoragesEmptied ?? 0;
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'").all<{
      name: string;
    }>();
    statements.push(
      env.DB.prepare("DELETE FROM sqlite_sequence"),
      ...results.map((table) =>
        env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").bind(table.name, emptyings * IDS_PER_STORAGE),
      ),
    );
  }
  await env.DB.batch(statements);
  forgetDataVersions();
}
