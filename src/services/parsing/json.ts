import { ParseError } from "./errors";
import { decodeText } from "./text";
import type { ParsedDocument } from "./types";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * JSON to one "path: value" line per leaf (`faq[2].answer: ...`), so a retrieved line still
 * says which field it came from. Iterative, so deeply nested input cannot overflow the stack.
 */
export function parseJson(bytes: Uint8Array): ParsedDocument {
  let value: Json;
  try {
    value = JSON.parse(decodeText(bytes, "JSON")) as Json;
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw new ParseError(`The file is not valid JSON: ${(err as Error).message}.`);
  }
  const lines: string[] = [];
  const stack: [string, Json][] = [["", value]];
  while (stack.length) {
    const [path, node] = stack.pop()!;
    if (node !== null && typeof node === "object") {
      const entries: [string, Json][] = Array.isArray(node)
        ? node.map((child, i) => [`${path}[${i}]`, child])
        : Object.entries(node).map(([key, child]) => [path ? `${path}.${key}` : key, child]);
      if (!entries.length) continue;
      // Reversed onto the stack so lines come out in document order.
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]);
      continue;
    }
    const text = typeof node === "string" ? node.replace(/\s+/g, " ").trim() : String(node);
    if (text) lines.push(path ? `${path}: ${text}` : text);
  }
  return { pages: [{ number: 1, text: lines.join("\n") }] };
}
