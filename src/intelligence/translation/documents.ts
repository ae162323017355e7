import type { z } from "@hono/zod-openapi";
import type { Bindings } from "../../platform/env";
import { ApiError, badRequest } from "../../platform/errors";
import { detectLanguage, languageName } from "../language";
import type { translateDocumentParams } from "../params";
import { readOfficeText, unzipOffice } from "./office";
import { PDF_TARGET_LANGUAGES, readPdfText } from "./pdf";
import { translateAll, translatorFor, type TranslationProvider } from "./providers";

/** The interface's limit for I1. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

type DocumentRequest = Omit<z.output<typeof translateDocumentParams>, "documentBase64">;

export interface TranslatedDocument {
  document: Uint8Array;
  sourceLang: string;
  targetLang: string;
  characterCount: number;
  engine: TranslationProvider;
}

interface DocumentText {
  texts: string[];
  rebuild(translations: Map<string, string>): Promise<Uint8Array> | Uint8Array;
}

/** Plain text: each non-blank line is translated alone, so line breaks and indentation survive. */
function readPlainText(bytes: Uint8Array): DocumentText {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badRequest("documentBase64: the file is not a txt document (not UTF-8 text)");
  }
  if (text.includes("\u0000")) throw badRequest("documentBase64: the file is not a txt document (it holds binary data)");
  const lines = text.split(/(\r?\n)/);
  const core = (line: string) => line.trim();
  return {
    texts: lines
      .filter((l) => !/^\r?\n$/.test(l))
      .map(core)
      .filter(Boolean),
    rebuild(translations) {
      const out = lines.map((line) => {
        const key = core(line);
        const translated = key ? translations.get(key) : undefined;
        return translated === undefined ? line : line.replace(key, () => translated);
      });
      return new TextEncoder().encode(out.join(""));
    },
  };
}

function isPdf(bytes: Uint8Array) {
  return String.fromCharCode(...bytes.subarray(0, 1024)).includes("%PDF-");
}

async function readDocument(bytes: Uint8Array, request: DocumentRequest): Promise<DocumentText> {
  switch (request.fileType) {
    case "txt":
      return readPlainText(bytes);
    case "pdf":
      if (!isPdf(bytes)) throw badRequest("documentBase64: the file is not a pdf document (no %PDF- header)");
      return readPdfText(bytes);
    default: {
      const office = readOfficeText(unzipOffice(bytes, request.fileType), request.fileType);
      return { texts: office.texts, rebuild: (translations) => office.rebuild(translations, request.preserveFormatting) };
    }
  }
}

const baseLanguage = (code: string) => code.toLowerCase().split(/[-_]/)[0]!;

/** I1: checks the document by its content, collects its text, translates it and writes it back. */
export async function translateDocument(env: Bindings, bytes: Uint8Array, request: DocumentRequest): Promise<TranslatedDocument> {
  if (bytes.length > MAX_DOCUMENT_BYTES)
    throw new ApiError(413, `documentBase64: the document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`);
  const targetLang = baseLanguage(request.targetLang);
  if (request.fileType === "pdf" && !PDF_TARGET_LANGUAGES.has(targetLang)) {
    throw badRequest(
      `targetLang: a translated PDF is drawn with the standard Latin fonts, which cannot write ${languageName(targetLang)}; send a docx instead`,
    );
  }
  const translator = translatorFor(env);
  const document = await readDocument(bytes, request);
  const sourceLang = request.sourceLang ? baseLanguage(request.sourceLang) : detectLanguage(document.texts.join("\n").slice(0, 5000), 1)?.code;
  if (!sourceLang) throw badRequest("sourceLang: the document's language could not be detected; give sourceLang");
  const translations =
    sourceLang === targetLang ? new Map(document.texts.map((t) => [t, t])) : await translateAll(translator, document.texts, sourceLang, targetLang);
  const characterCount = [...new Set(document.texts)].reduce((sum, t) => sum + t.length, 0);
  return { document: await document.rebuild(translations), sourceLang, targetLang, characterCount, engine: translator.provider };
}
