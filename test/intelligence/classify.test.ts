import { describe, expect, it } from "vitest";
import { callAi } from "../helpers/intelligence";

type Classification = {
  classification: string;
  confidence: number;
  scores: Record<string, number>;
  method: string;
  spamIndicators?: string[];
  engine: string;
};

describe("I7 classifiers", () => {
  it("flags spam and says why", async () => {
    const { status, body } = await callAi<Classification>("/classify", {
      text: "CONGRATULATIONS YOU HAVE WON a FREE prize!!! Click here http://win.example to claim your $1000 cash now",
      classifier: "spam",
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ classification: "spam", method: "logistic-regression", engine: "embedded" });
    expect(body.data.confidence).toBeGreaterThan(0.9);
    expect(body.data.spamIndicators).toEqual(expect.arrayContaining(["contains a link", "repeated exclamation marks", "money or discount"]));
  });

  it.each([["Ok lar... Joking wif u oni..."], ["dear, call me when u reach da station"], ["I'll be there by &lt;#&gt; mins, wait for me"]])(
    "takes a short personal message for ham, chat spelling and placeholders included: %s",
    async (text) => {
      const { body } = await callAi<Classification>("/classify", { text, classifier: "spam" });
      expect(body.data).toMatchObject({ classification: "ham", method: "logistic-regression" });
      expect(body.data.confidence).toBeGreaterThan(0.9);
    },
  );

  it("names the words that made a message spam, not placeholders or function words", async () => {
    const { body } = await callAi<Classification>("/classify", {
      text: "URGENT! You have won a 1 week FREE membership in our £100,000 Prize Jackpot! Txt the word CLAIM to 81010",
      classifier: "spam",
    });
    expect(body.data.classification).toBe("spam");
    const words = body.data.spamIndicators!.filter((cue) => cue.startsWith("word: "));
    expect(words.length).toBeGreaterThan(0);
    expect(words.some((cue) => /token$|^word: (?:you|have|the|a|in|our)$/.test(cue))).toBe(false);
  });

  it("lets an ordinary message pass as ham", async () => {
    const { body } = await callAi<Classification>("/classify", {
      text: "Hi Bob, the meeting moved to Thursday afternoon; the agenda is in the shared folder.",
      classifier: "spam",
    });
    expect(body.data.classification).toBe("ham");
    expect(body.data.spamIndicators).toEqual([]);
  });

  // Self-promotion under a video, none of it in the training comments: the model that learned from Psy's video alone missed these (0.05–0.31).
  it.each([
    ["Guys please take a look at my art, link in my profile"],
    ["Visit my website for cheap concert tickets"],
    ["Hey guys, I just started a cooking show, give it a look and tell me what you think"],
  ])("flags comment spam that promotes the writer's own page: %s", async (text) => {
    const { body } = await callAi<Classification>("/classify", { text, classifier: "spam" });
    expect(body.data.classification).toBe("spam");
  });

  it("lets an ordinary comment on a song pass as ham", async () => {
    const { body } = await callAi<Classification>("/classify", { text: "This song never gets old, her voice is amazing", classifier: "spam" });
    expect(body.data.classification).toBe("ham");
    expect(body.data.confidence).toBeGreaterThan(0.9);
  });

  it.each([
    ["topic", "The striker scored twice and the team won the league match.", "sports"],
    ["topic", "The central bank raised interest rates as inflation kept rising.", "business"],
    ["intent", "Please cancel my subscription at the end of the month.", "cancellation"],
    ["intent", "What are your opening hours on Sunday?", "question"],
    ["sentiment", "The food was cold and the waiter was rude.", "negative"],
    ["sentiment", "Wonderful place, friendly staff and great food.", "positive"],
  ])("%s: %s → %s", async (classifier, text, expected) => {
    const { body } = await callAi<Classification>("/classify", { text, classifier });
    expect(body.data.classification).toBe(expected);
    expect(Object.values(body.data.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect(body.data.spamIndicators).toBeUndefined();
  });

  it("restricts a trained classifier to the categories given when it knows them all", async () => {
    const { body } = await callAi<Classification>("/classify", {
      text: "The striker scored twice.",
      classifier: "topic",
      categories: ["politics", "health"],
    });
    expect(body.data.method).toBe("naive-bayes");
    expect(Object.keys(body.data.scores).sort()).toEqual(["health", "politics"]);
  });

  it("ranks custom categories by similarity to the text", async () => {
    const { body } = await callAi<Classification>("/classify", {
      text: "The new laptop has a faster processor and more memory for software developers.",
      classifier: "topic",
      categories: ["cooking", "technology", "gardening"],
    });
    expect(body.data).toMatchObject({ classification: "technology", method: "similarity" });
    expect(body.data.scores.technology).toBeGreaterThan(body.data.scores.cooking!);
  });

  it("refuses an unknown classifier, one category, and repeated categories", async () => {
    const unknown = await callAi("/classify", { text: "hello", classifier: "mood" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe("bizContent.classifier: is required and must be one of spam, sentiment, topic, intent");
    const one = await callAi("/classify", { text: "hello", classifier: "topic", categories: ["sports"] });
    expect(one.body.msg).toBe("bizContent.categories: must name at least two categories");
    const twice = await callAi("/classify", { text: "hello", classifier: "topic", categories: ["Sports", "sports"] });
    expect(twice.body.msg).toBe("bizContent.categories: must not repeat a category");
  });
});
