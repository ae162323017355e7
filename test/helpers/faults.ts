import { env } from "cloudflare:test";
import { expect } from "vitest";
import { callWorker } from "./requests";

/** The bindings whose calls can be made to fail: D1, KV, the R2 buckets and the queues. */
export type Part = "DB" | "KV" | "THEMES" | "MEDIA" | "WEBHOOKS" | "WEBHOOKS_DLQ" | "PICKUPS";
const PARTS: readonly Part[] = ["DB", "KV", "THEMES", "MEDIA", "WEBHOOKS", "WEBHOOKS_DLQ", "PICKUPS"];

/** The errors the real bindings throw when their backend fails, as Cloudflare words them. */
const FAILURES: Record<Part, string> = {
  DB: "D1_ERROR: Network connection lost.",
  KV: "KV PUT failed: 500 Internal Server Error",
  THEMES: "put: We encountered an internal error. Please try again. (10001)",
  MEDIA: "put: We encountered an internal error. Please try again. (10001)",
  WEBHOOKS: "Queue send failed: Internal Server Error",
  WEBHOOKS_DLQ: "Queue send failed: Internal Server Error",
  PICKUPS: "Queue send failed: Internal Server Error",
};

const REAL = Symbol("the real D1 statement");
type Wrapped<T> = T & { [REAL]?: T };

/** `select "x" from "api_keys" …` → `select api_keys`: enough to name the operation in a failure message. */
function sqlLabel(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? "sql";
  const table = /\b(?:from|into|update)\s+"?(\w+)"?/i.exec(sql)?.[1] ?? "";
  return `${verb} ${table}`.trim();
}

/**
 * One run of a request or job with its storage bindings wrapped: every call to D1, KV, R2 or a
 * queue is counted, and the one at `failAt` (counting from 0) throws the error the real binding
 * throws. `seen` names each call in order; `failed` names the one that failed, if the run got that far.
 */
export class Faults {
  readonly seen: string[] = [];
  failed: string | undefined;
  readonly env: Cloudflare.Env;

  constructor(
    private readonly failAt: number | undefined = undefined,
    parts: readonly Part[] = PARTS,
  ) {
    const wrapped: Cloudflare.Env = { ...env };
    for (const part of parts) {
      if (part === "DB") wrapped.DB = this.database(env.DB);
      else Object.assign(wrapped, { [part]: this.binding(part, env[part]) });
    }
    this.env = wrapped;
  }

  /** Records a call, and throws when it is the one planned to fail. */
  private step(part: Part, label: string): void {
    const index = this.seen.push(`${part} ${label}`) - 1;
    if (index !== this.failAt) return;
    this.failed = this.seen[index];
    throw new Error(FAILURES[part]);
  }

  /** A KV namespace, bucket or queue: each of its methods is one call. */
  private binding<T extends object>(part: Part, target: T): T {
    return new Proxy(target, {
      get: (object, name) => {
        const value: unknown = Reflect.get(object, name, object);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          this.step(part, `${String(name)}${typeof args[0] === "string" ? ` ${args[0]}` : ""}`);
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  }

  /** D1, its sessions and its statements: a statement's first/all/run/raw and a batch are one call each. */
  private database<T extends D1Database | D1DatabaseSession>(target: T): T {
    return new Proxy(target, {
      get: (object, name) => {
        if (name === "prepare") return (sql: string) => this.statement(object.prepare(sql), sqlLabel(sql));
        if (name === "batch") {
          return (statements: Wrapped<D1PreparedStatement>[]) => {
            this.step("DB", `batch of ${statements.length}`);
            return object.batch(statements.map((statement) => statement[REAL] ?? statement));
          };
        }
        if (name === "withSession" && "withSession" in object) {
          return (constraint?: string) => this.database(object.withSession(constraint));
        }
        if (name === "exec") return (sql: string) => (this.step("DB", `exec ${sqlLabel(sql)}`), (object as D1Database).exec(sql));
        const value: unknown = Reflect.get(object, name, object);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(object) : value;
      },
    });
  }

  private statement(target: D1PreparedStatement, label: string): Wrapped<D1PreparedStatement> {
    return new Proxy(target, {
      get: (object, name) => {
        if (name === REAL) return object;
        if (name === "bind") return (...values: unknown[]) => this.statement(object.bind(...values), label);
        const value: unknown = Reflect.get(object, name, object);
        if (typeof value !== "function") return value;
        if (name === "first" || name === "all" || name === "run" || name === "raw") {
          return (...args: unknown[]) => {
            this.step("DB", label);
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(object);
      },
    });
  }

  /** The Worker's answer to `request`, with this run's bindings, after its `waitUntil` work is done. */
  fetch(input: string, init?: RequestInit): Promise<Response> {
    return callWorker(input, init, this.env);
  }
}

/**
 * Runs `run` once with each storage call failing in turn (the first, then the second, …) until a
 * run makes fewer calls than the index to fail: every call the work makes has failed once. Returns
 * the calls that failed, in order, for the test to assert over or print.
 */
export async function forEachFault(run: (faults: Faults) => Promise<void>, parts: readonly Part[] = PARTS, most = 200): Promise<string[]> {
  const failed: string[] = [];
  for (let index = 0; index < most; index++) {
    const faults = new Faults(index, parts);
    await run(faults);
    if (faults.failed === undefined) return failed;
    failed.push(faults.failed);
  }
  throw new Error(`the work made more than ${most} storage calls`);
}

/**
 * A run cut short by a failing part, as the caller sees it: 503 with `Retry-After`, the message in
 * the group's envelope, and nothing of the failure itself (no 500, no binding error, no stack).
 */
export async function expectRetryLater<T>(res: Response): Promise<T> {
  expect(res.status, `answered ${res.status}: ${await res.clone().text()}`).toBe(503);
  expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  const text = await res.text();
  expect(text).not.toMatch(/Internal server error|D1_ERROR|failed:|\(10001\)|\bat \S+ \(|\.ts:\d+/);
  return JSON.parse(text) as T;
}
