import { DOMParser, XMLSerializer, type Element } from "@xmldom/xmldom";
import { unzipSync, zipSync, type Unzipped } from "fflate";
import { ApiError, badRequest } from "../../platform/errors";

export type OfficeType = "docx" | "pptx" | "xlsx";

interface OfficeFormat {
  /** The part every file of this type has. */
  marker: string;
  /** Parts holding translatable text, with their paragraph and text-run elements. */
  parts: { name: RegExp; paragraph: string; text: string }[];
}

const FORMATS: Record<OfficeType, OfficeFormat> = {
  docx: {
    marker: "word/document.xml",
    parts: [{ name: /^word\/(?:document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$/, paragraph: "w:p", text: "w:t" }],
  },
  pptx: {
    marker: "ppt/presentation.xml",
    parts: [{ name: /^ppt\/(?:slides\/slide\d+|notesSlides\/notesSlide\d+)\.xml$/, paragraph: "a:p", text: "a:t" }],
  },
  xlsx: {
    marker: "xl/workbook.xml",
    parts: [
      { name: /^xl\/sharedStrings\.xml$/, paragraph: "si", text: "t" },
      { name: /^xl\/worksheets\/sheet\d+\.xml$/, paragraph: "is", text: "t" },
    ],
  },
};

/** Limits that keep a crafted archive (a zip bomb) from exhausting the Worker's 128 MB. */
const MAX_ENTRIES = 5000;
const MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;
const MAX_RATIO = 200;

export function unzipOffice(bytes: Uint8Array, type: OfficeType): Unzipped {
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw badRequest(`documentBase64: this is an encrypted or legacy (pre-2007) Office file, not a ${type} document`);
  }
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw badRequest(`documentBase64: the file is not a ${type} document (not a zip archive)`);
  let entries = 0;
  let total = 0;
  let files: Unzipped;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        entries++;
        total += file.originalSize;
        if (
          entries > MAX_ENTRIES ||
          total > MAX_UNCOMPRESSED_BYTES ||
          (file.originalSize > 1024 * 1024 && file.originalSize > file.size * MAX_RATIO)
        ) {
          throw new ApiError(
            413,
            `documentBase64: the archive expands beyond ${MAX_UNCOMPRESSED_BYTES / 1024 / 1024} MB or ${MAX_RATIO}:1 (a zip bomb?)`,
          );
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest(`documentBase64: the file is not a ${type} document (the zip archive is damaged)`);
  }
  if (!files[FORMATS[type].marker]) throw badRequest(`documentBase64: the file is not a ${type} document (no ${FORMATS[type].marker})`);
  return files;
}

interface Paragraph {
  runs: Element[];
  text: string;
}

const ancestorParagraph = (node: Element, tag: string): Element | null => {
  let current = node.parentNode as Element | null;
  while (current && current.nodeName !== tag) current = current.parentNode as Element | null;
  return current;
};

function paragraphsOf(document: ReturnType<DOMParser["parseFromString"]>, paragraphTag: string, textTag: string): Paragraph[] {
  return Array.from(document.getElementsByTagName(paragraphTag))
    .map((paragraph) => {
      // A text box nests paragraphs in paragraphs: each run belongs to its nearest one.
      const runs = Array.from(paragraph.getElementsByTagName(textTag)).filter((run) => ancestorParagraph(run, paragraphTag) === paragraph);
      return { runs, text: runs.map((r) => r.textContent ?? "").join("") };
    })
    .filter((p) => p.text.trim());
}

/**
 * The translated paragraph goes back into its runs. Keeping formatting, it is split at word
 * boundaries in proportion to the runs' original lengths, so bold or coloured stretches stay
 * about where they were; without, it all goes into the first run.
 */
function distribute(runs: Element[], translated: string, preserveFormatting: boolean) {
  const lengths = runs.map((r) => (r.textContent ?? "").length);
  const parts: string[] = runs.map(() => "");
  if (!preserveFormatting || runs.length === 1) parts[0] = translated;
  else {
    const total = lengths.reduce((a, b) => a + b, 0) || 1;
    const pieces = translated.split(/(?<=\s)/);
    let run = 0;
    let boundary = (lengths[0]! / total) * translated.length;
    let written = 0;
    for (const piece of pieces) {
      while (run < runs.length - 1 && written + piece.length / 2 > boundary) {
        run++;
        boundary += (lengths[run]! / total) * translated.length;
      }
      parts[run] += piece;
      written += piece.length;
    }
  }
  runs.forEach((r, i) => {
    r.textContent = parts[i]!;
    if (r.nodeName === "w:t") r.setAttribute("xml:space", "preserve");
  });
}

export interface OfficeText {
  texts: string[];
  /** Writes the translations in and zips the document again. */
  rebuild(translations: Map<string, string>, preserveFormatting: boolean): Uint8Array;
}

export function readOfficeText(files: Unzipped, type: OfficeType): OfficeText {
  const parsed: { name: string; document: ReturnType<DOMParser["parseFromString"]>; paragraphs: Paragraph[] }[] = [];
  for (const name of Object.keys(files).sort()) {
    const part = FORMATS[type].parts.find((p) => p.name.test(name));
    if (!part) continue;
    let document: ReturnType<DOMParser["parseFromString"]>;
    try {
      document = new DOMParser({
        onError: (level, message) => {
          if (level !== "warning") throw new Error(message);
        },
      }).parseFromString(new TextDecoder().decode(files[name]), "text/xml");
    } catch {
      throw badRequest(`documentBase64: ${name} in the ${type} document is not well-formed XML`);
    }
    parsed.push({ name, document, paragraphs: paragraphsOf(document, part.paragraph, part.text) });
  }
  return {
    texts: parsed.flatMap((p) => p.paragraphs.map((paragraph) => paragraph.text)),
    rebuild(translations, preserveFormatting) {
      const serializer = new XMLSerializer();
      const encoder = new TextEncoder();
      for (const { name, document, paragraphs } of parsed) {
        for (const paragraph of paragraphs) {
          const translated = translations.get(paragraph.text);
          if (translated !== undefined) distribute(paragraph.runs, translated, preserveFormatting);
        }
        files[name] = new Uint8Array(encoder.encode(serializer.serializeToString(document)));
      }
      return zipSync(files, { level: 6 });
    },
  };
}
