import { unzipSync } from "fflate";
import { ParseError } from "./errors";
import { tidy } from "./text";
import type { ParsedDocument } from "./types";

const DOCUMENT = "word/document.xml";
const CORE = "docProps/core.xml";
// A part inflating past this is a zip bomb, not a document (the file itself is at most 20 MiB).
const MAX_PART_BYTES = 200 * 1024 * 1024;
const TOKEN = /<(\/?)([\w:]+)([^>]*?)(\/?)>|([^<]+)/g;

/**
 * .docx to text, read straight from `word/document.xml`: fflate inflates synchronously (no Web
 * Worker, which Workers lack). Paragraphs become lines; explicit page breaks and the breaks Word
 * recorded when it last laid the document out start new pages, so citations can name a page.
 */
export function parseDocx(bytes: Uint8Array): ParsedDocument {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => (f.name === DOCUMENT || f.name === CORE) && f.originalSize <= MAX_PART_BYTES,
    });
  } catch {
    throw new ParseError(
      "The file is not a valid .docx document or is damaged (an old .doc file must be saved as .docx first).",
    );
  }
  const xml = files[DOCUMENT];
  if (!xml) throw new ParseError("The file is not a Word document: it has no word/document.xml part.");
  const pages = documentPages(new TextDecoder().decode(xml));
  const title = files[CORE] && /<dc:title>([^<]*)<\/dc:title>/.exec(new TextDecoder().decode(files[CORE]))?.[1];
  const cleanTitle = title ? unescapeXml(title).trim() : "";
  return {
    pages: pages.map((text, i) => ({ number: i + 1, text: tidy(text) })),
    ...(cleanTitle ? { title: cleanTitle } : {}),
  };
}

function documentPages(xml: string): string[] {
  const pages: string[] = [];
  let page = "";
  let inText = false;
  // A page break right after another (Word writes both an explicit break and the rendered one) is one break.
  const breakPage = () => {
    if (page.trim()) pages.push(page);
    page = "";
  };
  for (const [, closing, tag, attributes, selfClosing, text] of xml.matchAll(TOKEN)) {
    if (text !== undefined) {
      if (inText) page += unescapeXml(text);
      continue;
    }
    if (tag === "w:t") inText = !closing && !selfClosing;
    else if (closing && tag === "w:p") page += "\n";
    else if (closing) continue;
    else if (tag === "w:p" && selfClosing) page += "\n";
    else if (tag === "w:tab" || tag === "w:ptab") page += "\t";
    else if (tag === "w:br" && /w:type="page"/.test(attributes)) breakPage();
    else if (tag === "w:lastRenderedPageBreak") breakPage();
    else if (tag === "w:br" || tag === "w:cr") page += "\n";
    else if (tag === "w:noBreakHyphen") page += "-";
  }
  if (page.trim() || !pages.length) pages.push(page);
  return pages;
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (entity, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[name.toLowerCase()] ?? entity;
  });
}
