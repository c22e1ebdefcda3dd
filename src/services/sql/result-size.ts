// How much of a query's result is kept: bounded in bytes as well as in rows, so one query cannot bring a
// database's values (PostgreSQL allows 1 GB each) into the Worker, the tool's record or the answer.

/** A value's text at most this many bytes (UTF-8); a longer one is cut and says so. */
export const VALUE_BYTES = 64 * 1024;
/** The rows of one result together at most this many bytes, as an API tool's answer (1 MiB). */
export const RESULT_BYTES = 1024 * 1024;

const encoder = new TextEncoder();
const scratch = new Uint8Array(VALUE_BYTES);

/** Text cut at VALUE_BYTES (between characters), marked as cut. */
function cutText(text: string): { value: string; bytes: number; cut: boolean } {
  if (text.length * 3 <= VALUE_BYTES) return { value: text, bytes: encoder.encode(text).byteLength, cut: false };
  const { read, written } = encoder.encodeInto(text, scratch);
  if (read >= text.length) return { value: text, bytes: written, cut: false };
  return { value: `${text.slice(0, read)}… (value cut at ${VALUE_BYTES} bytes)`, bytes: written, cut: true };
}

/** One value as kept and its size: text and JSON values cut, the rest (numbers, dates, bytes shown as a note) small. */
function keptValue(v: unknown): { value: unknown; bytes: number; cut: boolean } {
  if (typeof v === "string") return cutText(v);
  if (
    v !== null &&
    typeof v === "object" &&
    !(v instanceof Date) &&
    !ArrayBuffer.isView(v) &&
    !(v instanceof ArrayBuffer)
  ) {
    const json = JSON.stringify(v) ?? "";
    if (json.length * 3 <= VALUE_BYTES) return { value: v, bytes: json.length, cut: false };
    const text = cutText(json);
    return text.cut ? text : { value: v, bytes: text.bytes, cut: false };
  }
  return { value: v, bytes: 32, cut: false };
}

/**
 * The rows of one result as they are read: each value cut at VALUE_BYTES, and no more rows once RESULT_BYTES are
 * held. `truncated` then says the result was cut, as it says rows past the row limit were left out.
 */
export class ResultBudget {
  #left = RESULT_BYTES;
  truncated = false;

  /** The row as kept, or null: it does not fit, and neither will the rows after it. */
  take(row: unknown[]): unknown[] | null {
    if (this.#left <= 0) return null;
    const kept = row.map(keptValue);
    const bytes = kept.reduce((sum, k) => sum + k.bytes, 0);
    if (bytes > this.#left) {
      this.#left = 0;
      this.truncated = true;
      return null;
    }
    this.#left -= bytes;
    if (kept.some((k) => k.cut)) this.truncated = true;
    return kept.map((k) => k.value);
  }
}

/**
 * At most `maxRows` of `rows`, read one at a time and stopping at the first that does not fit the budget (a
 * managed database's cursor: nothing past the budget is read into memory). `truncated`: rows were left out or cut.
 */
export function keptRows(rows: Iterable<unknown[]>, maxRows: number): { rows: unknown[][]; truncated: boolean } {
  const budget = new ResultBudget();
  const kept: unknown[][] = [];
  for (const row of rows) {
    const fits = kept.length < maxRows ? budget.take(row) : null;
    if (!fits) return { rows: kept, truncated: true };
    kept.push(fits);
  }
  return { rows: kept, truncated: budget.truncated };
}
