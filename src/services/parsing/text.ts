import { ParseError } from "./errors";
import type { ParsedDocument } from "./types";

// Above this share of undecodable bytes or control characters, the file is binary, not text.
const MAX_GARBAGE_RATIO = 0.01;

/**
 * UTF-8 (or BOM-marked UTF-16) bytes to text with "\n" line ends. Binary data decodes to
 * replacement and control characters; such a file is refused rather than indexed as noise.
 */
export function decodeText(bytes: Uint8Array, kind = "text"): string {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = decodeUtf16be(bytes.subarray(2));
  else text = new TextDecoder().decode(bytes); // drops a UTF-8 BOM
  let garbage = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0x7f) garbage++;
  }
  if (garbage > Math.max(2, text.length * MAX_GARBAGE_RATIO)) {
    throw new ParseError(
      `The file does not look like a ${kind} file: it contains binary data or is not encoded as UTF-8.`,
    );
  }
  return text.replace(/\r\n?/g, "\n");
}

// workerd's TextDecoder knows UTF-16LE only; big-endian files are rare enough to swap by hand.
function decodeUtf16be(bytes: Uint8Array): string {
  const swapped = new Uint8Array(bytes.length - (bytes.length % 2));
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    swapped[i] = bytes[i + 1];
    swapped[i + 1] = bytes[i];
  }
  return new TextDecoder("utf-16le").decode(swapped);
}

/**
 * Trims each line's trailing spaces and collapses runs of blank lines to one paragraph break. A run of spaces is tried
 * from its first space only: anchored at the line end alone (/[^\S\n]+$/gm), it was tried again from each space of a
 * run that ends no line, which made a long one cost the square of its length.
 */
export function tidy(text: string): string {
  return text
    .replace(/(?<![^\S\n])[^\S\n]+(?=[\n\r\u2028\u2029]|$)/g, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+/, "")
    .trimEnd();
}

/** Plain text; form feeds (as pdftotext writes them) separate pages. */
export function parseText(bytes: Uint8Array): ParsedDocument {
  const pages = decodeText(bytes)
    .split("\f")
    .map((text, i) => ({ number: i + 1, text: tidy(text) }));
  return { pages };
}
