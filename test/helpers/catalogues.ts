import { env } from "cloudflare:test";
import { forgetDataVersions } from "../../src/platform/read-cache";

/** Loads the seed's full HS codes and units of measure, as `npm run dev` does; for an isolated file. */
export async function loadCatalogues(): Promise<void> {
  const statements = env.TEST_CATALOGUES.map((sql) => env.DB.prepare(sql));
  // D1 batches are one transaction each; a few hundred statements at a time keep each one small.
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200));
  // The statements bumped the data's version: this isolate reads it again rather than in 10 s.
  forgetDataVersions();
}
