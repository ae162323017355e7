import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { database } from "../../src/platform/database";
import { themeVersions } from "../../src/content/schema";
import { makeLive, newThemeVersion, themePrefix } from "../../src/content/sites/themes";

/**
 * Puts a theme folder of the repository into R2 for a site as an upload would: a new version of
 * the theme (`themes/<site_id>/<name>/versions/<version>/…`), counted in the tenant's room for
 * themes and made live once its files are stored. Each start installs the folder as it is now; the
 * daily cleanup removes the versions it replaced.
 */
export async function installTheme(env: { THEMES: R2Bucket; DB: D1Database }, siteId: number, dir: string, name = "default"): Promise<number> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const version = newThemeVersion();
  const prefix = themePrefix(siteId, name, version);
  let bytes = 0;
  for (const path of files) {
    const content = readFileSync(path);
    bytes += content.byteLength;
    // A plain ArrayBuffer: the local bindings' proxy cannot pass a Node Buffer.
    await env.THEMES.put(`${prefix}${relative(dir, path)}`, content.buffer.slice(content.byteOffset, content.byteOffset + content.byteLength));
  }
  const db = database(env);
  await db.insert(themeVersions).values({ siteId, name, version, bytes, updatedAt: new Date().toISOString() });
  await makeLive(db, siteId, name, version);
  return files.length;
}
