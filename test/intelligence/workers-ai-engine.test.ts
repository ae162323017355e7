import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { aiKey, type AiEnvelope } from "../helpers/intelligence";
import { secretHeaders } from "../helpers/requests";
import { CLASSIFIER_LABELS } from "../../src/intelligence/vocabulary";

type Run = (model: string, input: Record<string, unknown>) => Promise<unknown>;

/** Workers AI is a Cloudflare service outside the Worker: faked at its binding, one answer per model. */
async function callWithAi(path: string, bizContent: Record<string, unknown>, run: Run, settings: Record<string, string> = {}) {
  const models: string[] = [];
  const ai = { run: (model: string, input: Record<string, unknown>) => (models.push(model), run(model, input)) };
  const ctx = createExecutionContext();
  const request = new Request(`https://gateway.test/std/ai${path}`, {
    method: "POST",
    headers: { ...secretHeaders(await aiKey()), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
  const response = await worker.fetch(request, { ...env, AI: ai as unknown as Ai, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: await response.json<AiEnvelope<Record<string, unknown>>>(), models };
}

const TEXT = "The support team answered within minutes and fixed the problem. I am very happy with the service.";

describe("the workers-ai engine", () => {
  it("answers sentiment with distilbert-sst-2 and says so", async () => {
    const { status, body, models } = await callWithAi("/sentiment", { text: TEXT, engine: "workers-ai" }, async () => [
      { label: "NEGATIVE", score: 0.02 },
      { label: "POSITIVE", score: 0.98 },
    ]);
    expect(status).toBe(200);
    expect(models).toEqual(["@cf/huggingface/distilbert-sst-2-int8"]);
    expect(body.data).toMatchObject({ overallSentiment: "positive", engine: "workers-ai" });
    // reliable is the embedded engine's judgement of its own training sets: the model's answer has none.
    expect(body.data).not.toHaveProperty("reliable");
  });

  it("becomes the default with AI_ENGINE=workers-ai", async () => {
    const { body, models } = await callWithAi(
      "/summarize",
      { text: TEXT, minLength: 5, maxLength: 20 },
      async () => ({ summary: "The team fixed the problem quickly." }),
      { AI_ENGINE: "workers-ai" },
    );
    expect(models).toEqual(["@cf/facebook/bart-large-cnn"]);
    expect(body.data).toMatchObject({ summary: "The team fixed the problem quickly.", summaryLength: 6, engine: "workers-ai" });
  });

  it("ranks custom categories by embedding similarity", async () => {
    const vectors: Record<string, number[]> = { [TEXT]: [1, 0.1], billing: [0, 1], "customer service": [0.9, 0.2] };
    const { body } = await callWithAi(
      "/classify",
      { text: TEXT, classifier: "topic", categories: ["billing", "customer service"], engine: "workers-ai" },
      async (_model, input) => ({
        data: (input.text as string[]).map((t) => vectors[t]),
      }),
    );
    expect(body.data).toMatchObject({ classification: "customer service", method: "embeddings", engine: "workers-ai" });
  });

  it("falls back to the embedded engine when Workers AI fails", async () => {
    const { status, body } = await callWithAi("/sentiment", { text: TEXT, engine: "workers-ai" }, async () => {
      throw new Error("3040: capacity exceeded");
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ overallSentiment: "positive", engine: "embedded" });
  });

  it("falls back when Workers AI does not answer within AI_TIMEOUT_MS", async () => {
    const { body } = await callWithAi("/summarize", { text: TEXT, minLength: 5, maxLength: 20, engine: "workers-ai" }, () => new Promise(() => {}), {
      AI_TIMEOUT_MS: "50",
    });
    expect(body.data.engine).toBe("embedded");
  });

  it("translates documents with m2m100 when it is the provider", async () => {
    const inputs: Record<string, unknown>[] = [];
    const { status, body } = await callWithAi(
      "/translate/document",
      { documentBase64: btoa("Good morning\nThank you"), fileType: "txt", sourceLang: "en", targetLang: "fr" },
      async (_model, input) => (inputs.push(input), { translated_text: `fr:${String(input.text)}` }),
    );
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ engine: "workers-ai", sourceLang: "en", targetLang: "fr" });
    expect(atob(body.data.translatedDocumentBase64 as string)).toBe("fr:Good morning\nfr:Thank you");
    expect(inputs).toEqual([
      { text: "Good morning", source_lang: "en", target_lang: "fr" },
      { text: "Thank you", source_lang: "en", target_lang: "fr" },
    ]);
  });
});

const NEWS = "The harbour gallery in Hamburg opens until midnight on Saturday. Anna Schmidt of the city museum guides visitors every hour.";
const INSTRUCT = "@cf/meta/llama-3.1-8b-instruct";

/** The instruction model's answer as Workers AI gives it in JSON mode. */
const answering = (response: unknown) => async () => ({ response });

describe("the instruction model behind named entities, spam, topic, intent and bullet summaries", () => {
  it("names entities by their text and type; the offsets are found in the text, and an entity the text lacks is dropped", async () => {
    const inputs: Record<string, unknown>[] = [];
    const { status, body, models } = await callWithAi(
      "/ner",
      { text: NEWS, entities: ["PERSON", "LOCATION"], engine: "workers-ai" },
      async (_model, input) => (
        inputs.push(input),
        {
          response: {
            entities: [
              { text: "Anna Schmidt", type: "PERSON", confidence: 0.97 },
              { text: "Hamburg", type: "LOCATION", confidence: 0.95 },
              { text: "Atlantis", type: "LOCATION", confidence: 0.9 },
            ],
          },
        }
      ),
    );
    expect(status).toBe(200);
    expect(models).toEqual([INSTRUCT]);
    expect(body.data).toMatchObject({ engine: "workers-ai", entityTypesSearched: ["PERSON", "LOCATION"] });
    const entities = body.data.entities as { text: string; type: string; startOffset: number; endOffset: number; confidence: number }[];
    expect(entities.map((e) => [e.text, e.type, e.confidence])).toEqual([
      ["Hamburg", "LOCATION", 0.95],
      ["Anna Schmidt", "PERSON", 0.97],
    ]);
    for (const entity of entities) expect(NEWS.slice(entity.startOffset, entity.endOffset)).toBe(entity.text);
    // The answer's shape is asked for: JSON mode, the types limited to those searched.
    expect(JSON.stringify(inputs[0]!.response_format)).toContain('"enum":["PERSON","LOCATION"]');
  });

  it.each([
    ["text that is not JSON", "Sure! The entities are Anna Schmidt and Hamburg."],
    ["a type that was not asked for", { entities: [{ text: "city museum", type: "ORGANIZATION", confidence: 0.8 }] }],
    ["no confidence", { entities: [{ text: "Hamburg", type: "LOCATION" }] }],
    ["only entities the text does not hold", { entities: [{ text: "Atlantis", type: "LOCATION", confidence: 0.9 }] }],
  ])("falls back to the embedded engine when the model answers with %s", async (_case, response) => {
    const { status, body } = await callWithAi("/ner", { text: NEWS, entities: ["PERSON", "LOCATION"], engine: "workers-ai" }, answering(response));
    expect(status).toBe(200);
    expect(body.data.engine).toBe("embedded");
    expect((body.data.entities as { text: string }[]).map((e) => e.text)).toContain("Anna Schmidt");
  });

  it("classifies spam with the instruction model: the label of the set, its confidence, the rest to the other label", async () => {
    const { body, models } = await callWithAi(
      "/classify",
      { text: "Win a free cruise now! Click here to claim your prize.", classifier: "spam", engine: "workers-ai" },
      answering({ label: "spam", confidence: 0.91 }),
    );
    expect(models).toEqual([INSTRUCT]);
    expect(body.data).toMatchObject({
      classification: "spam",
      confidence: 0.91,
      scores: { spam: 0.91, ham: 0.09 },
      method: "workers-ai-model",
      engine: "workers-ai",
    });
  });

  it("keeps the label chosen the top score when the model is less sure than an even share", async () => {
    const { body } = await callWithAi(
      "/classify",
      { text: TEXT, classifier: "spam", engine: "workers-ai" },
      answering({ label: "ham", confidence: 0.2 }),
    );
    expect(body.data).toMatchObject({ classification: "ham", confidence: 0.5, scores: { ham: 0.5, spam: 0.5 } });
  });

  it("restricts intent to the categories named, and falls back when the model answers another label", async () => {
    const named = {
      text: "I want my money back for the broken kettle.",
      classifier: "intent",
      categories: ["refund", "complaint"],
      engine: "workers-ai",
    };
    const inRange = await callWithAi("/classify", named, answering({ label: "refund", confidence: 0.8 }));
    expect(inRange.body.data).toMatchObject({ classification: "refund", scores: { refund: 0.8, complaint: 0.2 }, engine: "workers-ai" });
    const outside = await callWithAi("/classify", named, answering({ label: "purchase", confidence: 0.9 }));
    expect(outside.body.data).toMatchObject({ engine: "embedded", method: "naive-bayes" });
    expect(Object.keys(outside.body.data.scores as object).sort()).toEqual(["complaint", "refund"]);
  });

  it("writes bullet summaries with the instruction model, keeping the bullets that fit in maxLength words", async () => {
    const { body, models } = await callWithAi(
      "/summarize",
      { text: `${TEXT} ${NEWS}`, style: "bullet", minLength: 5, maxLength: 12, engine: "workers-ai" },
      // Answered as a JSON string, as some models do.
      answering(
        JSON.stringify({ bullets: ["The support team fixed the problem quickly.", "The customer is happy.", "A gallery in Hamburg opens late."] }),
      ),
    );
    expect(models).toEqual([INSTRUCT]);
    expect(body.data).toMatchObject({
      summary: ["The support team fixed the problem quickly.", "The customer is happy."],
      summaryLength: 11,
      engine: "workers-ai",
    });
  });

  it("uses the model each task's setting names, and refuses a setting that is not a model id", async () => {
    const { models } = await callWithAi(
      "/classify",
      { text: TEXT, classifier: "topic", engine: "workers-ai" },
      answering({ label: "business", confidence: 0.7 }),
      {
        AI_MODEL_INSTRUCT: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      },
    );
    expect(models).toEqual(["@cf/meta/llama-3.3-70b-instruct-fp8-fast"]);
    const misconfigured = await callWithAi("/sentiment", { text: TEXT }, answering({}), { AI_MODEL_SENTIMENT: "gpt-4o" });
    expect(misconfigured.status).toBe(503);
    expect(misconfigured.body.msg).toContain("AI_MODEL_SENTIMENT");
  });

  it("knows each trained classifier's labels as its model does", async () => {
    const models = {
      spam: await import("../../src/intelligence/models/spam.json"),
      topic: await import("../../src/intelligence/models/topic.json"),
      intent: await import("../../src/intelligence/models/intent.json"),
    };
    for (const [name, model] of Object.entries(models))
      expect(CLASSIFIER_LABELS[name as keyof typeof CLASSIFIER_LABELS]).toEqual(model.default.labels);
  });
});
