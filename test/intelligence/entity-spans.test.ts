import { describe, expect, it } from "vitest";
import nlp from "compromise";
import { entityHints } from "../../src/intelligence/entities";
import { entitySpans, entityTokens, type Tag } from "../../src/intelligence/entity-tagger";

/** The names the tagger's tags come to: the text of each span and its label. */
function names(text: string, tags: Tag[]) {
  const tokens = entityTokens(text);
  expect(tokens).toHaveLength(tags.length);
  return entitySpans(
    tokens,
    tags,
    tags.map(() => 0.9),
  ).map((s) => [s.label, text.slice(tokens[s.first]!.start, tokens[s.last]!.end)]);
}

describe("I4 entity spans: the conventions of CoNLL and UNER", () => {
  it("leaves a title out of a name", () => {
    expect(names("Mr Panvalkar said", ["B-PER", "I-PER", "O"])).toEqual([["PER", "Panvalkar"]]);
    expect(names("Dr. Ruth Westheimer", ["B-PER", "I-PER", "I-PER"])).toEqual([["PER", "Ruth Westheimer"]]);
  });

  it("does not end a name with a possessive, a joiner or punctuation", () => {
    expect(names("the Senate's vote", ["O", "B-ORG", "I-ORG", "O"])).toEqual([["ORG", "Senate"]]);
    expect(names("University of", ["B-ORG", "I-ORG"])).toEqual([["ORG", "University"]]);
    expect(names("Paris ,", ["B-LOC", "I-LOC"])).toEqual([["LOC", "Paris"]]);
  });

  it("keeps a name that begins with a joiner, and drops a span that is only punctuation", () => {
    expect(names("The Hague", ["B-LOC", "I-LOC"])).toEqual([["LOC", "The Hague"]]);
    expect(names("in , then", ["O", "B-LOC", "O"])).toEqual([]);
  });

  it("keeps initials, abbreviations and hyphenated names as single tokens", () => {
    expect(entityTokens("U.S. Steel Corp. and Coca-Cola's J. Smith").map((t) => t.text)).toEqual([
      "U.S.",
      "Steel",
      "Corp.",
      "and",
      "Coca-Cola",
      "'s",
      "J.",
      "Smith",
    ]);
  });
});

describe("I4 gazetteer of people's names", () => {
  it("marks the words of the shipped list as written, and no others", () => {
    const text = "Osei met Kerber at the station";
    const tokens = entityTokens(text);
    const hints = entityHints(nlp(text), text, tokens);
    expect(tokens.filter((_, i) => hints[i]!.personName).map((t) => t.text)).toEqual(["Osei", "Kerber"]);
    expect(entityHints(nlp("osei"), "osei", entityTokens("osei"))[0]!.personName).toBeUndefined();
  });
});
