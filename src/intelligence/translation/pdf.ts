import { PDFDocument, rgb, StandardFonts, EncryptedPDFError } from "@pdfme/pdf-lib";
import { getDocumentProxy } from "unpdf";
import { badRequest } from "../../platform/errors";

interface TextItem {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Target languages whose letters the PDF standard fonts (WinAnsi) can draw. */
export const PDF_TARGET_LANGUAGES = new Set([
  "en",
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "nl",
  "da",
  "sv",
  "no",
  "nb",
  "fi",
  "is",
  "ca",
  "gl",
  "eu",
  "ga",
  "af",
  "id",
  "ms",
  "sw",
  "tl",
  "et",
]);

export interface PdfText {
  texts: string[];
  rebuild(translations: Map<string, string>): Promise<Uint8Array>;
}

/**
 * The text items of every page with their positions (pdf.js through unpdf). Rebuilding covers
 * each item with a white box and draws its translation there in Helvetica, shrunk to the
 * original width; pictures, drawings and the page size stay as they were.
 */
export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
  let original: PDFDocument;
  try {
    original = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw badRequest("documentBase64: the PDF is encrypted; send it without a password");
    throw badRequest("documentBase64: the PDF is damaged and cannot be read");
  }
  const items: TextItem[] = [];
  try {
    const proxy = await getDocumentProxy(new Uint8Array(bytes));
    for (let page = 1; page <= proxy.numPages; page++) {
      const content = await (await proxy.getPage(page)).getTextContent();
      for (const item of content.items) {
        if (!("str" in item) || !item.str.trim()) continue;
        const [, , , scaleY, x, y] = item.transform as number[];
        items.push({ page: page - 1, text: item.str, x: x!, y: y!, width: item.width, height: Math.abs(item.height || scaleY!) });
      }
    }
    await proxy.destroy();
  } catch {
    throw badRequest("documentBase64: the text of the PDF cannot be read");
  }
  return {
    texts: items.map((i) => i.text),
    async rebuild(translations) {
      const font = await original.embedFont(StandardFonts.Helvetica);
      const drawable = new Set(font.getCharacterSet());
      const pages = original.getPages();
      for (const item of items) {
        const translated = translations.get(item.text);
        if (translated === undefined) continue;
        // Letters outside WinAnsi lose their accents rather than break the page.
        const text = [...translated.normalize("NFC")]
          .map((ch) => (drawable.has(ch.codePointAt(0)!) ? ch : ch.normalize("NFD")[0]!))
          .filter((ch) => drawable.has(ch.codePointAt(0)!))
          .join("");
        const page = pages[item.page]!;
        const size = Math.max(
          4,
          Math.min(item.height, item.width > 0 ? (item.height * item.width) / Math.max(1, font.widthOfTextAtSize(text, item.height)) : item.height),
        );
        page.drawRectangle({
          x: item.x,
          y: item.y - item.height * 0.25,
          width: Math.max(item.width, font.widthOfTextAtSize(text, size)),
          height: item.height * 1.2,
          color: rgb(1, 1, 1),
        });
        page.drawText(text, { x: item.x, y: item.y, size, font, color: rgb(0, 0, 0) });
      }
      return original.save();
    },
  };
}
