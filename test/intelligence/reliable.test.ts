import { beforeAll, describe, expect, it } from "vitest";
import { callAi } from "../helpers/intelligence";

type Sentiment = { overallSentiment: string; confidence: number; reliable?: boolean; engine: string };
type Classification = { classification: string; confidence: number; reliable?: boolean };
type Entities = { entities: { text: string; type: string }[]; reliable?: boolean };

const REVIEW = "The guided tour was wonderful and the staff were very friendly.";
const GIBBERISH = "qzxv wplk trnbq ghjkl mnbvc xswqp";
// Within I3's bound of 50,000 characters, but a thousand times longer than the sentences the model learned from.
const LONG_REVIEW = `${"The staff were friendly and the room was clean. ".repeat(1000)}`;

describe("reliable: whether the text looks like what the embedded engine learned from", () => {
  // The first call of an isolate compiles the language tables and loads the models: once, before the clocked tests.
  beforeAll(() => callAi("/sentiment", { text: REVIEW }), 60_000);

  it("marks an ordinary review sentence reliable, with a confident answer", async () => {
    const { status, body } = await callAi<Sentiment>("/sentiment", { text: REVIEW });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ overallSentiment: "positive", reliable: true, engine: "embedded" });
    expect(body.data.confidence).toBeGreaterThan(0.8);
  });

  it.each([
    ["gibberish", { text: GIBBERISH }],
    ["a single word", { text: "great" }],
    ["a text far longer than any it learned from", { text: LONG_REVIEW }],
    ["another script, declared English", { text: "Отличный отель, очень чистый номер и вежливый персонал", language: "en" }],
  ])("marks %s unreliable (I3)", async (_case, bizContent) => {
    const { status, body } = await callAi<Sentiment>("/sentiment", bizContent);
    expect(status).toBe(200);
    expect(body.data.reliable).toBe(false);
  });

  it("answers praise and complaint in equal measure with no confident pole (calibrated confidences)", async () => {
    const { body } = await callAi<Sentiment>("/sentiment", { text: "The food was great but the service was terrible." });
    expect(body.data.reliable).toBe(true);
    expect(body.data.confidence).toBeLessThan(0.6);
  });

  it("is no surer of a long sentence piling up praise than of a short one: its words are not independent evidence", async () => {
    const short = await callAi<Sentiment>("/sentiment", { text: "The acting is superb." });
    const long = await callAi<Sentiment>("/sentiment", {
      text: "What a film: the acting is superb, the script is witty and warm, the music is beautiful, and the last scene left the whole audience smiling on the way out.",
    });
    expect([short.body.data.overallSentiment, long.body.data.overallSentiment]).toEqual(["positive", "positive"]);
    expect(long.body.data.confidence).toBeLessThan(short.body.data.confidence);
  });

  it("gives text with no word the model knows an even chance, not a confident guess", async () => {
    const { body } = await callAi<Sentiment>("/sentiment", { text: GIBBERISH });
    expect(body.data).toMatchObject({ overallSentiment: "neutral", confidence: 0.5, reliable: false });
  });

  it("knows comment spam as well as SMS, and marks both reliable (I7)", async () => {
    for (const text of [
      "Check out my channel and subscribe please, I make music videos",
      "URGENT! You have won a 1 week FREE membership in our £100,000 Prize Jackpot! Txt the word CLAIM to 81010",
    ]) {
      const { body } = await callAi<Classification>("/classify", { text, classifier: "spam" });
      expect(body.data).toMatchObject({ classification: "spam", reliable: true });
    }
  });

  it.each([
    ["gibberish", GIBBERISH],
    ["a greeting of one word", "Hello"],
    ["a text far longer than any it learned from", LONG_REVIEW],
  ])("marks %s unreliable for spam (I7)", async (_case, text) => {
    const { status, body } = await callAi<Classification>("/classify", { text, classifier: "spam" });
    expect(status).toBe(200);
    expect(body.data.reliable).toBe(false);
  });

  it("leaves reliable out where the classifier has no measure of it (topic)", async () => {
    const { body } = await callAi<Classification>("/classify", { text: "The striker scored twice in the cup final.", classifier: "topic" });
    expect(body.data).not.toHaveProperty("reliable");
  });

  it("marks news reliable and capitalised gibberish unreliable (I4)", async () => {
    const news = await callAi<Entities>("/ner", {
      text: "Angela Merkel met Emmanuel Macron in Paris on Tuesday to discuss the European Union budget.",
      entities: ["PERSON", "LOCATION"],
    });
    expect(news.body.data).toMatchObject({ reliable: true });
    expect(news.body.data.entities.map((e) => e.text)).toEqual(expect.arrayContaining(["Angela Merkel", "Paris"]));
    const gibberish = await callAi<Entities>("/ner", { text: "Xqzt Vbnm Plorf Kwazi Zhulb Trengo Qwix", entities: ["PERSON", "ORGANIZATION"] });
    expect(gibberish.status).toBe(200);
    expect(gibberish.body.data.reliable).toBe(false);
  });

  it("counts patterns as reliable in any text: they do not depend on what the tagger learned (I4)", async () => {
    const { body } = await callAi<Entities>("/ner", { text: "Xqzt Vbnm Plorf: write to desk@example.com", entities: ["EMAIL"] });
    expect(body.data).toMatchObject({ entities: [{ text: "desk@example.com", type: "EMAIL" }], reliable: true });
  });
});
