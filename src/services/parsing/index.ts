import { lazy } from "../../lib/lazy";
import { ParseError, UnsupportedFileType } from "./errors";
import { parseJson } from "./json";
import { parseMarkdown } from "./markdown";
import { parseText } from "./text";
import type { ParsedDocument } from "./types";

export { ParseError, UnsupportedFileType } from "./errors";
export type { Chunk, ParsedDocument } from "./types";

/** The one parser of this service; `parser` in requests may name it or be left out. */
export const BUILT_IN_PARSER = {
  id: "00000000-0000-7000-8000-0000000000a1",
  name: "Built-in parser",
  provider: "local",
  isTimestampSttProvider: false,
} as const;

export type FileType = "pdf" | "docx" | "txt" | "md" | "html" | "csv" | "json";

export interface SupportedFileType {
  fileType: FileType;
  /** The canonical extension, without the dot. */
  extension: string;
  /** Every extension read as this type, without the dot; the canonical one first. */
  extensions: string[];
  contentTypes: string[];
  /** Largest file accepted, in bytes. */
  maxSize: number;
  description: string;
}

const MiB = 1024 * 1024;

// Binary formats get more room: their text is a fraction of their size. Text formats are held
// whole in memory as a string (twice the bytes) within a Worker's 128 MB.
export const SUPPORTED_FILE_TYPES: readonly SupportedFileType[] = [
  {
    fileType: "pdf",
    extension: "pdf",
    extensions: ["pdf"],
    contentTypes: ["application/pdf", "application/x-pdf"],
    maxSize: 20 * MiB,
    description: "PDF document (text layer; scanned pages without text are not read)",
  },
  {
    fileType: "docx",
    extension: "docx",
    extensions: ["docx"],
    contentTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    maxSize: 20 * MiB,
    description: "Word document (.docx; save old .doc files as .docx)",
  },
  {
    fileType: "txt",
    extension: "txt",
    extensions: ["txt", "text"],
    contentTypes: ["text/plain"],
    maxSize: 10 * MiB,
    description: "Plain text, UTF-8",
  },
  {
    fileType: "md",
    extension: "md",
    extensions: ["md", "markdown"],
    contentTypes: ["text/markdown", "text/x-markdown"],
    maxSize: 10 * MiB,
    description: "Markdown, read as its text without the markup",
  },
  {
    fileType: "html",
    extension: "html",
    extensions: ["html", "htm", "xhtml"],
    contentTypes: ["text/html", "application/xhtml+xml"],
    maxSize: 10 * MiB,
    description: "Web page; scripts, styles and navigation are left out",
  },
  {
    fileType: "csv",
    extension: "csv",
    extensions: ["csv", "tsv"],
    contentTypes: ["text/csv", "application/csv", "text/tab-separated-values"],
    maxSize: 10 * MiB,
    description: 'Table with a header row; each row becomes a line of "column: value" pairs',
  },
  {
    fileType: "json",
    extension: "json",
    extensions: ["json"],
    contentTypes: ["application/json", "text/json"],
    maxSize: 10 * MiB,
    description: 'JSON; each value becomes a "path: value" line',
  },
];

// The parsers built on libraries (pdf.js, fflate, htmlparser2, papaparse) are imported by the first
// file of their type: importing them up front cost every cold start (docs/decisions.md, "Cold start").
const pdf = lazy(() => import("./pdf"));
const docx = lazy(() => import("./docx"));
const html = lazy(() => import("./html"));
const csv = lazy(() => import("./csv"));
const PARSERS: Record<FileType, (bytes: Uint8Array) => ParsedDocument | Promise<ParsedDocument>> = {
  pdf: async (bytes) => (await pdf()).parsePdf(bytes),
  docx: async (bytes) => (await docx()).parseDocx(bytes),
  txt: parseText,
  md: parseMarkdown,
  html: async (bytes) => (await html()).parseHtml(bytes),
  csv: async (bytes) => (await csv()).parseCsv(bytes),
  json: parseJson,
};

/** The file's type by its extension, else by its content type (parameters ignored); null when neither is supported. */
export function fileTypeOf(filename: string, contentType?: string | null): FileType | null {
  const dot = filename.lastIndexOf(".");
  const extension = dot >= 0 ? filename.slice(dot + 1).toLowerCase() : "";
  const byExtension = extension && SUPPORTED_FILE_TYPES.find((t) => t.extensions.includes(extension));
  if (byExtension) return byExtension.fileType;
  const mediaType = contentType?.split(";")[0].trim().toLowerCase();
  return SUPPORTED_FILE_TYPES.find((t) => mediaType && t.contentTypes.includes(mediaType))?.fileType ?? null;
}

/**
 * A knowledge-base file's text, page by page. Throws `UnsupportedFileType` for a type it cannot
 * read and `ParseError` for a file it cannot read; both messages are meant for the user.
 */
export async function parseDocument(
  bytes: Uint8Array,
  filename: string,
  contentType?: string,
): Promise<ParsedDocument> {
  const fileType = fileTypeOf(filename, contentType);
  if (!fileType) {
    const dot = filename.lastIndexOf(".");
    const what =
      dot >= 0 ? `".${filename.slice(dot + 1)}" files` : `"${filename}" (${contentType || "no content type"})`;
    const supported = SUPPORTED_FILE_TYPES.map((t) => t.extension).join(", ");
    throw new UnsupportedFileType(`Unsupported file type: ${what} cannot be read. Supported types: ${supported}.`);
  }
  const { maxSize } = SUPPORTED_FILE_TYPES.find((t) => t.fileType === fileType)!;
  if (bytes.length > maxSize) {
    throw new ParseError(
      `The file is too large: ${mib(bytes.length)} MB, while ${fileType} files can be at most ${mib(maxSize)} MB.`,
    );
  }
  if (!bytes.length) throw new ParseError("The file is empty.");
  let doc: ParsedDocument;
  try {
    doc = await PARSERS[fileType](bytes);
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw new ParseError(`The ${fileType} file could not be read: ${(err as Error)?.message ?? String(err)}`);
  }
  if (!doc.pages.some((p) => p.text.trim())) {
    throw new ParseError(
      fileType === "pdf"
        ? "The PDF contains no text that can be extracted; scanned pages must be run through OCR first."
        : "The file contains no text.",
    );
  }
  return doc;
}

const mib = (bytes: number) => (Math.round((bytes / MiB) * 10) / 10).toString();
