import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { database } from "../../src/platform/database";
import { fail, step, wrangler } from "./local";
import { themeVersions } from "../../src/content/schema";
import { makeLive, newThemeVersion, STARTER_THEME_PREFIX, themePrefix } from "../../src/content/sites/themes";

/** A theme folder's files, by their path inside it. */
function folderFiles(dir: string): { path: string; name: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ path, name: relative(dir, path) }));
}

/** A file as the local bindings' proxy takes it: a plain ArrayBuffer, not a Node Buffer. */
function bytesOf(path: string): ArrayBuffer {
  const content = readFileSync(path);
  return content.buffer.slice(content.byteOffset, content.byteOffset + content.byteLength);
}

/** The operator's starter theme, which a site created in the console starts with (a copy of it): a theme folder of the repository. */
export async function installStarterTheme(env: { THEMES: R2Bucket }, dir = "themes/default"): Promise<number> {
  const files = folderFiles(dir);
  for (const file of files) await env.THEMES.put(`${STARTER_THEME_PREFIX}${file.name}`, bytesOf(file.path));
  return files.length;
}

/** The starter theme put into the deployed bucket of THEMES (wrangler.toml), a wrangler call a file. */
export function installStarterThemeRemotely(dir = "themes/default"): number {
  // wrangler.toml's own lines: its parser's types do not reach the linter from here.
  const bucket = /binding = "THEMES"\s*\nbucket_name = "([^"]+)"/.exec(readFileSync("wrangler.toml", "utf8"))?.[1];
  if (!bucket) fail("wrangler.toml binds no THEMES bucket");
  const files = folderFiles(dir);
  for (const [index, file] of files.entries()) {
    step(`starter theme: ${index + 1}/${files.length} ${file.name}`);
    wrangler(["r2", "object", "put", `${bucket}/${STARTER_THEME_PREFIX}${file.name}`, "--file", file.path, "--remote"]);
  }
  return files.length;
}

/**
 * Puts a theme folder of the repository into R2 for a site as an upload would: a new version of
 * the theme (`themes/<site_id>/<name>/versions/<version>/…`), counted in the tenant's room for
 * themes and made live once its files are stored. Each start installs the folder as it is now; the
 * daily cleanup removes the versions it replaced.
 */
export async function installTheme(env: { THEMES: R2Bucket; DB: D1Database }, siteId: number, dir: string, name = "default"): Promise<number> {
  const files = folderFiles(dir);
  const version = newThemeVersion();
  const prefix = themePrefix(siteId, name, version);
  let bytes = 0;
  for (const file of files) {
    const content = bytesOf(file.path);
    bytes += content.byteLength;
    await env.THEMES.put(`${prefix}${file.name}`, content);
  }
  const db = database(env);
  await db.insert(themeVersions).values({ siteId, name, version, bytes, updatedAt: new Date().toISOString() });
  await makeLive(db, siteId, name, version);
  return files.length;
}
