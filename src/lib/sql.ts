import { or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { unicodeForms } from "./text";

/** What SQLite's `lower()` makes of `text`: it folds ASCII letters only. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `text` with the first letter of each word upper case ("мария" -> "Мария"). */
const capitalised = (text: string) =>
  text.replace(/(^|[^\p{L}\p{M}])(\p{L})/gu, (_, before, letter) => before + letter.toUpperCase());

/**
 * The spellings of `text` a `contains` looks for, each as `lower()` leaves it: in either Unicode form
 * (`unicodeForms`), and, for letters beyond ASCII, which `lower()` does not fold, as typed, lower case, upper case and
 * capitalised, the cases names are written in (docs/decisions.md, "Validation messages"). ASCII text is one spelling.
 */
function caseSpellings(text: string): string[] {
  const spellings = new Set<string>();
  for (const form of unicodeForms(text)) {
    const lower = form.toLowerCase();
    for (const spelling of [form, lower, form.toUpperCase(), capitalised(lower)]) spellings.add(asciiLower(spelling));
  }
  return [...spellings];
}

/**
 * Case-insensitive "contains" filter for list `query` parameters. Not LIKE: D1 refuses a LIKE pattern over 50 bytes,
 * which one pasted link or a Chinese sentence of 17 characters passes, and `%` and `_` a user types would need
 * escaping. The text in each of its `caseSpellings`: a name is found whether it was typed or stored composed or
 * decomposed, and "мария" finds "Мария" though D1's `lower()` folds ASCII only.
 */
export const contains = (expr: SQLWrapper, text: string): SQL =>
  or(...caseSpellings(text).map((spelling) => sql`instr(lower(${expr}), ${spelling}) > 0`))!;

/** The trigram tokenizer of the full-text indexes (contacts_fts) matches nothing shorter. */
const TRIGRAM = 3;

/**
 * Whether a full-text (trigram) index can find `word` in each of its Unicode forms: "ét" is 2 characters composed
 * but 3 decomposed. When not, the word is looked for with `contains`.
 */
export const trigramSearchable = (word: string) => unicodeForms(word).every((form) => [...form].length >= TRIGRAM);

/**
 * `word` as an FTS5 query in either Unicode form (see `contains`): each form a phrase (in double quotes, its own
 * quotes doubled, so no query syntax applies), joined by OR.
 */
export function ftsWord(word: string): string {
  const phrases = unicodeForms(word).map((form) => `"${form.replace(/"/g, '""')}"`);
  return phrases.length === 1 ? phrases[0] : `(${phrases.join(" OR ")})`;
}

/** `column IN (...)` with the whole list bound as one JSON parameter (D1 binds at most 100). */
export const inList = (column: SQLWrapper, values: string[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** D1 binds at most 100 parameters per statement, so long id lists are split. */
export function chunk<T>(items: T[], size = 90): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `read` on the distinct ids in parts D1 can bind, and joins the results. */
export const inChunks = async <T>(ids: string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> =>
  ids.length ? (await Promise.all(chunk([...new Set(ids)], 90).map(read))).flat() : [];

/**
 * SQLite's order of two values as `ORDER BY` compares them (NULL first, numbers before text), for lists sorted in
 * code that SQL sorted before: text by BINARY (its UTF-8 bytes, i.e. code points, where UTF-16 units put the
 * surrogates of U+10000 and up before U+E000-U+FFFF), or with `nocase` by NOCASE (ASCII letters folded only).
 */
export function compareSql(a: string | number | null, b: string | number | null, nocase = false): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === "number" || typeof b === "number") {
    if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
    return typeof a === "number" ? -1 : 1;
  }
  const fold = (text: string) => (nocase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text);
  const [x, y] = [fold(a), fold(b)];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const [u, v] = [x.charCodeAt(i), y.charCodeAt(i)].map((c) =>
      c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c,
    );
    if (u !== v) return u < v ? -1 : 1;
  }
  return x.length - y.length;
}
