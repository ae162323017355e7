import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { PDFDocument, StandardFonts } from "@pdfme/pdf-lib";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { extractText } from "unpdf";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { aiKey, callAi, type AiEnvelope } from "../helpers/intelligence";
import { secretHeaders } from "../helpers/requests";

type Translated = {
  translatedDocumentBase64: string;
  originalFileType: string;
  sourceLang: string;
  targetLang: string;
  characterCount: number;
  processingTimeMs: number;
  engine: string;
};

const LIBRETRANSLATE_URL = "https://translate.example";
const toBase64 = (bytes: Uint8Array) => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A LibreTranslate server that upper-cases: every translation is visible and checkable. */
function fakeLibreTranslate() {
  const calls: { q: string[]; source: string; target: string }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== `${LIBRETRANSLATE_URL}/translate`) return new Response("unexpected", { status: 500 });
    const body = JSON.parse(init?.body as string) as { q: string[]; source: string; target: string };
    calls.push(body);
    return Response.json({ translatedText: body.q.map((q) => q.toUpperCase()) });
  });
  return calls;
}

/** The Worker with a translation provider configured, as wrangler.toml or .dev.vars would. */
async function translate(bizContent: Record<string, unknown>, settings: Record<string, string> = { LIBRETRANSLATE_URL }) {
  const ctx = createExecutionContext();
  const request = new Request("https://gateway.test/std/ai/translate/document", {
    method: "POST",
    headers: { ...secretHeaders(await aiKey()), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
  const response = await worker.fetch(request, { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: await response.json<AiEnvelope<Translated>>() };
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
function docx(paragraphs: string) {
  return zipSync({
    "[Content_Types].xml": strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${paragraphs}</w:body></w:document>`),
    "word/media/image1.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  });
}

afterEach(() => vi.restoreAllMocks());

describe("I1 document translation", () => {
  it("translates a docx paragraph by paragraph, keeping run formatting, tables and media", async () => {
    const calls = fakeLibreTranslate();
    const source = docx(
      "<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Hello </w:t></w:r><w:r><w:t>world, this is a test.</w:t></w:r></w:p>" +
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell text</w:t></w:r></w:p></w:tc></w:tr></w:tbl>",
    );
    const { status, body } = await translate({ documentBase64: toBase64(source), fileType: "docx", sourceLang: "en", targetLang: "de" });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ originalFileType: "docx", sourceLang: "en", targetLang: "de", engine: "libretranslate", characterCount: 37 });
    expect(calls).toEqual([{ q: ["Hello world, this is a test.", "Cell text"], source: "en", target: "de", format: "text" }]);
    const files = unzipSync(fromBase64(body.data.translatedDocumentBase64));
    const xml = strFromU8(files["word/document.xml"]!);
    expect(xml).toContain("<w:b/>");
    expect(xml).toContain("<w:tbl>");
    expect(xml).toMatch(/<w:r><w:rPr><w:b\/><\/w:rPr><w:t xml:space="preserve">HELLO <\/w:t><\/w:r>/);
    expect(xml).toContain(">WORLD, THIS IS A TEST.</w:t>");
    expect(xml).toContain(">CELL TEXT</w:t>");
    expect([...files["word/media/image1.png"]!]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  });

  it("puts the whole paragraph in the first run without preserveFormatting", async () => {
    fakeLibreTranslate();
    const source = docx("<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Hello </w:t></w:r><w:r><w:t>world</w:t></w:r></w:p>");
    const { body } = await translate({
      documentBase64: toBase64(source),
      fileType: "docx",
      sourceLang: "en",
      targetLang: "fr",
      preserveFormatting: false,
    });
    const xml = strFromU8(unzipSync(fromBase64(body.data.translatedDocumentBase64))["word/document.xml"]!);
    expect(xml).toContain('<w:b/></w:rPr><w:t xml:space="preserve">HELLO WORLD</w:t>');
  });

  it("keeps the lines of a txt document and detects its language", async () => {
    const calls = fakeLibreTranslate();
    const text = "Dear customer,\r\n\r\n  your parcel has been shipped today.\nKind regards\n";
    const { status, body } = await translate({ documentBase64: toBase64(new TextEncoder().encode(text)), fileType: "txt", targetLang: "es" });
    expect(status).toBe(200);
    expect(body.data.sourceLang).toBe("en");
    expect(calls[0]!.source).toBe("en");
    expect(new TextDecoder().decode(fromBase64(body.data.translatedDocumentBase64))).toBe(
      "DEAR CUSTOMER,\r\n\r\n  YOUR PARCEL HAS BEEN SHIPPED TODAY.\nKIND REGARDS\n",
    );
  });

  it("draws the translation of a PDF at the original place", async () => {
    fakeLibreTranslate();
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([400, 300]).drawText("Invoice number 42", { x: 40, y: 250, size: 14, font });
    const { status, body } = await translate({ documentBase64: toBase64(await pdf.save()), fileType: "pdf", sourceLang: "en", targetLang: "de" });
    expect(status).toBe(200);
    const out = fromBase64(body.data.translatedDocumentBase64);
    const translated = await PDFDocument.load(out);
    expect(translated.getPageCount()).toBe(1);
    expect(translated.getPage(0).getSize()).toEqual({ width: 400, height: 300 });
    const { text } = await extractText(new Uint8Array(out), { mergePages: true });
    expect(text).toContain("INVOICE NUMBER 42");
  });

  it("refuses an encrypted PDF", async () => {
    fakeLibreTranslate();
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 200]);
    const plain = new TextDecoder("latin1").decode(await pdf.save({ useObjectStreams: false }));
    const encrypted = new Uint8Array([...plain.replace("trailer\n<<", "trailer\n<<\n/Encrypt 1 0 R")].map((c) => c.charCodeAt(0)));
    const { status, body } = await translate({ documentBase64: toBase64(encrypted), fileType: "pdf", sourceLang: "en", targetLang: "de" });
    expect(status).toBe(400);
    expect(body.msg).toBe("documentBase64: the PDF is encrypted; send it without a password");
  });

  it("rejects by content, not by the fileType given", async () => {
    fakeLibreTranslate();
    const asXlsx = await translate({ documentBase64: toBase64(docx("<w:p/>")), fileType: "xlsx", targetLang: "de" });
    expect(asXlsx.status).toBe(400);
    expect(asXlsx.body.msg).toBe("documentBase64: the file is not a xlsx document (no xl/workbook.xml)");
    const textAsPdf = await translate({ documentBase64: toBase64(strToU8("just text")), fileType: "pdf", targetLang: "de" });
    expect(textAsPdf.body.msg).toBe("documentBase64: the file is not a pdf document (no %PDF- header)");
    const binaryAsTxt = await translate({ documentBase64: toBase64(new Uint8Array([0xff, 0xfe, 0x00, 0x81])), fileType: "txt", targetLang: "de" });
    expect(binaryAsTxt.body.msg).toBe("documentBase64: the file is not a txt document (not UTF-8 text)");
  });

  it("refuses a zip bomb with 413 before expanding it", async () => {
    fakeLibreTranslate();
    const bomb = zipSync({ "word/document.xml": new Uint8Array(60 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { status, body } = await translate({ documentBase64: toBase64(bomb), fileType: "docx", targetLang: "de" });
    expect(status).toBe(413);
    expect(body.msg).toMatch(/^documentBase64: the archive expands beyond 50 MB/);
  });

  it("refuses a document over 10 MB with 413", async () => {
    fakeLibreTranslate();
    const { status, body } = await translate({
      documentBase64: toBase64(new Uint8Array(10 * 1024 * 1024 + 1).fill(65)),
      fileType: "txt",
      targetLang: "de",
    });
    expect(status).toBe(413);
    expect(body.msg).toBe("documentBase64: the document is larger than 10 MB");
  });

  it("answers 502 when the provider fails", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 503 }));
    const { status, body } = await translate({ documentBase64: toBase64(strToU8("Hello")), fileType: "txt", sourceLang: "en", targetLang: "de" });
    expect(status).toBe(502);
    expect(body.msg).toBe("Translation provider libretranslate failed: HTTP 503");
  });

  it("answers 503 naming the settings when no provider is configured", async () => {
    const { status, body } = await callAi("/translate/document", { documentBase64: toBase64(strToU8("Hello")), fileType: "txt", targetLang: "de" });
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 503, data: null });
    expect(body.msg).toBe(
      "Translation is not configured: set TRANSLATION_PROVIDER with LIBRETRANSLATE_URL, or OPENAI_BASE_URL and OPENAI_API_KEY, or bind Workers AI as AI",
    );
  });

  it("refuses a missing targetLang and a fileType outside the list", async () => {
    const missing = await callAi("/translate/document", { documentBase64: "SGVsbG8=", fileType: "txt" });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toMatch(/^bizContent\.targetLang: /);
    const odt = await callAi("/translate/document", { documentBase64: "SGVsbG8=", fileType: "odt", targetLang: "de" });
    expect(odt.body.msg).toBe("bizContent.fileType: is required and must be one of docx, pptx, xlsx, pdf, txt");
  });
});
