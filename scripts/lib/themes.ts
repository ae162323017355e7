import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Puts a theme folder of the repository into R2 for a site (`themes/<site_id>/<name>/…`), as an
 * upload would; files already there are replaced, so edits to the folder show on the next start.
 */
export async function installTheme(bucket: R2Bucket, siteId: number, dir: string, name = "default"): Promise<number> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const entry of files) {
    const path = join(entry.parentPath, entry.name);
    // A plain ArrayBuffer: the local bindings' proxy cannot pass a Node Buffer.
    const bytes = readFileSync(path);
    await bucket.put(`themes/${siteId}/${name}/${relative(dir, path)}`, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return files.length;
}
