import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { seedParts } from "../../seed";
import { step, wrangler } from "../lib/local";
import { installStarterThemeRemotely } from "../lib/themes";

/** Loads the seed into the local D1 (the default state folder, or `persistTo`) or the deployed one; rows already there are kept. */
export async function runSeed(target: "local" | "remote", persistTo?: string): Promise<void> {
  const where = [`--${target}`, ...(persistTo ? ["--persist-to", persistTo] : [])];
  const parts = await seedParts();
  mkdirSync(".wrangler", { recursive: true });
  const file = ".wrangler/seed.sql";
  writeFileSync(file, parts.flatMap((p) => p.statements).join("\n"));
  for (const part of parts) step(`seed: ${part.name}, ${part.rows} rows in ${part.statements.length} statements`);
  wrangler(["d1", "execute", "DB", ...where, "--file", file]);

  const counts = parts.map((p) => `(SELECT count(*) FROM ${p.table}) AS "${p.name}"`).join(", ");
  const [result] = JSON.parse(wrangler(["d1", "execute", "DB", ...where, "--json", "--command", `SELECT ${counts}`])) as {
    results: Record<string, number>[];
  }[];
  const summary = Object.entries(result!.results[0]!)
    .map(([name, n]) => `${n} ${name}`)
    .join(", ");
  step(`seed: done, the ${target} database holds ${summary}`);
  // Locally `npm run dev` puts it there through the bindings, in a moment.
  if (target === "remote") step(`seed: the starter theme of new sites, ${installStarterThemeRemotely()} files in R2`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } } });
  await runSeed(values.remote ? "remote" : "local");
}
