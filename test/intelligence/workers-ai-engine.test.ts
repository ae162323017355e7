import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { aiKey, type AiEnvelope } from "../helpers/intelligence";
import { secretHeaders } from "../helpers/requests";

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
