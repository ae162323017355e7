import { ApiError } from "../../platform/errors";
import { hmacSha256Hex } from "../../platform/crypto";
import { templateSet } from "./templates";
import { forgetThemeListing, listAll, themePrefix } from "./themes";

export const MAX_THEME_ZIP_BYTES = 20 * 1024 * 1024;
const MAX_FILES = 2000;
/** What the files may add up to once unpacked: a zip bomb stops here, before it is inflated. */
const MAX_UNPACKED_BYTES = 60 * 1024 * 1024;
const FOLDERS = ["layouts", "templates", "assets", "locales"];
const EXTENSIONS = new Set(["j2", "css", "js", "png", "jpg", "jpeg", "gif", "webp", "svg", "woff", "woff2", "ico", "json"]);
const REQUIRED = ["templates/index.html.j2", "templates/404.html.j2"];
/** The names a template refers to: extends, include, import and from … import, as string literals. */
const REFERENCES = /\{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']/g;

const refuse = (message: string) => new ApiError(400, `theme: ${message}`);

/** What a path inside the zip must be: relative, inside one of the four folders, of an allowed type. */
function checkedPath(name: string): string | undefined {
  if (name.endsWith("/")) return undefined;
  const path = name.replace(/^[^/]+\/(?=(layouts|templates|assets|locales)\/)/, "");
  if (path.startsWith("/") || /^[a-z]:/i.test(path) || path.includes("\\") || path.split("/").some((part) => part === ".." || part === "." || part === "")) {
    throw refuse(`${name}: paths must be relative and stay inside the theme`);
  }
  if (!FOLDERS.includes(path.split("/")[0]!)) throw refuse(`${name}: files belong in ${FOLDERS.join(", ")}`);
  const extension = path.split(".").at(-1)!.toLowerCase();
  if (!EXTENSIONS.has(extension)) throw refuse(`${name}: .${extension} files are not allowed in a theme`);
  return path;
}

/**
 * A theme zip, checked before anything is stored: at most 20 MB, 2,000 files and 60 MB unpacked,
 * relative paths inside layouts/, templates/, assets/ and locales/, allowed types only, the
 * required templates present, every template parsing and every extends/include/import resolving.
 * Stored under `themes/<site>/<name>/`, replacing a theme of that name.
 */
export async function uploadTheme(bucket: R2Bucket, siteId: number, name: string, zip: Uint8Array): Promise<{ name: string; files: number }> {
  const { unzipSync } = await import("fflate");
  let declared = 0;
  let count = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        if (file.name.endsWith("/")) return false;
        count++;
        declared += file.originalSize;
        if (count > MAX_FILES) throw refuse(`more than ${MAX_FILES} files`);
        if (declared > MAX_UNPACKED_BYTES) throw refuse(`more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB once unpacked`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refuse("the body is not a zip file");
  }
  const entries = Object.entries(files).flatMap(([raw, bytes]) => {
    const path = checkedPath(raw);
    return path ? [[path, bytes] as const] : [];
  });
  // The declared sizes may lie; what was inflated may not.
  if (entries.reduce((sum, [, bytes]) => sum + bytes.byteLength, 0) > MAX_UNPACKED_BYTES) throw refuse(`more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB once unpacked`);
  const paths = new Set(entries.map(([path]) => path));
  const missing = REQUIRED.filter((path) => !paths.has(path));
  if (missing.length) throw refuse(`missing ${missing.join(", ")}`);

  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const templates: Record<string, string> = {};
  for (const [path, bytes] of entries) {
    if (!path.endsWith(".j2")) continue;
    try {
      templates[path] = decoder.decode(bytes);
    } catch {
      throw refuse(`${path} is not UTF-8 text`);
    }
  }
  for (const [path, source] of Object.entries(templates)) {
    for (const [, target] of source.matchAll(REFERENCES)) {
      if (!(target! in templates)) throw refuse(`${path} refers to ${target}, which the theme does not have`);
    }
  }
  await templateSet(templates).catch((error: unknown) => {
    throw refuse(`a template does not parse: ${error instanceof Error ? error.message : String(error)}`);
  });

  const prefix = themePrefix(siteId, name);
  const old = (await listAll(bucket, prefix)).map((o) => o.key);
  for (let i = 0; i < old.length; i += 1000) await bucket.delete(old.slice(i, i + 1000));
  for (const [path, bytes] of entries) await bucket.put(`${prefix}${path}`, bytes);
  forgetThemeListing(siteId, name);
  return { name, files: entries.length };
}

/** The themes a site has in R2. */
export async function themesOf(bucket: R2Bucket, siteId: number): Promise<string[]> {
  const listed = await bucket.list({ prefix: `themes/${siteId}/`, delimiter: "/" });
  return listed.delimitedPrefixes.map((prefix) => prefix.split("/").at(-2)!).sort();
}

/** A preview token: lets a member see the site with a theme that is not yet active. */
export const previewToken = (secret: string, siteId: number, theme: string) => hmacSha256Hex(secret, `theme-preview:${siteId}:${theme}`);
