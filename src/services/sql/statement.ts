import { type SqlDialect, SqlRefused, type Token } from "./tokens";
import { GRAMMAR_WORDS } from "./words";

/** A name read as a table (FROM, JOIN, a FROM list's comma, TABLE) that no CTE in scope there defines. */
export interface TableReference {
  name: string;
  /** The name as the database compares it: PostgreSQL's quoted names exact, other names in lower case. */
  key: string;
  schema?: string;
}

export interface StatementNames {
  /** Every table the statement reads, CTEs taken out by scope. */
  tables: TableReference[];
  /** Every CTE name it defines, lower-case, whatever its scope (for the SQL parser's flat table list). */
  cteNames: Set<string>;
  /** Token positions followed by `(` that name a column list (a CTE's, an alias's) or MATERIALIZED: no calls. */
  notCalls: Set<number>;
}

/** Words that start a join after a FROM item. `left` and `right` are also functions, when `(` follows. */
const JOIN_WORDS = new Set(["join", "natural", "inner", "left", "right", "full", "outer", "cross"]);
/** Words that end a FROM list at its own depth. */
const FROM_ENDS = new Set([
  "where",
  "group",
  "having",
  "window",
  "order",
  "limit",
  "offset",
  "fetch",
  "union",
  "intersect",
  "except",
  "for",
]);

const unreadable = (what: string) =>
  new SqlRefused(`The ${what} could not be read: write it plainly (name [AS alias], joins with ON or USING).`);

/**
 * The tables a statement reads and the CTEs it defines, read where the grammar puts them (SQL databases and
 * text-to-SQL, decisions.md). A CTE is only `name [(cols)] AS [[NOT] MATERIALIZED] (...)` right after a query's
 * WITH or after the comma ending such a definition; it hides a table of its name only after its own definition
 * and up to the end of the query that WITH belongs to. Guessing from the words around a name let a FROM list's
 * `, secrets AS s` pass as a CTE (its table unchecked) and `, fn(...) AS x` as a CTE with columns (fn never
 * checked against the allow-list). What does not fit these shapes is refused rather than guessed at.
 */
export function readStatementNames(tokens: Token[], dialect: SqlDialect): StatementNames {
  const match = new Array<number>(tokens.length).fill(-1);
  const parent = new Array<number>(tokens.length).fill(-1);
  const open: number[] = [];
  for (const [i, t] of tokens.entries()) {
    parent[i] = open.at(-1) ?? -1;
    if (t.kind !== "symbol") continue;
    if (t.text === "(" || t.text === "[") open.push(i);
    else if (t.text === ")" || t.text === "]") {
      const o = open.pop();
      if (o === undefined || tokens[o].text !== (t.text === ")" ? "(" : "["))
        throw new SqlRefused("Unbalanced parentheses.");
      match[o] = i;
      match[i] = o;
      parent[i] = open.at(-1) ?? -1;
    }
  }
  if (open.length) throw new SqlRefused("Unbalanced parentheses.");

  const word = (i: number) => (tokens[i]?.kind === "word" ? tokens[i].text.toLowerCase() : undefined);
  const is = (i: number, symbol: string) => tokens[i]?.kind === "symbol" && tokens[i].text === symbol;
  const isName = (i: number) => tokens[i]?.kind === "word" || tokens[i]?.kind === "quoted";
  /** Where the query holding token i ends: its closing parenthesis, or the end of the text. */
  const queryEnd = (i: number) => (parent[i] < 0 ? tokens.length : match[parent[i]]);
  // PostgreSQL folds unquoted names to lower case and keeps quoted ones; SQLite compares both without case
  // (ASCII only, as both engines do).
  const key = (t: Token) =>
    dialect === "postgresql" && t.kind === "quoted" ? t.text : t.text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  const isJoinStart = (i: number) => word(i) === "join" || (JOIN_WORDS.has(word(i) ?? "") && !is(i + 1, "("));

  const ctes: { key: string; from: number; to: number }[] = [];
  const cteNames = new Set<string>();
  const notCalls = new Set<number>();
  const references: { name: Token; schema?: Token; at: number }[] = [];
  const joins = new Set<number>();

  function readWith(w: number) {
    const to = queryEnd(w);
    let p = w + 1;
    if (word(p) === "recursive") p++;
    for (;;) {
      if (!isName(p)) throw unreadable("WITH clause");
      const name = tokens[p++];
      if (is(p, "(")) {
        notCalls.add(p - 1);
        p = match[p] + 1;
      }
      if (word(p++) !== "as") throw unreadable("WITH clause");
      const negated = word(p) === "not";
      if (negated) p++;
      if (word(p) === "materialized") notCalls.add(p++);
      else if (negated) throw unreadable("WITH clause");
      if (!is(p, "(")) throw unreadable("WITH clause");
      p = match[p] + 1;
      ctes.push({ key: key(name), from: p - 1, to });
      cteNames.add(name.text.toLowerCase());
      if (!is(p, ",")) return;
      p++;
    }
  }

  /** `name` or `schema.name` at p, read as a table; returns the position after it. */
  function reference(p: number): number {
    if (!isName(p)) throw unreadable("FROM clause");
    if (is(p + 1, ".")) {
      if (!isName(p + 2) || is(p + 3, ".")) throw unreadable("FROM clause");
      references.push({ schema: tokens[p], name: tokens[p + 2], at: p + 2 });
      return p + 3;
    }
    references.push({ name: tokens[p], at: p });
    return p + 1;
  }

  /** One FROM item with its alias; returns the position after it. */
  function fromItem(p: number, end: number): number {
    if (p >= end) throw unreadable("FROM clause");
    if (word(p) === "lateral") p++;
    if (word(p) === "only") p++;
    if (is(p, "(")) {
      const first = word(p + 1);
      const close = match[p];
      // A subquery's own FROM is read where it stands; a parenthesized join is a FROM list of its own.
      if (
        first !== "select" &&
        first !== "with" &&
        first !== "values" &&
        first !== "table" &&
        fromList(p + 1, close) !== close
      )
        throw unreadable("FROM clause");
      p = close + 1;
    } else if (isName(p) && (is(p + 1, "(") || (is(p + 1, ".") && is(p + 3, "(")))) {
      // A table function: the function allow-list decides.
      p = match[is(p + 1, "(") ? p + 1 : p + 3] + 1;
    } else p = reference(p);
    const aliased = word(p) === "as";
    if (aliased) p++;
    const w = word(p);
    if (isName(p) && (aliased || !(isJoinStart(p) || FROM_ENDS.has(w ?? "") || w === "on" || w === "using"))) {
      p++;
      if (is(p, "(")) {
        notCalls.add(p - 1);
        p = match[p] + 1;
      }
    } else if (aliased) throw unreadable("FROM clause");
    return p;
  }

  /** Skips a join condition up to what ends it at its own depth. */
  function condition(p: number, end: number): number {
    while (p < end && !is(p, ",") && !isJoinStart(p) && !FROM_ENDS.has(word(p) ?? ""))
      p = is(p, "(") || is(p, "[") ? match[p] + 1 : p + 1;
    return p;
  }

  /** A FROM list from p: items separated by commas or joined; returns where it ends. */
  function fromList(p: number, end: number): number {
    for (;;) {
      p = fromItem(p, end);
      while (p < end && isJoinStart(p)) {
        while (word(p) !== "join") if (p >= end || !JOIN_WORDS.has(word(p++) ?? "")) throw unreadable("join");
        joins.add(p);
        p = fromItem(p + 1, end);
        if (word(p) === "on") p = condition(p + 1, end);
        else if (word(p) === "using") {
          if (!is(p + 1, "(")) throw unreadable("join");
          p = match[p + 1] + 1;
        }
      }
      if (is(p, ",")) p++;
      else if (p >= end || FROM_ENDS.has(word(p) ?? "")) return p;
      else throw unreadable("FROM clause");
    }
  }

  for (let i = 0; i < tokens.length; i++) {
    const w = word(i);
    if (w === "with") {
      if (i === 0 || is(i - 1, "(")) readWith(i);
      else if (!(word(i + 1) === "time" && word(i + 2) === "zone"))
        throw new SqlRefused("WITH is only allowed at the start of a query or a subquery.");
    } else if (w === "table") reference(i + 1);
    else if (w === "from") {
      // `a IS [NOT] DISTINCT FROM b` compares; EXTRACT(x FROM y), SUBSTRING(x FROM n), TRIM(... FROM x) are calls.
      if (word(i - 1) === "distinct" && (word(i - 2) === "is" || (word(i - 2) === "not" && word(i - 3) === "is")))
        continue;
      const g = parent[i];
      const caller = tokens[g - 1];
      const inCall =
        g > 0 &&
        is(g, "(") &&
        (caller.kind === "quoted" || (caller.kind === "word" && !GRAMMAR_WORDS.has(caller.text.toLowerCase()))) &&
        word(g + 1) !== "select" &&
        word(g + 1) !== "with";
      if (!inCall) fromList(i + 1, queryEnd(i));
    }
  }
  for (const [i, t] of tokens.entries())
    if (t.kind === "word" && t.text.toLowerCase() === "join" && !joins.has(i)) throw unreadable("join");

  const tables: TableReference[] = [];
  for (const r of references) {
    const k = key(r.name);
    if (!r.schema && ctes.some((c) => c.key === k && c.from < r.at && r.at < c.to)) continue;
    tables.push({ name: r.name.text, key: k, schema: r.schema?.text });
  }
  return { tables, cteNames, notCalls };
}
