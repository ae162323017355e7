import { z } from "zod";
import type { Plan } from "./auth/tables";
import type { Bindings } from "./env";
import { describeFailure } from "./failures";
import { logEvent } from "./logging";

/** Requests per minute by plan; `null` is unlimited. */
const perMinuteSchema = z.object({
  free: z.number().int().positive().nullable(),
  basic: z.number().int().positive().nullable(),
  enterprise: z.number().int().positive().nullable(),
  internal: z.number().int().positive().nullable(),
});

/** Requests per hour by endpoint group. */
const perHourSchema = z.record(z.string(), z.number().int().positive());

export interface RateLimits {
  perMinute: z.infer<typeof perMinuteSchema>;
  perHour: z.infer<typeof perHourSchema>;
}

export const rateLimitsOverrideSchema = z.strictObject({
  perMinute: perMinuteSchema.partial().optional(),
  perHour: perHourSchema.optional(),
});

/** The interface's figures per minute; the hourly ones are the groups' (GroupModule.hourlyLimits). `RATE_LIMITS` (JSON, same shape, partial) overrides both. */
export const DEFAULT_PER_MINUTE: RateLimits["perMinute"] = { free: 60, basic: 300, enterprise: 1000, internal: null };

// Per set of declared hourly limits (one per app), then per RATE_LIMITS text.
const parsedLimits = new WeakMap<RateLimits["perHour"], Map<string, RateLimits>>();

export function rateLimits(env: Pick<Bindings, "RATE_LIMITS">, declaredPerHour: RateLimits["perHour"]): RateLimits {
  const raw = env.RATE_LIMITS ?? "";
  let byText = parsedLimits.get(declaredPerHour);
  if (!byText) parsedLimits.set(declaredPerHour, (byText = new Map<string, RateLimits>()));
  let limits = byText.get(raw);
  if (!limits) {
    const override = raw ? rateLimitsOverrideSchema.parse(JSON.parse(raw)) : {};
    limits = {
      perMinute: { ...DEFAULT_PER_MINUTE, ...override.perMinute },
      perHour: { ...declaredPerHour, ...override.perHour },
    };
    byText.set(raw, limits);
  }
  return limits;
}

export interface RateWindow {
  name: "minute" | "hour";
  seconds: number;
  limit: number;
  /** The endpoint group an hourly limit belongs to: each group's hour is counted apart. */
  group?: string;
}

export function windowsFor(limits: RateLimits, plan: Plan, hourlyGroup: string | undefined): RateWindow[] {
  const windows: RateWindow[] = [];
  const perMinute = limits.perMinute[plan];
  if (perMinute !== null) windows.push({ name: "minute", seconds: 60, limit: perMinute });
  const perHour = hourlyGroup ? limits.perHour[hourlyGroup] : undefined;
  if (perHour !== undefined && plan !== "internal") windows.push({ name: "hour", seconds: 3600, limit: perHour, group: hourlyGroup });
  return windows;
}

interface Counter {
  windowEnd: number;
  /** What KV held at the last flush plus what this isolate has flushed since. */
  flushed: number;
  /** Counted here and not yet added to KV. */
  pending: number;
  lastFlushAt: number;
}

const FLUSH_INTERVAL_MS = 1000;
const counters = new Map<string, Counter>();

function forgetEndedWindows(now: number) {
  for (const [key, counter] of counters) if (counter.windowEnd <= now) counters.delete(key);
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Fixed windows. KV takes about one write a second per key, so each isolate counts in memory and
 * adds its share to KV at most once a second per counter; the limit can be passed by at most one
 * interval's traffic of the other isolates.
 */
export async function consumeRateLimit(
  kv: KVNamespace,
  waitUntil: (work: Promise<unknown>) => void,
  subject: string,
  windows: RateWindow[],
  now = Date.now(),
  /** Only say whether the subject is still within its limits, counting nothing. */
  peek = false,
): Promise<RateDecision> {
  if (windows.length === 0) return { allowed: true, headers: {} };
  const states = await Promise.all(
    windows.map(async (window) => {
      const size = window.seconds * 1000;
      const windowEnd = Math.floor(now / size) * size + size;
      const key = `rl:${subject}:${window.name}${window.group ? `:${window.group}` : ""}:${windowEnd}`;
      let counter = counters.get(key);
      if (!counter) {
        forgetEndedWindows(now);
        const stored = Number((await kv.get(key)) ?? 0);
        // Requests that came in together all waited for KV: the first to come back makes the counter, the others count on it.
        counter = counters.get(key) ?? { windowEnd, flushed: stored, pending: 0, lastFlushAt: 0 };
        counters.set(key, counter);
      }
      return { window, key, counter, resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)) };
    }),
  );

  const exhausted = states.filter((s) => s.counter.flushed + s.counter.pending >= s.window.limit);
  const allowed = exhausted.length === 0;
  if (allowed && !peek) {
    for (const { key, counter, window } of states) {
      counter.pending++;
      if (now - counter.lastFlushAt >= FLUSH_INTERVAL_MS) flush(kv, waitUntil, key, counter, window, now);
    }
  }

  const remaining = states.map((s) => ({ ...s, left: Math.max(0, s.window.limit - s.counter.flushed - s.counter.pending) }));
  const nearest = remaining.reduce((a, b) => (b.left < a.left ? b : a));
  const headers: Record<string, string> = {
    "RateLimit-Policy": states.map((s) => `"${s.window.name}";q=${s.window.limit};w=${s.window.seconds}`).join(", "),
    RateLimit: `"${nearest.window.name}";r=${nearest.left};t=${nearest.resetSeconds}`,
  };
  if (!allowed) headers["Retry-After"] = String(Math.max(...exhausted.map((s) => s.resetSeconds)));
  return { allowed, headers };
}

function flush(kv: KVNamespace, waitUntil: (work: Promise<unknown>) => void, key: string, counter: Counter, window: RateWindow, now: number) {
  const share = counter.pending;
  counter.pending = 0;
  counter.flushed += share;
  counter.lastFlushAt = now;
  waitUntil(
    (async () => {
      const total = Number((await kv.get(key)) ?? 0) + share;
      await kv.put(key, String(total), { expirationTtl: Math.max(60, window.seconds * 2) });
      // Other isolates' shares arrive through KV; never count below what this isolate has seen.
      counter.flushed = Math.max(counter.flushed, total);
    })().catch((error: unknown) => {
      // KV failed: the share is counted again at the next flush instead of being lost (or thrown where nobody catches it).
      counter.flushed -= share;
      counter.pending += share;
      logEvent("warn", { event: "rate-limit-flush", error: describeFailure(error).error });
    }),
  );
}
