import type { textNodes } from "../../db/schema";
import { ms } from "../../lib/time";
import type { NodeFile } from "../knowledge/files";
import { highlight } from "../knowledge/retrieval/terms";
import type { IdName } from "../view-parts";

export type TextNodeRow = typeof textNodes.$inferSelect;

/** The older form of a text node (`/api`). */
export interface TextNodeLegacy {
  id: string;
  charactersCount: number;
  hitsCount: number;
  text: string;
  updatedAt: string;
  filename: string;
  chatbotFile: string;
  pageNumber: number | null;
}

/** The newer form (`/api/v1`): the older fields plus citation, display and metadata fields. */
export interface TextNode extends TextNodeLegacy {
  knowledgeBaseFile: { id: string; filename: string };
  pageStart: number | null;
  pageEnd: number | null;
  startCharIdx: number;
  endCharIdx: number;
  citationTitle: string;
  citationDescription: string | null;
  citationQuote: string;
  hasImage: boolean;
  imageUrl: string | null;
  displayText: string;
  displayTitle: string;
  highlightedText: string;
  labels: IdName[];
  rawUserDefineMetadata: Record<string, unknown>;
  metadataEnabledForSearch: Record<string, boolean>;
}

const SENTENCE = /^[\s\S]*?(?:[.!?](?=\s|$)|[。！？])/u;
const QUOTE_CHARS = 200;

/** The first sentence, so a citation can show a short description. */
function firstSentence(text: string): string | null {
  const match = text.trim().match(SENTENCE);
  return match ? match[0].trim() : null;
}

/** The text cut near 200 characters, at a space when one is close, so a quote stays readable. */
function quote(text: string): string {
  const chars = [...text.trim()];
  if (chars.length <= QUOTE_CHARS) return chars.join("");
  const head = chars.slice(0, QUOTE_CHARS).join("");
  const space = head.lastIndexOf(" ");
  return `${(space > QUOTE_CHARS * 0.7 ? head.slice(0, space) : head).trimEnd()}…`;
}

export function legacyTextNodeRecord(row: TextNodeRow, file: NodeFile): TextNodeLegacy {
  return {
    id: row.id,
    charactersCount: [...row.text].length,
    hitsCount: row.hitsCount,
    text: row.text,
    updatedAt: ms(row.updatedAt)!,
    filename: file.filename,
    chatbotFile: file.id,
    pageNumber: row.pageStart,
  };
}

export function textNodeRecord(
  row: TextNodeRow,
  file: NodeFile,
  labels: IdName[],
  query: string | undefined,
): TextNode {
  return {
    ...legacyTextNodeRecord(row, file),
    knowledgeBaseFile: { id: file.id, filename: file.filename },
    pageStart: row.pageStart,
    pageEnd: row.pageEnd,
    startCharIdx: row.startCharIdx,
    endCharIdx: row.endCharIdx,
    citationTitle: file.filename,
    citationDescription: firstSentence(row.text),
    citationQuote: quote(row.text),
    hasImage: false,
    imageUrl: null,
    displayText: row.text,
    displayTitle: file.filename,
    // With no query, `highlight` marks nothing and returns the escaped text.
    highlightedText: highlight(row.text, query ?? ""),
    labels,
    rawUserDefineMetadata: file.rawUserDefineMetadata,
    metadataEnabledForSearch: {},
  };
}
