import { fromBase64, toBase64 } from "./crypto";
import { type Database, database } from "./database";
import type { Bindings } from "./env";
import type { QueueConsumer } from "./group";
import { logEvent } from "./logging";
import { callerUrlProblem } from "./outbound-url";

/**
 * Standard Webhooks delivery, shared by the groups that send webhooks: signing, the retry
 * schedule, the attempt itself, and the `gateway-webhooks` queue that carries every attempt. A
 * group keeps its events and deliveries log in its own tables and declares a `WebhookSender`
 * (GroupModule.webhookSenders); each queue message names its sender.
 */

export const WEBHOOK_QUEUE = "gateway-webhooks";

/** Seconds before attempt n+1 (Standard Webhooks' schedule): now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
const ATTEMPT_TIMEOUT_MS = 15_000;
/** A queue takes at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

export interface WebhookMessage {
  /** The sender (a group's `WebhookSender.name`) whose event this is. */
  sender: string;
  eventId: string;
  attempt: number;
  /** Epoch ms before which the attempt must not be made; longer waits than a queue delay hop. */
  notBefore: number;
}

/** A group's webhooks: it makes one attempt of one of its events (`attemptWebhook`) and records it. */
export interface WebhookSender {
  name: string;
  attempt(db: Database, env: Bindings, message: WebhookMessage): Promise<void>;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the secret's bytes after `whsec_`. */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", fromBase64(secret.replace(/^whsec_/, "")), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(signature)}`;
}

/** A Standard Webhooks secret: `whsec_` and base64 of 32 random bytes (the spec allows 24 to 64). */
export const newWebhookSecret = () => `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;

/** Up to 10% either way, so that retries of many failed deliveries do not arrive together. */
const withJitter = (seconds: number) => Math.round(seconds * (0.9 + Math.random() * 0.2));

function retryAfterSeconds(header: string | null): number {
  if (!header) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 0 : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export async function enqueueAttempt(env: Bindings, message: WebhookMessage) {
  const delaySeconds = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil((message.notBefore - Date.now()) / 1000)));
  await env.WEBHOOKS.send(message, { delaySeconds });
}

/** Queues the first attempt of events already stored; a failed send is left to the sender's sweep, which finds them unattempted. */
export async function enqueueFirstAttempts(env: Bindings, sender: string, eventIds: string[]): Promise<void> {
  for (let start = 0; start < eventIds.length; start += SEND_BATCH) {
    const messages = eventIds.slice(start, start + SEND_BATCH).map((eventId) => ({
      body: { sender, eventId, attempt: 1, notBefore: Date.now() } satisfies WebhookMessage,
    }));
    try {
      await env.WEBHOOKS.sendBatch(messages);
    } catch (error) {
      logEvent("warn", { sender, webhooks: messages.length, error: `queue send failed; the outbox sweep will retry: ${String(error)}` });
    }
  }
}

export interface WebhookTarget {
  url: string;
  /** The field the URL came from, named in the error when the URL is refused at delivery. */
  urlField: string;
  /** The `whsec_` secret (or secrets, during a rotation: each signs), read only when the URL passed. */
  secrets: () => Promise<string[]>;
  eventId: string;
  body: string;
}

/** One attempt as the deliveries log keeps it, and what comes next. */
export interface WebhookAttempt {
  status: number | null;
  error: string | null;
  latencyMs: number;
  attemptedAt: string;
  /** `disabled`: the receiver answered 410 Gone, nothing more goes to it. */
  outcome: "delivered" | "retrying" | "dead" | "disabled";
  nextAttemptAt: string | null;
}

/**
 * Posts the event, signed, to its target: redirects are not followed, 15 s at most, the URL checked
 * again (a name may point elsewhere since it was registered). Only the status is kept: what a
 * receiver answers is never stored or shown, so a webhook cannot be used to read another server.
 */
export async function attemptWebhook(env: Bindings, message: WebhookMessage, target: WebhookTarget): Promise<WebhookAttempt> {
  const started = Date.now();
  const timestamp = Math.floor(started / 1000);
  let status: number | null = null;
  let error: string | null = null;
  let retryAfter = 0;
  try {
    const problem = await callerUrlProblem(env, target.url);
    if (problem) throw new Error(`${target.urlField}: ${problem}`);
    const signatures = await Promise.all((await target.secrets()).map((secret) => signWebhook(secret, target.eventId, timestamp, target.body)));
    const res = await fetch(target.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "webhook-id": target.eventId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatures.join(" "),
      },
      body: target.body,
    });
    status = res.status;
    await res.body?.cancel();
    retryAfter = retryAfterSeconds(res.headers.get("Retry-After"));
  } catch (failure) {
    error =
      failure instanceof Error && failure.name === "TimeoutError"
        ? "timed out after 15 s"
        : failure instanceof Error
          ? failure.message
          : String(failure);
  }
  const delivered = status !== null && status >= 200 && status < 300;
  const gone = status === 410;
  const last = message.attempt >= RETRY_SCHEDULE_SECONDS.length;
  const next = !delivered && !gone && !last ? Date.now() + 1000 * Math.max(withJitter(RETRY_SCHEDULE_SECONDS[message.attempt]!), retryAfter) : null;
  return {
    status,
    error:
      error ?? (status !== null && !delivered ? (status >= 300 && status < 400 ? `redirect to ${status} not followed` : `HTTP ${status}`) : null),
    latencyMs: Date.now() - started,
    attemptedAt: new Date().toISOString(),
    outcome: delivered ? "delivered" : gone ? "disabled" : last ? "dead" : "retrying",
    nextAttemptAt: next ? new Date(next).toISOString() : null,
  };
}

/** After the attempt is recorded: the next one queued, or the message given up to the dead-letter queue. */
export async function followAttempt(env: Bindings, message: WebhookMessage, attempt: WebhookAttempt): Promise<void> {
  if (attempt.nextAttemptAt) await enqueueAttempt(env, { ...message, attempt: message.attempt + 1, notBefore: Date.parse(attempt.nextAttemptAt) });
  if (attempt.outcome === "dead") {
    await env.WEBHOOKS_DLQ.send(message);
    logEvent("warn", { sender: message.sender, webhook: message.eventId, outcome: "dead", attempts: message.attempt });
  }
}

/**
 * The consumer of `gateway-webhooks`: each message goes to the sender it names, and each attempt
 * schedules its own successor, so a message is always acknowledged. A message no sender claims
 * (one queued before messages named their sender) is dropped: its sender's sweep queues the event again.
 */
export function webhookConsumer(senders: WebhookSender[]): QueueConsumer {
  return {
    queue: WEBHOOK_QUEUE,
    async consume(batch, env, log) {
      for (const message of (batch as MessageBatch<WebhookMessage>).messages) {
        const sender = senders.find((candidate) => candidate.name === message.body.sender);
        // A wait longer than a queue delay goes on in hops.
        if (message.body.notBefore > Date.now() + 1000) await enqueueAttempt(env, message.body);
        else if (sender) await sender.attempt(database(env), env, message.body);
        else log.warn({ message: message.id, error: `no webhook sender named ${String(message.body.sender)}; left to the outbox sweep` });
        message.ack();
      }
    },
  };
}
