import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { admin, createTestTenant, headless, tenantKey, type TestTenant } from "../helpers/content";

const LLM = "https://llm.example/v1";
const LIBRETRANSLATE_URL = "https://translate.example";
type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string; fields?: { field: string; message: string }[] } };

/** The Worker with the settings a deployment would give it (an LLM endpoint, a translator). */
async function skill<T>(path: string, token: string, body: unknown, settings: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`https://gateway.test/api/skills${path}`, {
    method: "POST",
    headers: { "X-API-Key": token, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await worker.fetch(request, { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, headers: response.headers, body: await response.json<Envelope<T>>() };
}

const NIGHT_TRAINS = "# Night trains are back\n\nSleeper trains link the city to three capitals again.\n\n## Timetable\n\nDepartures at 21:40.";

/** An OpenAI-compatible endpoint that writes the same short article, or fails with `status`. */
function fakeLanguageModel(status = 200, article = NIGHT_TRAINS) {
  const prompts: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== `${LLM}/chat/completions`) return new Response("unexpected", { status: 500 });
    const body = JSON.parse(init?.body as string) as { messages: { content: string }[] };
    prompts.push(body.messages.at(-1)!.content);
    if (status !== 200) return new Response("overloaded", { status });
    return Response.json({
      choices: [{ message: { content: article } }],
    });
  });
  return prompts;
}

const llm = { OPENAI_BASE_URL: LLM, OPENAI_API_KEY: "test-key" };
let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTestTenant();
});
afterEach(() => vi.restoreAllMocks());

type Article = {
  contentId: number;
  status: string;
  title: string;
  slug: string;
  intro: string;
  bodyMarkdown: string;
  engine: string;
  language: string;
};

describe("C5 generate an article", () => {
  it("saves the model's article as a draft of the site, titled by its heading", async () => {
    const prompts = fakeLanguageModel();
    const { status, body } = await skill<Article>(
      "/generate/article",
      tenant.token,
      { siteId: tenant.siteId, topic: "night trains", words: 300, style: "news" },
      llm,
    );
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      status: "draft",
      title: "Night trains are back",
      slug: "night-trains-are-back",
      language: "en",
      engine: "openai",
    });
    expect(body.data.intro).toBe("Sleeper trains link the city to three capitals again.");
    expect(body.data.bodyMarkdown).not.toContain("# Night trains are back");
    expect(prompts[0]).toBe("Write a news article in English of about 300 words about: night trains");
    const stored = await admin("GET", `/tenants/${tenant.tenantId}/contents/${body.data.contentId}`, tenant.session);
    expect((await stored.json<Envelope<{ status: string; bodyHtml: string }>>()).data).toMatchObject({
      status: "draft",
      bodyHtml: expect.stringContaining("<h2>Timetable</h2>"),
    });
    // A draft is not public.
    expect((await headless(`/api/mcp/contents/${body.data.contentId}`, tenant.token)).status).toBe(404);

    const again = await skill<Article>("/generate/article", tenant.token, { siteId: tenant.siteId, topic: "night trains" }, llm);
    expect(again.body.data.slug).toBe("night-trains-are-back-2");
  });

  it("spells a German article's slug as German addresses do (ä as ae), and drops the accents of other languages", async () => {
    fakeLanguageModel(200, "# Straßenmärkte öffnen früher\n\nAb Mai schon um sieben.");
    const german = await skill<Article>("/generate/article", tenant.token, { siteId: tenant.siteId, topic: "Märkte", language: "de" }, llm);
    expect(german.body.data).toMatchObject({ language: "de", slug: "strassenmaerkte-oeffnen-frueher" });
    fakeLanguageModel(200, "# Märkte, Cafés and Ærø\n\nA day out.");
    const english = await skill<Article>("/generate/article", tenant.token, { siteId: tenant.siteId, topic: "markets", language: "en" }, llm);
    expect(english.body.data).toMatchObject({ language: "en", slug: "markte-cafes-and-aero" });
    // An apostrophe inside a word is not a word break.
    fakeLanguageModel(200, "# Rosie’s Bakery: the bakers' favourite isn't bread\n\nCroissants.");
    const possessive = await skill<Article>("/generate/article", tenant.token, { siteId: tenant.siteId, topic: "bakery", language: "en" }, llm);
    expect(possessive.body.data.slug).toBe("rosies-bakery-the-bakers-favourite-isnt-bread");
  });

  it("answers 503 naming the settings when no language model is configured, with no Retry-After: waiting changes nothing", async () => {
    const { status, headers, body } = await skill<never>("/generate/article", tenant.token, { siteId: tenant.siteId, topic: "night trains" });
    expect(status).toBe(503);
    expect(headers.get("Retry-After")).toBeNull();
    expect(body.error).toEqual({
      code: "unavailable",
      message:
        'Text generation is not configured: bind Workers AI as AI ([ai] binding = "AI" in wrangler.toml), or set OPENAI_BASE_URL and OPENAI_API_KEY',
    });
  });

  it("answers 502 when the model fails, and saves nothing", async () => {
    fakeLanguageModel(500);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM contents WHERE tenant_id = ?").bind(tenant.tenantId).first<{ n: number }>();
    const { status, body } = await skill<never>("/generate/article", tenant.token, { siteId: tenant.siteId, topic: "night trains" }, llm);
    expect(status).toBe(502);
    expect(body.error).toEqual({ code: "upstream_failed", message: "The language model answered HTTP 500" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM contents WHERE tenant_id = ?").bind(tenant.tenantId).first<{ n: number }>()).toEqual(
      before,
    );
  });

  it("needs content:write, and a site of the key's tenant", async () => {
    const reader = await tenantKey(tenant, { scopes: ["content:read"] });
    expect((await skill<never>("/generate/article", reader, { siteId: tenant.siteId, topic: "night trains" }, llm)).status).toBe(403);
    const other = await createTestTenant();
    const foreign = await skill<never>("/generate/article", other.token, { siteId: tenant.siteId, topic: "night trains" }, llm);
    expect(foreign.status).toBe(404);
  });

  it.each([
    [{ topic: "night trains" }, "Site id is required"],
    [{ siteId: 1, topic: "ab" }, "Topic must be at least 3 characters"],
    [{ siteId: 1, topic: "night trains", words: 5000 }, "Words must be from 100 to 2000"],
    [{ siteId: 1, topic: "night trains", style: "poem" }, "Style must be one of news, blog, guide, formal, casual"],
  ])("refuses %j", async (input, message) => {
    const { status, body } = await skill<never>("/generate/article", tenant.token, input, llm);
    expect(status).toBe(400);
    expect(body.error!.message).toBe(message);
  });
});

const TEXT =
  "The city council approved the new harbour plan on Tuesday. The plan adds a ferry stop and a market hall. " +
  "Construction starts in spring and should take two years. Residents asked for more green space near the quay. " +
  "The council promised a park of two hectares. The market hall will host sixty stalls. Ferries will run every twenty minutes.";

describe("C6 summarise", () => {
  it("answers a summary of at most maxLength characters, from group I's summariser", async () => {
    const { status, body } = await skill<{ summary: string; length: number; maxLength: number; language: string }>(
      "/generate/summary",
      tenant.token,
      { content: TEXT, maxLength: 120 },
    );
    expect(status).toBe(200);
    expect(body.data.summary.length).toBeLessThanOrEqual(120);
    expect(body.data).toMatchObject({ length: body.data.summary.length, maxLength: 120, language: "en" });
    expect(TEXT).toContain(body.data.summary.replace(/…$/, "").split(". ")[0]!);
  });

  it("ends on a whole sentence where one fits, not on a word cut short", async () => {
    for (const maxLength of [60, 80, 120, 200]) {
      const { body } = await skill<{ summary: string }>("/generate/summary", tenant.token, { content: TEXT, maxLength });
      expect(body.data.summary.length, `maxLength ${maxLength}`).toBeLessThanOrEqual(maxLength);
      expect(body.data.summary, `maxLength ${maxLength}`).toMatch(/[a-z]\.$/);
      for (const sentence of body.data.summary.split(/(?<=\.) /)) expect(TEXT).toContain(sentence);
    }
  });

  it("keeps Chinese sentences whole and as written: no space between them, no ellipsis after the last", async () => {
    const chinese = "港口重新开放。渡轮每二十分钟一班。市场大厅开业。";
    const { status, body } = await skill<{ summary: string; language: string }>("/generate/summary", tenant.token, {
      content: chinese,
      maxLength: 20,
    });
    expect(status).toBe(200);
    expect(body.data.summary.length).toBeLessThanOrEqual(20);
    expect(body.data.summary).toMatch(/^[^\s…]+。$/u);
    expect(chinese.startsWith(body.data.summary) || chinese.includes(body.data.summary)).toBe(true);
  });

  it.each([
    [{ content: TEXT, maxLength: 10 }, "Max length must be from 20 to 5000"],
    [{ content: TEXT, maxLength: 1e308 }, "Max length must be from 20 to 5000"],
    [{ content: TEXT, maxLength: 25.5 }, "Max length must be a whole number from 20 to 5000"],
    [{ content: "x".repeat(20_001) }, "Content must be at most 20000 characters"],
    [{ content: "   " }, "Content must not be empty"],
  ])("refuses %j", async (input, message) => {
    const { status, body } = await skill<never>("/generate/summary", tenant.token, input);
    expect(status).toBe(400);
    expect(body.error!.message).toBe(message);
    // One thing to correct, said once.
    expect(body.error!.fields).toHaveLength(1);
  });
});

describe("C7 translate", () => {
  it("translates paragraph by paragraph with the configured provider", async () => {
    const calls: { q: string[]; source: string; target: string }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
      const body = JSON.parse(init?.body as string) as { q: string[]; source: string; target: string };
      calls.push(body);
      return Response.json({ translatedText: body.q.map((q) => `[de] ${q}`) });
    });
    const { status, body } = await skill<{ content: string; sourceLang: string; targetLang: string; provider: string }>(
      "/translate",
      tenant.token,
      { content: "First paragraph.\n\nSecond paragraph.", targetLang: "de" },
      { LIBRETRANSLATE_URL },
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({
      content: "[de] First paragraph.\n\n[de] Second paragraph.",
      sourceLang: "en",
      targetLang: "de",
      provider: "libretranslate",
    });
    expect(calls[0]).toMatchObject({ q: ["First paragraph.", "Second paragraph."], source: "en", target: "de" });
  });

  it("answers 503 when no translation provider is configured", async () => {
    const { status, body } = await skill<never>("/translate", tenant.token, { content: "Hello", targetLang: "de" });
    expect(status).toBe(503);
    expect(body.error!.message).toMatch(/^Translation is not configured/);
  });

  it("refuses a target that is not a language code", async () => {
    const { status, body } = await skill<never>("/translate", tenant.token, { content: "Hello", targetLang: "German" });
    expect(status).toBe(400);
    expect(body.error!.message).toBe("language must be an ISO 639-1 code, optionally with a region: en, pt-BR");
  });
});
