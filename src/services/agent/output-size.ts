/**
 * Tool outputs as stored: D1 and a Durable Object's SQLite refuse a value over 2 MB (SQLITE_TOOBIG) in production,
 * counted in bytes of the stored text, which for an output is its JSON. An api tool reads up to 1 MiB, whose JSON may
 * take six times that (a control character is written \u0000), so the cap is on the JSON's UTF-8 bytes.
 */

const MARKER = " [truncated]";
const encoder = new TextEncoder();

/** The UTF-8 bytes of a value's JSON as stored (a string is stored as its JSON too). */
export const jsonBytes = (value: unknown): number => encoder.encode(JSON.stringify(value) ?? "null").length;

/**
 * The value if its JSON takes at most `max` bytes; else its text (a string as it is, anything else as JSON) cut so
 * that the string's JSON, " [truncated]" included, does.
 */
export function withinBytes(value: unknown, max: number, bytes = jsonBytes(value)): unknown {
  if (bytes <= max) return value;
  let text = typeof value === "string" ? value : JSON.stringify(value);
  let size = bytes;
  // Each cut keeps the share of the text that fits, as the escapes and characters so far average; a text whose end
  // costs more than its start takes another cut.
  while (size > max && text) {
    text = text.slice(0, Math.floor((text.length * Math.max(0, max - jsonBytes(MARKER))) / size));
    if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
    size = jsonBytes(text + MARKER);
  }
  return text + MARKER;
}

/**
 * A stored output at most, and the outputs of one reply's calls together: a record's row and a reply's message (one
 * row of the conversation's store) keep 800 kB for the rest of their row. An api tool's answer read whole (1 MiB of
 * text that needs no escapes) stays whole.
 */
export const STORED_OUTPUT_BYTES = 1_200_000;

/**
 * The calls with their outputs cut so that all of them together take at most `total` bytes as JSON: an output that
 * fits its equal share stays whole, and what it leaves over goes to the larger ones, in equal shares.
 */
export function withOutputsWithin<T extends { output?: unknown }>(calls: T[], total = STORED_OUTPUT_BYTES): T[] {
  const sizes = calls.map((c) => jsonBytes(c.output));
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size);
  const out = [...calls];
  let left = total;
  order.forEach(({ size, i }, n) => {
    const share = Math.min(size, Math.floor(left / (order.length - n)));
    if (share < size) out[i] = { ...calls[i], output: withinBytes(calls[i].output, share, size) };
    left -= share;
  });
  return out;
}
