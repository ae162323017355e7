import { z } from "@hono/zod-openapi";
import { parseBizContent } from "../platform/biz-content";
import { bizContentBody, type DataErrorStatus, idParam } from "../platform/openapi";
import type { defineRoutes } from "../platform/route";
import { deleteEndpoint, deliveriesOfEndpoint, listEndpoints, MAX_ENDPOINTS_PER_ACCOUNT, registerEndpoint, rotateSecret } from "./webhooks";

/** The path under the group's mount: `/std/api/bigdata/taxrate/webhooks`. */
export const WEBHOOKS_PATH = "/webhooks";
const MAX_URL_LENGTH = 2048;
const MAX_COUNTRIES = 50;
const MAX_DELIVERIES = 100;

const registerParams = z.strictObject(
  {
    url: z
      .string({ error: "url is required: the https address to send taxrate.changed events to" })
      .max(MAX_URL_LENGTH, { error: `url must be at most ${MAX_URL_LENGTH} characters`, abort: true })
      .pipe(z.url({ error: "url must be an absolute URL, e.g. https://example.com/hooks/tax" }))
      .describe(`The https address the events are POSTed to, on a public host; at most ${MAX_URL_LENGTH} characters`),
    countries: z
      .array(z.string().regex(/^[A-Z]{2}$/, { error: "countries must hold upper-case ISO 3166-1 alpha-2 codes, e.g. DE" }), {
        error: 'countries must be a list of country codes, e.g. ["DE", "FR"]',
      })
      .min(1, { error: "countries must name at least one country; leave it out for all" })
      .max(MAX_COUNTRIES, { error: `countries may name at most ${MAX_COUNTRIES} countries; leave it out for all` })
      .optional()
      .describe(`ISO 3166-1 alpha-2 codes (1–${MAX_COUNTRIES}) of the countries whose changes it is sent; leave it out for every country`),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}: only url and countries` : undefined) },
);

const rotateParams = z.strictObject({}, { error: "rotate-secret takes no parameters: send bizContent {}" });

const endpointExample = {
  id: 7,
  url: "https://shop.example.com/hooks/tax",
  countries: ["DE", "FR"],
  createdAt: "2026-11-26T19:40:00.000Z",
  previousSecretUntil: null,
  disabledAt: null,
};

const endpointFields = {
  id: z.number().int().openapi({ description: "The endpoint's id" }),
  url: z.string(),
  countries: z.array(z.string()).nullable().openapi({ description: "The countries whose changes it is sent; null: every country" }),
  createdAt: z.string().openapi({ description: "UTC" }),
  previousSecretUntil: z
    .string()
    .nullable()
    .openapi({ description: "After a rotation, until when (UTC) the previous secret signs beside the new one" }),
  disabledAt: z.string().nullable().openapi({ description: "When it answered 410 Gone: nothing more is sent to it" }),
};
const endpointSchema = z.object(endpointFields).openapi("TaxWebhookEndpoint", { example: endpointExample });
const issuedSchema = z
  .object({ ...endpointFields, secret: z.string().openapi({ description: "The signing secret (`whsec_…`); shown here once, never again" }) })
  .openapi("TaxWebhookEndpointWithSecret", { example: { ...endpointExample, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7Q2nQ8S2dGs=" } });

const deliverySchema = z
  .object({
    eventId: z.string().openapi({ description: "The `webhook-id` of the event, the same on every attempt" }),
    changeId: z.number().int().openapi({ description: "The change (T12's `id`) the event carries" }),
    attempt: z.number().int(),
    status: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null when it did not answer" }),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    attemptedAt: z.string(),
    nextAttemptAt: z.string().nullable().openapi({ description: "When the next attempt is due; null when delivered, dead or disabled" }),
  })
  .openapi("TaxWebhookDelivery", {
    example: {
      eventId: "msg_2b7f4c1e9d0a4e6f8b3c5d7e9f1a2b3c",
      changeId: 1842,
      attempt: 2,
      status: 503,
      latencyMs: 231,
      error: "HTTP 503",
      attemptedAt: "2026-11-26T02:15:09.000Z",
      nextAttemptAt: "2026-11-26T02:20:09.000Z",
    },
  });

const endpointId = z.object({ id: idParam("id") });

/** T13–T17: the endpoints a key's account registers for `taxrate.changed` webhooks; another account's are 404. */
export function taxWebhookRoutes(route: ReturnType<typeof defineRoutes<DataErrorStatus>>) {
  route({
    method: "post",
    path: WEBHOOKS_PATH,
    summary: "T13 · Register an endpoint for signed taxrate.changed webhooks, of some countries or all; the secret is in this answer only",
    description:
      `An https URL on a public host (at most ${MAX_URL_LENGTH} characters) and, optionally, \`countries\` (1–${MAX_COUNTRIES}; ` +
      `without it every change is sent). At most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account (409 beyond). The endpoint ` +
      "is sent each change of the feed (T12) recorded from now on, signed as Standard Webhooks with the returned secret.",
    request: { body: bizContentBody(registerParams, { url: "https://shop.example.com/hooks/tax", countries: ["DE", "FR"] }) },
    data: issuedSchema,
    answer: "The endpoint, with its signing secret",
    errors: [400, 409, 415],
    handle: async (c) => {
      const input = await parseBizContent(c, registerParams);
      return registerEndpoint(c.get("db"), c.env, { userId: c.get("principal").userId, keyId: c.get("principal").keyId }, input);
    },
  });
  route({
    method: "get",
    path: WEBHOOKS_PATH,
    summary: "T14 · The account's webhook endpoints (without their secrets)",
    data: z.array(endpointSchema),
    answer: "Endpoints, oldest first",
    handle: (c) => listEndpoints(c.get("db"), c.get("principal").userId),
  });
  route({
    method: "delete",
    path: `${WEBHOOKS_PATH}/{id}`,
    summary: "T15 · Delete a webhook endpoint, with its events and deliveries log",
    request: { params: endpointId },
    data: z.object({ id: z.number().int(), deleted: z.literal(true) }).openapi({ example: { id: 7, deleted: true } }),
    answer: "Deleted",
    errors: [400, 404],
    handle: (c) => deleteEndpoint(c.get("db"), c.get("principal").userId, c.req.valid("param").id),
  });
  route({
    method: "post",
    path: `${WEBHOOKS_PATH}/{id}/rotate-secret`,
    summary: "T16 · A new signing secret for an endpoint, in this answer only; the previous one signs beside it for 24 h",
    request: { params: endpointId, body: bizContentBody(rotateParams, {}) },
    data: issuedSchema,
    answer: "The endpoint, with its new secret",
    errors: [400, 404, 409, 415],
    handle: async (c) => {
      await parseBizContent(c, rotateParams);
      return rotateSecret(c.get("db"), c.env, c.get("principal").userId, c.req.valid("param").id);
    },
  });
  route({
    method: "get",
    path: `${WEBHOOKS_PATH}/{id}/deliveries`,
    summary: "T17 · An endpoint's latest delivery attempts, newest first: status, latency, error, next attempt",
    request: {
      params: endpointId,
      query: z.strictObject({
        limit: z.coerce
          .number({ error: "limit must be an integer" })
          .min(1, { error: "limit must be at least 1" })
          .max(MAX_DELIVERIES, { error: `limit must be at most ${MAX_DELIVERIES}` })
          .int({ error: "limit must be an integer" })
          .default(50)
          .openapi({
            param: { name: "limit", in: "query" },
            example: 50,
            description: `How many attempts, newest first: 1–${MAX_DELIVERIES} (default 50)`,
          }),
      }),
    },
    data: z.array(deliverySchema),
    answer: "Attempts, newest first",
    errors: [400, 404],
    handle: (c) => deliveriesOfEndpoint(c.get("db"), c.get("principal").userId, c.req.valid("param").id, c.req.valid("query").limit),
  });
}
