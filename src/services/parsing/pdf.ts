import type { extractTextItems } from "unpdf";
import { vendored } from "../../vendored";
import { ParseError } from "./errors";
import { tidy } from "./text";
import type { ParsedDocument } from "./types";

type Item = Awaited<ReturnType<typeof extractTextItems>>["items"][number][number];
interface Line {
  text: string;
  y: number;
  size: number;
}

// A vertical step this many font sizes or more between two lines is a paragraph gap, not leading.
const PARAGRAPH_GAP = 1.8;
// List items are set as tightly as wrapped lines, but each is an item of its own.
const BULLET = /^[•◦▪‣∙·–-]\s/;
const CJK = /[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/;

/**
 * PDF to one text per page, in page order. pdf.js gives positioned fragments; lines of a
 * paragraph are joined into one line, because the chunker treats a newline as a sentence end
 * and a PDF wraps lines in mid-sentence.
 */
export async function parsePdf(bytes: Uint8Array): Promise<ParsedDocument> {
  // pdf.js is a module of its own (src/vendor/pdf.js), imported by the first PDF.
  const { extractTextItems, getDocumentProxy, getMeta } = await vendored("pdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js may detach the buffer it is given; the caller's bytes stay usable.
    // pdf.js logs warnings about every damaged file to the console; the ParseError says it once.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  } catch (err) {
    throw pdfError(err);
  }
  try {
    const { items } = await extractTextItems(pdf);
    const { info } = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
    const title = typeof info.Title === "string" ? info.Title.trim() : "";
    const pages = items.map((pageItems, i) => ({ number: i + 1, text: pageText(pageItems) }));
    return { pages, ...(title ? { title } : {}) };
  } catch (err) {
    throw pdfError(err);
  } finally {
    await pdf.destroy();
  }
}

function pdfError(err: unknown): ParseError {
  const name = (err as Error)?.name;
  if (name === "PasswordException")
    return new ParseError("The PDF is password-protected; remove the password and upload it again.");
  if (name === "InvalidPDFException" || name === "FormatError")
    return new ParseError("The file is not a valid PDF or is damaged.");
  return new ParseError(`The PDF could not be read: ${(err as Error)?.message ?? String(err)}`);
}

function pageText(items: Item[]): string {
  const lines: Line[] = [];
  let line: Line | null = null;
  let lastEnd = 0;
  for (const item of items) {
    const size = item.fontSize || item.height || 1;
    if (line && item.str && line.text && Math.abs(item.y - line.y) > size * 0.5) line = null;
    if (!line) lines.push((line = { text: "", y: item.y, size }));
    if (item.str) {
      if (!line.text) line.y = item.y;
      // Fragments placed apart without a space character between them are separate words.
      else if (item.x - lastEnd > size * 0.15 && !/\s$/.test(line.text) && !/^\s/.test(item.str)) line.text += " ";
      line.text += item.str;
      line.size = Math.max(line.size, size);
      lastEnd = item.x + item.width;
    }
    if (item.hasEOL) line = null;
  }
  let out = "";
  let prev: Line | null = null;
  for (const { text: raw, y, size } of lines) {
    const text = raw.replace(/\s+/g, " ").trim();
    if (!text) continue;
    if (prev) {
      const gap = prev.y - y;
      const newParagraph =
        gap < 0 ||
        gap > PARAGRAPH_GAP * Math.max(size, prev.size) ||
        Math.abs(size - prev.size) > 1 ||
        BULLET.test(text);
      if (newParagraph) out += "\n";
      else if (/[a-z]-$/.test(out) && /^[a-z]/.test(text)) out = out.slice(0, -1);
      else if (!(CJK.test(out.slice(-1)) && CJK.test(text[0]))) out += " ";
    }
    out += text;
    prev = { text, y, size };
  }
  return tidy(out);
}
