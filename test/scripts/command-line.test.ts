import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";

/** A script as a developer runs it (`npm run -s name -- args`), through tsx: its exit code and output. */
const run = (script: string, args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", `scripts/dev/${script}.ts`, ...args],
      { encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

describe("API8 · command-line scripts: --help and unknown flags", () => {
  // Started together: each spends its seconds loading the service's modules.
  const answers = Promise.all([run("tenants-create", ["--help"]), run("users-create", ["-h"]), run("tenants-create", ["--nme", "Paper"])]);

  it("prints the usage of tenants:create and users:create for --help, and exits 0", async () => {
    const [tenants, users] = await answers;
    expect(tenants).toEqual({
      status: 0,
      stdout: "usage: npm run -s tenants:create -- --name NAME [--slug SLUG] [--email E] [--demo]\n",
      stderr: "",
    });
    expect(users).toEqual({ status: 0, stdout: "usage: npm run users:create -- --email you@example.com [--admin]\n", stderr: "" });
  });

  it("names an unknown flag in one line, with the usage, and exits 1", async () => {
    const [, , unknown] = await answers;
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe("✗ Unknown option '--nme'\n  usage: npm run -s tenants:create -- --name NAME [--slug SLUG] [--email E] [--demo]\n");
  });
});
