import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { addExamples } from "./platform/api-reference/examples";
import { referencePage } from "./platform/api-reference/page";
import { accessPolicy } from "./platform/auth/access-policy";
import { declareScopeResources } from "./platform/auth/scopes";
import type { AppEnv } from "./platform/env";
import { ApiError, handleError, handleNotFound, methodNotAllowed, respondWithError } from "./platform/errors";
import { type GroupModule, type SecurityScheme, type Surface, surfaceResolver } from "./platform/group";
import { drainBody, requestContext } from "./platform/request-context";
import { securityHeaders } from "./platform/security-headers";
import { checkSettings, settingsSchemasOf } from "./platform/settings";

/** 1 MiB: no JSON or form request of the interface comes near it; a group names its exceptions. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Refuses a body over `maxSize`: by its Content-Length, or, sent without one (chunked), by counting it
 * as it is read, the rest then read and dropped too (hono's bodyLimit leaves it unread and its reader
 * held, and the caller's next request on the connection fails: "Your worker restarted mid-request").
 */
function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  const limit = maxSize % (1024 * 1024) === 0 ? `${maxSize / (1024 * 1024)} MB` : `${maxSize} bytes`;
  const tooLarge = () => new ApiError(413, `Request body is larger than ${limit}, the most this takes`);
  return async (c, next) => {
    const body = c.req.raw.body;
    const declared = c.req.raw.headers.has("Transfer-Encoding") ? undefined : c.req.header("Content-Length");
    if (!body || declared !== undefined) {
      if (Number(declared) > maxSize) throw tooLarge();
      return next();
    }
    // Workers type a request's body as ReadableStream<any>; its chunks are bytes.
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.byteLength;
      if (size > maxSize) {
        await drainBody(reader, size);
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
    const whole = new Uint8Array(size);
    chunks.reduce((at, chunk) => (whole.set(chunk, at), at + chunk.byteLength), 0);
    c.req.raw = new Request(c.req.raw, { body: whole });
    return next();
  };
}

/** Builds the service from its groups: each group's surfaces, access rules, body limits and router. */
export function createApp(groups: GroupModule[], fallbackSurfaces: Surface[] = []) {
  const app = new OpenAPIHono<AppEnv>();
  const envelopeFor = surfaceResolver([...fallbackSurfaces, ...groups.flatMap((g) => g.surfaces)], "data");
  const settingsSchemas = settingsSchemasOf(groups);
  // A path of a group's bodyLimits may hold `*` for one segment (an id): /admin/api/tenants/*/media.
  const bodyLimits = groups
    .flatMap((g) => Object.entries(g.bodyLimits ?? {}))
    .map(([path, bytes]) => ({
      pattern: new RegExp(
        `^${path
          .split("*")
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^/]+")}$`,
      ),
      limit: limitBody(bytes),
    }));
  const bodyLimitOf = (path: string) => bodyLimits.find((b) => b.pattern.test(path))?.limit ?? defaultBodyLimit;
  const defaultBodyLimit = limitBody(MAX_BODY_BYTES);

  const surface: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set("envelope", envelopeFor(c.req.path));
    const settings = checkSettings(c.env, settingsSchemas);
    if (!settings.ok) return respondWithError(c, 503, `service misconfigured: ${settings.name}`);
    await next();
  };

  const hostSites = groups.flatMap((g) => (g.hostSites ? [g.hostSites] : []));
  // A host that names a tenant's site is that site, whatever the path: its pages, not the API.
  const siteDispatch: MiddlewareHandler<AppEnv> = async (c, next) => {
    for (const sites of hostSites) {
      const siteId = await sites.siteFor(c);
      if (siteId !== null) {
        c.set("envelope", "html");
        return sites.serve(siteId, c);
      }
      const unclaimed = sites.unclaimed?.(c);
      if (unclaimed) return unclaimed;
    }
    await next();
  };

  // Settings are checked (surface) before a site is served, as before any API answer.
  app.use("*", requestContext, securityHeaders, surface, siteDispatch);
  const bodyLimitOfPath: MiddlewareHandler<AppEnv> = (c, next) => bodyLimitOf(c.req.path)(c, next);
  app.use("*", bodyLimitOfPath);
  const scopes = groups.flatMap((g) => g.scopes ?? []);
  declareScopeResources(scopes);
  app.use(
    "*",
    accessPolicy(
      groups.flatMap((g) => g.access.map((rule) => ({ group: g.name, ...rule }))),
      {
        credentials: Object.fromEntries(groups.flatMap((g) => Object.entries(g.credentials ?? {}))),
        hourlyLimits: Object.fromEntries(groups.flatMap((g) => Object.entries(g.hourlyLimits ?? {}))),
        scopes,
      },
    ),
  );
  app.onError(handleError);
  const methodsOf = routeMethods(app);
  app.notFound((c) => {
    const allowed = methodsOf(c.req.path);
    return allowed.length > 0 ? methodNotAllowed(c, allowed) : handleNotFound(c);
  });

  // The document and its reference page are made from the whole app's registry when first asked for, once per isolate and origin.
  const references = new Map<string, { document: OpenAPIObject; page: string }>();
  const referenceOf = (c: Context<AppEnv>) => {
    const origin = new URL(c.req.url).origin;
    let reference = references.get(origin);
    if (!reference) {
      const document = app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: { title: "Edge gateway", version: c.env.BUILD_VERSION, description: `The gateway's groups: ${groups.map((g) => g.title).join("; ")}.` },
        servers: [{ url: origin }],
      });
      addExamples(document);
      reference = { document, page: referencePage(document, origin) };
      references.set(origin, reference);
    }
    return reference;
  };
  app.get("/openapi.json", (c) => c.json(referenceOf(c).document));
  // `/docs/` as well: a typed or pasted address with its slash must not be a 404.
  app.on("GET", ["/docs", "/docs/"], (c) => c.html(referenceOf(c).page));

  app.use("*", async (c: Context<AppEnv>, next) => {
    c.set("api", { document: () => referenceOf(c).document, dispatch: (request) => Promise.resolve(app.fetch(request, c.env, c.executionCtx)) });
    await next();
  });
  for (const group of groups) app.route(group.mount, group.router());

  registerSecuritySchemes(app, groups);
  return app;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * The methods the app's routes take on a path, for a request no route took: a router of the routes
 * alone (no middleware), made at the first such request, when every group's routes are in.
 */
function routeMethods(app: OpenAPIHono<AppEnv>): (path: string) => string[] {
  let router: TrieRouter<true> | undefined;
  const routesAlone = () => {
    const made = new TrieRouter<true>();
    for (const route of app.routes) if (route.method !== "ALL") made.add(route.method, route.path, true);
    return made;
  };
  return (path) => {
    const routes = (router ??= routesAlone());
    const takes = (method: string) => routes.match(method, path)[0].length > 0;
    // Hono answers HEAD with a GET route.
    return METHODS.filter((method) => takes(method) || (method === "HEAD" && takes("GET")));
  };
}

/** The platform credentials' schemes (data-key, bearer), then those the groups declare. */
function registerSecuritySchemes(app: OpenAPIHono<AppEnv>, groups: GroupModule[]) {
  const header = (name: string, description: string): SecurityScheme => ({ type: "apiKey", in: "header", name, description });
  const schemes: Record<string, SecurityScheme> = {
    DataKey: header("X-API-Key", "A data-service key, svc_sk_…, for groups T, I and O (a tenant key, svc_tk_…, is TenantKey)"),
    DataSecret: header("X-API-Secret", "The data-service key's secret, svc_ss_… (or sign the request instead)"),
    SignatureTimestamp: header("X-Timestamp", "Signed requests: epoch milliseconds, within 300 s of server time"),
    SignatureNonce: header("X-Nonce", "Signed requests: a fresh random string, accepted once"),
    Signature: header(
      "X-Signature",
      "Signed requests: lowercase hex HMAC-SHA256 of the signing string; with X-Signature-Version: 2 the string starts with the method and path (docs/authentication.md)",
    ),
    ...Object.fromEntries(groups.flatMap((g) => Object.entries(g.securitySchemes ?? {}))),
    Bearer: { type: "http", scheme: "bearer", description: "An API key (svc_sk_…) or the service's JWT from the login" },
  };
  for (const [name, scheme] of Object.entries(schemes)) app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
}
