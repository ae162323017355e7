import { spawn } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { database } from "../src/platform/database";
import { runJob } from "../src/platform/jobs/runner";
import { hsJob } from "../src/reference/jobs";
import { feedFromFile } from "./lib/feeds";
import { createLocalKey } from "./lib/keys";
import { ensureDevVars, fail, step, WRANGLER, withLocalBindings, wrangler } from "./lib/local";
import { runSeed } from "./seed";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "16" },
    port: { type: "string", default: "8788" },
  },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const SCENARIO_TIME_CAP_MS = 60_000;
const base = `http://127.0.0.1:${values.port}`;

interface Scenario {
  name: string;
  path: string;
  method?: "GET" | "POST";
  body?: string;
  headers: () => Record<string, string>;
}

interface Result {
  scenario: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(scenario: Scenario): Promise<Result> {
  for (let i = 0; i < 50; i++) await (await fetch(base + scenario.path, { method: scenario.method ?? "GET", body: scenario.body, headers: scenario.headers() })).arrayBuffer();
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + SCENARIO_TIME_CAP_MS;
  const worker = async () => {
    while (issued < REQUESTS && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      const res = await fetch(base + scenario.path, { method: scenario.method ?? "GET", body: scenario.body, headers: scenario.headers() });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    requests: latencies.length,
    errors,
    rps: Math.round(latencies.length / seconds),
    p50: Number(percentile(latencies, 50).toFixed(2)),
    p99: Number(percentile(latencies, 99).toFixed(2)),
  };
}

async function waitUntilReady(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fail("wrangler dev did not become ready in 60 s");
}

ensureDevVars();
step("bench: preparing the local D1");
wrangler(["d1", "migrations", "apply", "DB", "--local"]);
await runSeed("local");
const PUBLISHED_HS = "../shared/data/harmonized-system.csv";
const key = await withLocalBindings(async (env) => {
  if (existsSync(PUBLISHED_HS)) {
    const run = await runJob(database(env), env, hsJob, "cli", feedFromFile(hsJob, PUBLISHED_HS));
    step(`bench: HS codes ${run.status} (${JSON.stringify(run.counts)})`);
  } else step(`bench: ${PUBLISHED_HS} is missing; the O6 row searches an empty table`);
  return createLocalKey(database(env), env.KEY_ENCRYPTION_KEY, { email: "bench@localhost", name: "bench", plan: "internal" });
});

step(`bench: starting wrangler dev on port ${values.port}`);
const server = spawn(WRANGLER, ["dev", "--port", values.port, "--ip", "127.0.0.1", "--log-level", "error"], {
  stdio: "ignore",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});

const withSecret = () => ({ "X-API-Key": key.token, "X-API-Secret": key.secret });
const signed = (params: Record<string, string>) => () => {
  const timestamp = String(Date.now());
  const nonce = randomUUID().replaceAll("-", "");
  const canonical = [...Object.keys(params).sort().map((k) => `${k}=${params[k]}`), `timestamp=${timestamp}`, `nonce=${nonce}`].join("&");
  return {
    "X-API-Key": key.token,
    "X-Timestamp": timestamp,
    "X-Nonce": nonce,
    "X-Signature": createHmac("sha256", key.secret).update(canonical).digest("hex"),
  };
};

const scenarios: Scenario[] = [
  { name: "bare Hono route (GET /health, no auth)", path: "/health", headers: () => ({}) },
  { name: "T2 country/DE, secret", path: "/std/api/bigdata/taxrate/country/DE", headers: withSecret },
  { name: "T2 country/DE, signed", path: "/std/api/bigdata/taxrate/country/DE", headers: signed({}) },
  { name: "T1 list page 0 size 20, secret", path: "/std/api/bigdata/taxrate/list?page=0&size=20", headers: withSecret },
  { name: "O1 country list (GET), secret", path: "/std/open/country/list", headers: withSecret },
  {
    name: "O6 HS keyword search 'coffee', secret",
    path: "/std/open/hs-code/list",
    method: "POST",
    body: new URLSearchParams({ bizContent: JSON.stringify({ keywords: "coffee", size: 20 }) }).toString(),
    headers: () => ({ ...withSecret(), "Content-Type": "application/x-www-form-urlencoded" }),
  },
];

try {
  await waitUntilReady();
  const results: Result[] = [];
  for (const scenario of scenarios) {
    step(`bench: ${scenario.name}: ${REQUESTS} requests, ${CONCURRENCY} at a time`);
    results.push(await run(scenario));
  }
  console.log(`\nwrangler dev (workerd, local D1/KV) on this machine; ${REQUESTS} requests per row, concurrency ${CONCURRENCY}\n`);
  console.table(results.map((r) => ({ ...r, p50: `${r.p50} ms`, p99: `${r.p99} ms` })));
  mkdirSync(".bench", { recursive: true });
  writeFileSync(".bench/results.json", JSON.stringify({ at: new Date().toISOString(), REQUESTS, CONCURRENCY, results }, null, 2));
  const errors = results.reduce((n, r) => n + r.errors, 0);
  step(`bench: done; ${results.length} scenarios, ${errors} non-200 answers; written to .bench/results.json`);
  if (errors > 0) process.exitCode = 1;
} finally {
  server.kill("SIGTERM");
}
