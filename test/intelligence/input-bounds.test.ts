import { describe, expect, it } from "vitest";
import { MAX_SUMMARY_SENTENCES, TEXT_LIMITS } from "../../src/intelligence/params";
import { callAi } from "../helpers/intelligence";
import { call } from "../helpers/requests";

/** Each bounded endpoint, with the other parameters it needs to be valid. */
const BOUNDED: { path: string; limit: number; params?: Record<string, unknown> }[] = [
  { path: "/summarize", limit: TEXT_LIMITS.summarize },
  { path: "/sentiment", limit: TEXT_LIMITS.sentiment },
  { path: "/ner", limit: TEXT_LIMITS.ner },
  { path: "/language/detect", limit: TEXT_LIMITS.language },
  { path: "/classify", limit: TEXT_LIMITS.classify, params: { classifier: "topic" } },
  { path: "/keywords", limit: TEXT_LIMITS.keywords },
];

/** Distinct made-up words: the worst case for a word graph, where a repeated text is the best. */
function distinctWords(characters: number): string {
  const out: string[] = [];
  for (let i = 0, length = 0; length < characters; i++) {
    const word = `w${(i * 2654435761) % 4294967296}`.slice(0, 9) + (i % 12 === 11 ? "." : "");
    out.push(word);
    length += word.length + 1;
  }
  return out.join(" ").slice(0, characters);
}

describe("API4 · group I input bounds", () => {
  it.each(BOUNDED)("$path refuses a text one character over $limit before any work", async ({ path, limit, params }) => {
    const { status, body } = await callAi(path, { text: "a ".repeat(limit / 2) + "b", ...params });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 400, msg: `bizContent.text: must be at most ${limit} characters`, data: null });
  });

  it("/summarize refuses a text of more sentences than TextRank compares, within the character limit", async () => {
    const text = "Go now. ".repeat(MAX_SUMMARY_SENTENCES + 1);
    expect(text.length).toBeLessThan(TEXT_LIMITS.summarize);
    const { status, body } = await callAi("/summarize", { text });
    expect(status).toBe(400);
    expect(body.msg).toBe(`bizContent.text: must have at most ${MAX_SUMMARY_SENTENCES} sentences`);
  });

  it("/keywords ranks the longest text of distinct words it accepts (a sparse graph, not a matrix of every pair)", async () => {
    const { status, body } = await callAi<{ keywords: unknown[] }>("/keywords", { text: distinctWords(TEXT_LIMITS.keywords), maxKeywords: 5 });
    expect(status).toBe(200);
    expect(body.data.keywords).toHaveLength(5);
  });

  it("/ner finds names across the groups of sentences it tags one at a time, with offsets into the whole text", async () => {
    const filler = "The committee met again and talked about the budget for the coming year. ";
    const text = `${filler.repeat(14)}Angela Merkel visited Paris on 3 March 2021. ${filler.repeat(14)}Contact Tim Cook at tim@example.com.`;
    expect(text.length).toBeGreaterThan(2_000);
    const { status, body } = await callAi<{ entities: { text: string; type: string; startOffset: number; endOffset: number }[] }>("/ner", { text });
    expect(status).toBe(200);
    const found = body.data.entities.map((e) => `${e.type}:${e.text}`);
    expect(found).toEqual(
      expect.arrayContaining(["PERSON:Angela Merkel", "LOCATION:Paris", "DATE:3 March 2021", "PERSON:Tim Cook", "EMAIL:tim@example.com"]),
    );
    for (const entity of body.data.entities) expect(text.slice(entity.startOffset, entity.endOffset)).toBe(entity.text);
  });

  it("documents each bound in /openapi.json as the text's maxLength", async () => {
    type Doc = {
      paths: Record<
        string,
        {
          post: {
            requestBody: {
              content: { "application/json": { schema: { properties: { bizContent: { properties: { text: { maxLength?: number } } } } } } };
            };
          };
        }
      >;
    };
    const doc = await (await call("/openapi.json")).json<Doc>();
    for (const { path, limit } of BOUNDED) {
      const text = doc.paths[`/std/ai${path}`]!.post.requestBody.content["application/json"].schema.properties.bizContent.properties.text;
      expect(text.maxLength, path).toBe(limit);
    }
  });
});

describe("API4 · group I regular expressions: linear on the longest texts they accept", () => {
  // One run of a character each pattern repeats, then a character that rejects it: a regex that
  // retried every start of the run (spam's "50% off" cue, the email placeholder) took seconds.
  it.each([
    ["digits", `${"1".repeat(TEXT_LIMITS.classify - 1)}x`],
    ["letters without an at sign", `${"a".repeat(TEXT_LIMITS.classify - 1)}.`],
    ["spaces and commas", `${" ,".repeat(TEXT_LIMITS.classify / 2 - 1)}x`],
  ])("/classify (spam) answers %s at its length limit within a second", async (_what, text) => {
    await callAi("/classify", { text: "warm up", classifier: "spam" });
    const started = Date.now();
    const { status } = await callAi("/classify", { text, classifier: "spam" });
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("API4 · group I engines, one request at a time per isolate", () => {
  it("answers every one of several large requests sent together", async () => {
    const text = "Maria Garcia flew from Lisbon to Berlin to meet the board. ".repeat(60);
    const answers = await Promise.all([
      callAi("/ner", { text }),
      callAi("/keywords", { text }),
      callAi("/summarize", { text, engine: "embedded" }),
      callAi("/ner", { text, entities: ["LOCATION"] }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it("refuses with 503 once 32 requests wait behind the one running", async () => {
    const { oneAtATime } = await import("../../src/intelligence/compute-gate");
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const running = oneAtATime(() => pause(300));
    const waiters = Array.from({ length: 32 }, () => oneAtATime(() => "done"));
    await expect(oneAtATime(() => "one too many")).rejects.toMatchObject({
      status: 503,
      message: "The text engines are busy; retry in a few seconds",
    });
    await running;
    expect(await Promise.all(waiters)).toEqual(Array(32).fill("done"));
  });
});
