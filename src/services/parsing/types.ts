/** What a parser makes of a file: its text, page by page (one page for formats without pages). */
export interface ParsedDocument {
  pages: { number: number; text: string }[];
  /** Title from the document itself (PDF info, HTML <title>, first heading), when it has one. */
  title?: string;
}

/**
 * A chunk of a parsed document: whole sentences, at most a target length, with where it came from.
 * `startCharIdx`/`endCharIdx` are offsets into the document's full text (pages joined by "\n\n").
 */
export interface Chunk {
  text: string;
  pageStart: number;
  pageEnd: number;
  startCharIdx: number;
  endCharIdx: number;
}
