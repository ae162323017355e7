import { describe, expect, it } from "vitest";
import { aiKey, callAi } from "../helpers/intelligence";
import { call, secretHeaders } from "../helpers/requests";

describe("API3, API8 · group I bad input", () => {
  it.each([
    ["/language/detect", { text: 42 }, "bizContent.text: is required and must be a string"],
    ["/sentiment", { text: "good", language: "english!" }, "bizContent.language: must be a language code such as en, de or zh-CN"],
    ["/summarize", { text: "Some text.", maxLength: 12.5 }, "bizContent.maxLength: must be an integer"],
    ["/summarize", { text: "Some text.", maxLength: 2001 }, "bizContent.maxLength: must be at most 2000"],
    ["/summarize", { text: "Some text.", maxLength: 1e300 }, "bizContent.maxLength: must be at most 2000"],
    ["/summarize", { text: "Some text.", minLength: -1 }, "bizContent.minLength: must be 0 or more"],
    ["/summarize", { text: "Some text.", maxLength: 20, minLength: 21 }, "bizContent.minLength: must not be greater than maxLength"],
    ["/ner", { text: "Tim Cook", entities: [] }, "bizContent.entities: must name at least one entity type"],
    ["/ner", { text: "Tim Cook", entities: "PERSON" }, "bizContent.entities: must be an array of entity types"],
    ["/qrcode/custom", { data: "" }, "bizContent.data: must not be empty"],
    ["/qrcode/custom", { data: "x", size: "300" }, "bizContent.size: must be an integer"],
    ["/classify", { text: "hello", classifier: "topic", categories: "sports" }, "bizContent.categories: must be an array of category names"],
    ["/classify", { text: "hello", classifier: "topic", categories: ["sports", " "] }, "bizContent.categories.1: must not be empty"],
    ["/keywords", { text: "Some text.", includePhrases: "yes" }, "bizContent.includePhrases: must be true or false"],
    ["/keywords", { text: "Some text.", maxKeywords: 101 }, "bizContent.maxKeywords: must be at most 100"],
    [
      "/translate/document",
      { documentBase64: "SGVsbG8=", fileType: "txt", targetLang: "de", preserveFormatting: "no" },
      "bizContent.preserveFormatting: must be true or false",
    ],
    [
      "/translate/document",
      { documentBase64: "SGVsbG8=", fileType: "txt", targetLang: "de", sourceLang: "en us" },
      "bizContent.sourceLang: must be a language code such as en, de or zh-CN",
    ],
    ["/translate/document", { documentBase64: "", fileType: "txt", targetLang: "de" }, "bizContent.documentBase64: must not be empty"],
    // Unknown keys are refused by name, not dropped.
    ["/sentiment", { text: "good", is_admin: true }, "bizContent: does not take the field is_admin"],
    // A misspelt field: the one missing and the spelling sent, both named.
    ["/language/detect", { txt: "hello" }, "bizContent.text: is required and must be a string; bizContent: does not take the field txt"],
    ["/qrcode/custom", { data: "x", colour: "#000" }, "bizContent: does not take the field colour"],
  ])("%s refuses %j", async (path, bizContent, message) => {
    const { status, body } = await callAi(path, bizContent);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 400, msg: message, data: null });
    expect(body.timestamp).toBeTypeOf("number");
  });

  it("refuses a missing bizContent in the group's envelope", async () => {
    const response = await call("/std/ai/keywords", {
      method: "POST",
      headers: { ...secretHeaders(await aiKey()), "Content-Type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 400, msg: "bizContent is required", data: null });
  });

  it("refuses a __proto__ key sent as JSON, by name", async () => {
    const response = await call("/std/ai/keywords", {
      method: "POST",
      headers: { ...secretHeaders(await aiKey()), "Content-Type": "application/json" },
      body: '{"bizContent":{"text":"Some text.","__proto__":{"polluted":true}}}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 400, msg: "bizContent: does not take the field __proto__", data: null });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
