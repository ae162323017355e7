import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, max, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { decryptSecret, encryptSecret } from "../platform/crypto";
import { type Database, database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import type { Logger } from "../platform/logging";
import { callerUrlProblem } from "../platform/outbound-url";
import {
  attemptWebhook,
  enqueueAttempt,
  enqueueFirstAttempts,
  followAttempt,
  newWebhookSecret,
  type WebhookMessage,
  type WebhookSender,
} from "../platform/webhooks";
import {
  type TaxWebhookEndpoint,
  taxRateChanges,
  taxRates,
  taxWebhookDeliveries,
  taxWebhookEndpoints,
  taxWebhookEvents,
  toRateChange,
} from "./schema";

/** The name group T's webhook messages carry. */
const TAX_WEBHOOKS = "taxrate";
export const TAXRATE_CHANGED = "taxrate.changed";
/** Endpoints one account may register: each change is one event per endpoint. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
/** After a rotation the previous secret signs too, for this long, so that a receiver can switch without losing events. */
const ROTATION_OVERLAP_MS = 24 * 3600_000;
/** Changes and endpoints one dispatch takes; the rest wait for the next (a job's own call, or the 5-minute task). */
const DISPATCH_CHANGES = 200;
const DISPATCH_ENDPOINTS = 200;
/** D1 binds at most 100 parameters per statement; an event row binds five. */
const EVENTS_PER_INSERT = 20;
/** How long a queued attempt may take before the sweep takes it for lost. */
const SWEEP_GRACE_MS = 5 * 60_000;
const SWEEP_LIMIT = 100;

const ENDPOINT_UNKNOWN = (id: number) => `No webhook endpoint with id ${id}`;

export interface EndpointOwner {
  userId: number;
  keyId: number | null;
}

/** An endpoint as its owner sees it: never its secret. */
export function endpointView(endpoint: TaxWebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    countries: endpoint.countries,
    createdAt: endpoint.createdAt,
    previousSecretUntil: endpoint.previousSecretUntil,
    disabledAt: endpoint.disabledAt,
  };
}

async function assertTarget(env: Bindings, url: string) {
  const problem = await callerUrlProblem(env, url);
  if (problem) throw new ApiError(400, `url: ${problem}`);
}

/** The countries among `codes` that have tax records: a filter on any other would never match. */
async function assertCountriesWithRates(db: Database, codes: string[]) {
  const rows = await db.selectDistinct({ code: taxRates.countryCode }).from(taxRates).where(inArray(taxRates.countryCode, codes));
  const known = new Set(rows.map((row) => row.code));
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length > 0) throw new ApiError(400, `countries: ${unknown.join(", ")} ${unknown.length === 1 ? "has" : "have"} no tax rates here`);
}

/**
 * Registers an endpoint of the caller's account; its secret is in the answer, once. It is sent
 * the changes recorded from now on. The insert counts the account's endpoints itself, so two
 * registrations at the same moment cannot pass the bound together.
 */
export async function registerEndpoint(db: Database, env: Bindings, owner: EndpointOwner, input: { url: string; countries?: string[] }) {
  await assertTarget(env, input.url);
  const countries = input.countries ? [...new Set(input.countries)].sort() : null;
  if (countries) await assertCountriesWithRates(db, countries);
  const secret = newWebhookSecret();
  const [latest] = await db.select({ id: max(taxRateChanges.id) }).from(taxRateChanges);
  const now = new Date().toISOString();
  // The columns are the table's, in its order: id, user_id, key_id, url, countries, encrypted_secret,
  // previous_encrypted_secret, previous_secret_until, after_change_id, disabled_at, created_at.
  const [endpoint] = await db
    .insert(taxWebhookEndpoints)
    .select(
      sql`SELECT NULL, ${owner.userId}, ${owner.keyId}, ${input.url}, ${countries ? JSON.stringify(countries) : null},
        ${await encryptSecret(secret, env.KEY_ENCRYPTION_KEY)}, NULL, NULL, ${latest?.id ?? 0}, NULL, ${now}
        WHERE (SELECT count(*) FROM ${taxWebhookEndpoints} WHERE ${taxWebhookEndpoints.userId} = ${owner.userId}) < ${MAX_ENDPOINTS_PER_ACCOUNT}`,
    )
    .returning();
  if (!endpoint) {
    throw new ApiError(409, `An account may register at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one before adding another`);
  }
  return { ...endpointView(endpoint), secret };
}

export async function listEndpoints(db: Database, userId: number) {
  const rows = await db.select().from(taxWebhookEndpoints).where(eq(taxWebhookEndpoints.userId, userId)).orderBy(asc(taxWebhookEndpoints.id));
  return rows.map(endpointView);
}

/** Another account's endpoint is as unknown as one that does not exist. */
async function ownEndpoint(db: Database, userId: number, id: number): Promise<TaxWebhookEndpoint> {
  const [endpoint] = await db
    .select()
    .from(taxWebhookEndpoints)
    .where(and(eq(taxWebhookEndpoints.id, id), eq(taxWebhookEndpoints.userId, userId)))
    .limit(1);
  if (!endpoint) throw new ApiError(404, ENDPOINT_UNKNOWN(id));
  return endpoint;
}

/** Deletes the endpoint with its events and their deliveries log; attempts already queued find nothing and stop. */
export async function deleteEndpoint(db: Database, userId: number, id: number) {
  const deleted = await db
    .delete(taxWebhookEndpoints)
    .where(and(eq(taxWebhookEndpoints.id, id), eq(taxWebhookEndpoints.userId, userId)))
    .returning({ id: taxWebhookEndpoints.id });
  if (deleted.length === 0) throw new ApiError(404, ENDPOINT_UNKNOWN(id));
  return { id, deleted: true as const };
}

/** A new secret, in the answer once; the previous one signs beside it for a day. */
export async function rotateSecret(db: Database, env: Bindings, userId: number, id: number) {
  const endpoint = await ownEndpoint(db, userId, id);
  const secret = newWebhookSecret();
  const previousSecretUntil = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
  const [rotated] = await db
    .update(taxWebhookEndpoints)
    .set({
      encryptedSecret: await encryptSecret(secret, env.KEY_ENCRYPTION_KEY),
      previousEncryptedSecret: endpoint.encryptedSecret,
      previousSecretUntil,
    })
    // Two rotations at once: the second finds the secret changed and answers 409 rather than dropping the first's.
    .where(and(eq(taxWebhookEndpoints.id, id), eq(taxWebhookEndpoints.encryptedSecret, endpoint.encryptedSecret)))
    .returning();
  if (!rotated) throw new ApiError(409, "The secret was rotated by another request at the same moment; list the endpoint and rotate again if needed");
  return { ...endpointView(rotated), secret };
}

/** The endpoint's latest attempts, newest first. */
export async function deliveriesOfEndpoint(db: Database, userId: number, id: number, limit: number) {
  const endpoint = await ownEndpoint(db, userId, id);
  const rows = await db
    .select({ delivery: taxWebhookDeliveries, changeId: taxWebhookEvents.changeId })
    .from(taxWebhookDeliveries)
    .innerJoin(taxWebhookEvents, eq(taxWebhookEvents.id, taxWebhookDeliveries.eventId))
    .where(eq(taxWebhookDeliveries.endpointId, endpoint.id))
    .orderBy(desc(taxWebhookDeliveries.id))
    .limit(limit);
  return rows.map(({ delivery, changeId }) => ({
    eventId: delivery.eventId,
    changeId,
    attempt: delivery.attempt,
    status: delivery.status,
    latencyMs: delivery.latencyMs,
    error: delivery.error,
    attemptedAt: delivery.attemptedAt,
    nextAttemptAt: delivery.nextAttemptAt,
  }));
}

const newEventId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * Turns the change feed's new changes into events, one per endpoint whose countries match, and
 * queues their first attempts. Each endpoint keeps how far it has been served (`afterChangeId`),
 * and a change is one event per endpoint (a unique index), so two dispatches at once send nothing twice.
 * Bounded per call; returns how many events it wrote, and whether changes remain.
 */
export async function dispatchRateChanges(db: Database, env: Bindings): Promise<{ events: number; more: boolean }> {
  const [latest] = await db.select({ id: max(taxRateChanges.id) }).from(taxRateChanges);
  const newest = latest?.id ?? 0;
  const endpoints = await db
    .select({ id: taxWebhookEndpoints.id, countries: taxWebhookEndpoints.countries, afterChangeId: taxWebhookEndpoints.afterChangeId })
    .from(taxWebhookEndpoints)
    .where(and(lt(taxWebhookEndpoints.afterChangeId, newest), isNull(taxWebhookEndpoints.disabledAt)))
    .orderBy(asc(taxWebhookEndpoints.afterChangeId))
    .limit(DISPATCH_ENDPOINTS + 1);
  if (endpoints.length === 0) return { events: 0, more: false };
  const changes = await db
    .select()
    .from(taxRateChanges)
    .where(and(gt(taxRateChanges.id, endpoints[0]!.afterChangeId), lte(taxRateChanges.id, newest)))
    .orderBy(asc(taxRateChanges.id))
    .limit(DISPATCH_CHANGES);
  const until = changes.length === DISPATCH_CHANGES ? changes.at(-1)!.id : newest;
  const served = endpoints.slice(0, DISPATCH_ENDPOINTS).filter((endpoint) => endpoint.afterChangeId < until);

  const createdAt = new Date().toISOString();
  const rows = served.flatMap((endpoint) =>
    changes
      .filter((change) => change.id > endpoint.afterChangeId && change.id <= until)
      .filter((change) => !endpoint.countries || endpoint.countries.includes(change.countryCode))
      .map((change) => ({
        id: newEventId(),
        endpointId: endpoint.id,
        changeId: change.id,
        payload: JSON.stringify({ type: TAXRATE_CHANGED, timestamp: createdAt, data: toRateChange(change) }),
        createdAt,
      })),
  );
  const statements: BatchItem<"sqlite">[] = [];
  for (let start = 0; start < rows.length; start += EVENTS_PER_INSERT) {
    statements.push(
      db
        .insert(taxWebhookEvents)
        .values(rows.slice(start, start + EVENTS_PER_INSERT))
        .onConflictDoNothing()
        .returning({ id: taxWebhookEvents.id }),
    );
  }
  const moved = db
    .update(taxWebhookEndpoints)
    .set({ afterChangeId: until })
    .where(
      and(
        inArray(
          taxWebhookEndpoints.id,
          served.map((endpoint) => endpoint.id),
        ),
        lt(taxWebhookEndpoints.afterChangeId, until),
      ),
    );
  // The events and the endpoints' progress are written together: a failure leaves both as they were.
  const results = await db.batch([moved, ...statements]);
  const written = (results.slice(1) as { id: string }[][]).flat().map((row) => row.id);
  await enqueueFirstAttempts(env, TAX_WEBHOOKS, written);
  return { events: written.length, more: until < newest || endpoints.length > DISPATCH_ENDPOINTS };
}

/** After a refresh job stored its changes: their events, off the request path; what is left goes to the 5-minute task. */
export async function dispatchAfterJob(db: Database, env: Bindings): Promise<void> {
  for (let round = 0; round < 5 && (await dispatchRateChanges(db, env)).more; round++);
}

/**
 * Every 5 minutes: the changes not yet dispatched (the seed, a fix by hand, a job whose dispatch
 * failed), then the events whose queue message was lost (a failed send, a consumer that died).
 */
export async function sweepTaxWebhooks(env: Bindings, log: Logger) {
  const db = database(env);
  const { events } = await dispatchRateChanges(db, env);
  const cutoff = new Date(Date.now() - SWEEP_GRACE_MS).toISOString();
  const { results: due } = await env.DB.prepare(
    `SELECT e.id AS id, COALESCE(MAX(d.attempt), 0) AS attempts, MAX(d.next_attempt_at) AS next
       FROM tax_webhook_events e LEFT JOIN tax_webhook_deliveries d ON d.event_id = e.id
      WHERE e.outcome IN ('pending', 'retrying') AND e.created_at < ?1
      GROUP BY e.id
     HAVING (attempts = 0) OR (next IS NOT NULL AND next < ?1)
      LIMIT ?2`,
  )
    .bind(cutoff, SWEEP_LIMIT)
    .all<{ id: string; attempts: number }>();
  for (const event of due) await enqueueAttempt(env, { sender: TAX_WEBHOOKS, eventId: event.id, attempt: event.attempts + 1, notBefore: Date.now() });
  if (events + due.length > 0) log.info({ sweep: "tax-webhooks", dispatched: events, requeued: due.length });
  return { dispatched: events, requeued: due.length };
}

const OPEN = ["pending", "retrying"] as const;

/** One attempt of one event: delivered, retried on the schedule, dead after the tenth, or the endpoint disabled by a 410. */
async function attemptTaxWebhook(db: Database, env: Bindings, message: WebhookMessage): Promise<void> {
  const [row] = await db
    .select({ event: taxWebhookEvents, endpoint: taxWebhookEndpoints })
    .from(taxWebhookEvents)
    .innerJoin(taxWebhookEndpoints, eq(taxWebhookEndpoints.id, taxWebhookEvents.endpointId))
    .where(eq(taxWebhookEvents.id, message.eventId))
    .limit(1);
  // Deleted with its endpoint, or settled already (a duplicate message).
  if (!row || !OPEN.some((open) => open === row.event.outcome)) return;
  const { event, endpoint } = row;
  if (endpoint.disabledAt) {
    await db.update(taxWebhookEvents).set({ outcome: "disabled" }).where(eq(taxWebhookEvents.id, event.id));
    return;
  }
  const attempt = await attemptWebhook(env, message, {
    url: endpoint.url,
    urlField: "url",
    secrets: async () => {
      const inOverlap = endpoint.previousEncryptedSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date().toISOString();
      const sealed = inOverlap ? [endpoint.encryptedSecret, endpoint.previousEncryptedSecret!] : [endpoint.encryptedSecret];
      return Promise.all(sealed.map((secret) => decryptSecret(secret, env.KEY_ENCRYPTION_KEY)));
    },
    eventId: event.id,
    body: event.payload,
  });
  await db.batch([
    db.insert(taxWebhookDeliveries).values({
      eventId: event.id,
      endpointId: endpoint.id,
      attempt: message.attempt,
      status: attempt.status,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      attemptedAt: attempt.attemptedAt,
      nextAttemptAt: attempt.nextAttemptAt,
    }),
    // A duplicate attempt that failed does not undo one that delivered.
    db
      .update(taxWebhookEvents)
      .set({ outcome: attempt.outcome })
      .where(and(eq(taxWebhookEvents.id, event.id), inArray(taxWebhookEvents.outcome, OPEN))),
    ...(attempt.outcome === "disabled"
      ? [db.update(taxWebhookEndpoints).set({ disabledAt: attempt.attemptedAt }).where(eq(taxWebhookEndpoints.id, endpoint.id))]
      : []),
  ]);
  await followAttempt(env, message, attempt);
}

export const taxWebhooks: WebhookSender = { name: TAX_WEBHOOKS, attempt: attemptTaxWebhook };
