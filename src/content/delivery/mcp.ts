import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { scopeAllows } from "../../platform/auth/scopes";
import type { AppEnv } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { mcpEndpoint } from "../../platform/mcp/endpoint";
import type { McpResources, McpService } from "../../platform/mcp/server";
import { operationTool, type OperationTool } from "../../platform/mcp/operations";
import { createRouter } from "../../platform/openapi";
import { TENANT_ENVELOPE } from "../../platform/route";
import { contents, sites } from "../schema";
import { SKILLS_BASE_PATH } from "../skills/routes";
import { inTenant, keyScope, siteForReaders, type TenantScope } from "../tenancy/scope";
import { isPublic, listPublished } from "./service";

export const MCP_PATH = "/api/mcp";

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const model = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** C1–C7 as tools: each one the REST operation it names, its schemas taken from the document the routes write. */
const TOOLS = [
  { method: "get", path: `${MCP_PATH}/contents`, name: "list_contents", title: "List or search a site's published contents", annotations: readOnly },
  { method: "get", path: `${MCP_PATH}/contents/{id}`, name: "get_content", title: "Read one published content", annotations: readOnly },
  { method: "get", path: `${MCP_PATH}/categories/tree`, name: "category_tree", title: "A site's category tree", annotations: readOnly },
  { method: "get", path: `${MCP_PATH}/site/info`, name: "site_info", title: "A site's information, SEO defaults and menus", annotations: readOnly },
  {
    method: "post",
    path: `${SKILLS_BASE_PATH}/generate/article`,
    name: "generate_article",
    title: "Write an article and save it as a draft",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  { method: "post", path: `${SKILLS_BASE_PATH}/generate/summary`, name: "summarize", title: "Summarise a text", annotations: readOnly },
  { method: "post", path: `${SKILLS_BASE_PATH}/translate`, name: "translate", title: "Translate a text", annotations: model },
] as const;

// Made once per document (per isolate and origin).
const toolsOf = new WeakMap<OpenAPIObject, OperationTool[]>();
function contentTools(document: OpenAPIObject): OperationTool[] {
  let tools = toolsOf.get(document);
  if (!tools) toolsOf.set(document, (tools = TOOLS.map((t) => operationTool(document, t.method, t.path, t))));
  return tools;
}

/** `content://<site>/<language>/<slug>`: the address of the content's page on its site, under the site's slug. */
const RESOURCE_URI = /^content:\/\/([a-z0-9-]+)\/([a-zA-Z-]{2,5})\/([^/?#]+)$/;
const resourceUri = (site: string, language: string, slug: string) => `content://${site}/${language}/${slug}`;
const RESOURCE_PAGE = 100;

/** The sites a key reads, in id order. */
async function readableSites(c: Context<AppEnv>, scope: TenantScope) {
  const rows = await c.get("db").select({ id: sites.id, slug: sites.slug }).from(sites).where(inTenant(sites.tenantId, scope)).orderBy(sites.id);
  return rows.filter((site) => !scope.siteIds || scope.siteIds.includes(site.id));
}

/** A site's published contents as Markdown resources; the list pages one site at a time (`<site index>.<page>`). */
function contentResources(c: Context<AppEnv>): McpResources {
  const scope = () => {
    if (!scopeAllows(c.get("principal").scopes, "content:read")) throw new ApiError(403, "Insufficient permission: requires scope content:read");
    return keyScope(c.get("principal"));
  };
  return {
    templates: [
      {
        uriTemplate: "content://{site}/{language}/{slug}",
        name: "content",
        title: "A published content as Markdown",
        description: "A published content of one of the key's sites: the site's slug, the content's language and slug (its page's address)",
        mimeType: "text/markdown",
      },
    ],
    list: async (cursor) => {
      const keyScoped = scope();
      const [index, page] = (cursor ?? "0.1").split(".").map(Number);
      const all = await readableSites(c, keyScoped);
      const listed = all[index ?? 0];
      if (!listed || !Number.isInteger(page) || page! < 1) return { resources: [] };
      const site = await siteForReaders(c.get("db"), keyScoped, listed.id);
      const found = await listPublished(c.get("db"), keyScoped, site, { page: page!, size: RESOURCE_PAGE }, new Date().toISOString());
      const next = page! * RESOURCE_PAGE < found.total ? `${index}.${page! + 1}` : all[index! + 1] ? `${index! + 1}.1` : undefined;
      return {
        resources: found.items.map((item) => ({
          uri: resourceUri(site.slug, item.language, item.slug),
          name: `${site.slug}/${item.language}/${item.slug}`,
          title: item.title,
          description: item.intro,
          mimeType: "text/markdown",
        })),
        ...(next ? { nextCursor: next } : {}),
      };
    },
    read: async (uri) => {
      const keyScoped = scope();
      const [, siteSlug, language, slug] = RESOURCE_URI.exec(uri) ?? [];
      if (!siteSlug || !language || !slug) throw new ApiError(400, `${uri} is not a content address: content://<site>/<language>/<slug>`);
      const site = (await readableSites(c, keyScoped)).find((s) => s.slug === siteSlug);
      const [content] = site
        ? await c
            .get("db")
            .select({ title: contents.title, bodyMarkdown: contents.bodyMarkdown })
            .from(contents)
            .where(
              inTenant(
                contents.tenantId,
                keyScoped,
                and(eq(contents.siteId, site.id), eq(contents.language, language), eq(contents.slug, decodeURIComponent(slug))),
                isPublic(new Date().toISOString()),
              ),
            )
            .limit(1)
        : [];
      if (!content) throw new ApiError(404, `No published content at ${uri}`);
      return { contents: [{ uri, mimeType: "text/markdown", text: `# ${content.title}\n\n${content.bodyMarkdown}\n` }] };
    },
  };
}

const service = (c: Context<AppEnv>): McpService => ({
  name: "gateway-content",
  instructions:
    "The published contents of this tenant's sites, and AI skills for them. Start with site_info or list_contents (siteId); read a content with get_content or as a resource (content://<site>/<language>/<slug>).",
  tools: () => contentTools(c.get("api").document()),
  resources: contentResources(c),
});

/** The tenant's MCP endpoint above C1–C4's REST paths. */
export function mcpRoutes() {
  const router = createRouter();
  mcpEndpoint(router, {
    path: MCP_PATH,
    group: { tags: ["C · Content delivery"], security: [{ TenantKey: [] }, { TenantBearer: [] }], errors: [401, 413, 429] },
    envelope: TENANT_ENVELOPE,
    summary: "MCP · The tenant's Model Context Protocol server (C1–C7 as tools, published contents as resources)",
    description:
      "Streamable HTTP, stateless: POST JSON-RPC messages, answers are JSON (GET and DELETE: 405). Any active tenant key opens it; each tool call is checked and counted as the REST operation it stands for (docs/mcp.md).",
    example: {
      request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_contents", arguments: { siteId: 1, q: "museum", size: 5 } } },
      answer: {
        jsonrpc: "2.0",
        id: 1,
        result: {
          content: [{ type: "text", text: '{"items":[],"total":0,"page":1,"size":5}' }],
          structuredContent: { items: [], total: 0, page: 1, size: 5 },
          _meta: { status: 200, cache: "MISS" },
        },
      },
    },
    service,
  });
  return router;
}
