import pgParser from "node-sql-parser/build/postgresql.js";
import sqliteParser from "node-sql-parser/build/sqlite.js";

export type SqlDialect = "postgresql" | "sqlite";

/** The model's SQL was refused before it reached the database: the reason goes back to the model. */
export class SqlRefused extends Error {}

/**
 * Statements and clauses that write, change settings, lock, leave the database or run code. Any of
 * these words outside string literals refuses the query, even where the grammar would allow it.
 */
const FORBIDDEN_WORDS = new Set([
  "insert",
  "update",
  "delete",
  "merge",
  "upsert",
  "drop",
  "create",
  "alter",
  "truncate",
  "grant",
  "revoke",
  "copy",
  "call",
  "execute",
  "exec",
  "prepare",
  "deallocate",
  "vacuum",
  "reindex",
  "attach",
  "detach",
  "pragma",
  "begin",
  "commit",
  "rollback",
  "savepoint",
  "checkpoint",
  "into",
  "returning",
  "recursive",
  "nowait",
  "listen",
  "notify",
  "unlisten",
]);

/** Functions the model may call: aggregates, arithmetic, text, dates, conditionals. Anything else is refused. */
const ALLOWED_FUNCTIONS = new Set([
  // aggregates and windows
  "count",
  "sum",
  "avg",
  "min",
  "max",
  "total",
  "group_concat",
  "string_agg",
  "array_agg",
  "json_agg",
  "jsonb_agg",
  "bool_and",
  "bool_or",
  "every",
  "stddev",
  "stddev_pop",
  "stddev_samp",
  "variance",
  "var_pop",
  "var_samp",
  "median",
  "percentile_cont",
  "percentile_disc",
  "mode",
  "row_number",
  "rank",
  "dense_rank",
  "percent_rank",
  "cume_dist",
  "ntile",
  "lag",
  "lead",
  "first_value",
  "last_value",
  "nth_value",
  // numbers
  "abs",
  "round",
  "ceil",
  "ceiling",
  "floor",
  "trunc",
  "sign",
  "sqrt",
  "power",
  "pow",
  "exp",
  "ln",
  "log",
  "log10",
  "mod",
  "greatest",
  "least",
  "div",
  "width_bucket",
  // text
  "lower",
  "upper",
  "length",
  "char_length",
  "character_length",
  "octet_length",
  "substr",
  "substring",
  "trim",
  "ltrim",
  "rtrim",
  "btrim",
  "replace",
  "concat",
  "concat_ws",
  "left",
  "right",
  "lpad",
  "rpad",
  "position",
  "strpos",
  "instr",
  "initcap",
  "split_part",
  "reverse",
  "format",
  "to_char",
  "to_number",
  "printf",
  "like",
  "glob",
  "unicode",
  "char",
  "quote",
  "hex",
  "ascii",
  "chr",
  "md5",
  // dates
  "date",
  "time",
  "datetime",
  "julianday",
  "strftime",
  "unixepoch",
  "now",
  "current_date",
  "current_time",
  "current_timestamp",
  "date_trunc",
  "date_part",
  "extract",
  "age",
  "to_date",
  "to_timestamp",
  "make_date",
  "make_timestamp",
  "justify_days",
  "justify_interval",
  // conditionals and casts
  "coalesce",
  "nullif",
  "ifnull",
  "iif",
  "cast",
  "typeof",
  "nvl",
  "if",
  "numeric",
  "decimal",
  "varchar",
  "float",
  "double",
  // json reading
  "json_extract",
  "json_array_length",
  "jsonb_array_length",
  "json_typeof",
  "jsonb_typeof",
]);

/** Words that take parentheses without being functions. */
const GRAMMAR_WORDS = new Set([
  "select",
  "from",
  "where",
  "and",
  "or",
  "not",
  "in",
  "exists",
  "as",
  "on",
  "join",
  "using",
  "values",
  "over",
  "filter",
  "within",
  "any",
  "all",
  "some",
  "case",
  "when",
  "then",
  "else",
  "end",
  "between",
  "like",
  "ilike",
  "is",
  "by",
  "having",
  "union",
  "intersect",
  "except",
  "with",
  "lateral",
  "array",
  "row",
  "partition",
  "order",
  "group",
  "limit",
  "offset",
  "distinct",
  "interval",
  "similar",
  "escape",
  "nulls",
  "first",
  "last",
  "asc",
  "desc",
  "window",
  "rows",
  "range",
]);

/** Schemas and names of catalogs: the model reads the allowed tables only. */
const CATALOG = /^(pg_|information_schema$|sqlite_|_cf_|mysql$|sys$|performance_schema$)/i;

interface Token {
  kind: "word" | "quoted" | "string" | "number" | "symbol";
  text: string;
  /** Its place in the source. */
  start: number;
  end: number;
}

/**
 * Tokens of SQL text; comments are dropped. Dollar-quoted strings, E'' escapes and unterminated
 * literals are refused rather than guessed at.
 */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) i++;
    else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) throw new SqlRefused("Unterminated comment.");
      i = end + 2;
    } else if (c === "'") {
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf("'", j);
        if (k < 0) throw new SqlRefused("Unterminated string literal.");
        if (sql[k + 1] === "'") j = k + 2;
        else {
          j = k + 1;
          break;
        }
      }
      if (/[eE]$/.test(sql.slice(Math.max(0, i - 1), i)) && /\w/.test(sql[i - 1] ?? ""))
        throw new SqlRefused("Escaped (E'') strings are not allowed.");
      out.push({ kind: "string", text: sql.slice(i, j), start: i, end: j });
      i = j;
    } else if (c === '"' || c === "`") {
      const k = sql.indexOf(c, i + 1);
      if (k < 0) throw new SqlRefused("Unterminated quoted identifier.");
      out.push({ kind: "quoted", text: sql.slice(i + 1, k), start: i, end: k + 1 });
      i = k + 1;
    } else if (c === "$") {
      throw new SqlRefused("Dollar-quoted strings and parameters are not allowed.");
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      const m = /^[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*/.exec(sql.slice(i))!;
      out.push({ kind: "word", text: m[0], start: i, end: i + m[0].length });
      i += m[0].length;
    } else if (/[0-9.]/.test(c) && /[0-9]/.test(sql[i + 1] ?? c)) {
      const m = /^[0-9]*\.?[0-9]+(e[+-]?[0-9]+)?/i.exec(sql.slice(i))!;
      out.push({ kind: "number", text: m[0], start: i, end: i + m[0].length });
      i += m[0].length;
    } else {
      out.push({ kind: "symbol", text: c, start: i, end: i + 1 });
      i++;
    }
  }
  return out;
}

export interface CheckedSql {
  /** The statement as it will run: comments and one trailing `;` removed. */
  sql: string;
  /** Tables it reads (lower-case). */
  tables: string[];
}

/**
 * Checks that SQL written by a model is one read-only SELECT (or WITH ... SELECT) over the allowed
 * tables: lexically (no `;` chains, no writing or session words anywhere, no catalogs, only
 * allowed functions), then with a SQL parser of the dialect (exactly one statement, a select, every
 * table it reads in `allowedTables` or a CTE of its own). The database then runs it read-only as well.
 */
export function checkReadOnlySql(text: string, dialect: SqlDialect, allowedTables: string[]): CheckedSql {
  const raw = text.trim();
  if (!raw) throw new SqlRefused("The query is empty.");
  if (raw.length > 20_000) throw new SqlRefused("The query is longer than 20,000 characters.");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000]/.test(raw)) throw new SqlRefused("The query contains a NUL character.");
  const tokens = tokenize(raw);
  while (tokens.length && tokens[tokens.length - 1].kind === "symbol" && tokens[tokens.length - 1].text === ";")
    tokens.pop();
  if (!tokens.length) throw new SqlRefused("The query is empty.");
  const first = tokens[0].text.toLowerCase();
  if (tokens[0].kind !== "word" || (first !== "select" && first !== "with"))
    throw new SqlRefused("Only a single SELECT (or WITH ... SELECT) query is allowed.");
  const cteNames = new Set<string>();
  for (const [i, t] of tokens.entries()) {
    if (t.kind === "symbol" && t.text === ";")
      throw new SqlRefused("Only one statement is allowed: remove the `;` and what follows.");
    if (t.kind === "symbol" && (t.text === "\\" || t.text === "?"))
      throw new SqlRefused(`The character ${t.text} is not allowed.`);
    if (t.kind !== "word" && t.kind !== "quoted") continue;
    const lower = t.text.toLowerCase();
    if (t.kind === "word" && FORBIDDEN_WORDS.has(lower)) {
      // FOR UPDATE / FOR SHARE lock rows; "for" alone is fine (substring(x from 1 for 2)).
      throw new SqlRefused(`Read-only queries only: "${t.text.toUpperCase()}" is not allowed.`);
    }
    if (t.kind === "word" && lower === "for") {
      const next = tokens[i + 1]?.text.toLowerCase();
      if (next === "update" || next === "share" || next === "no" || next === "key")
        throw new SqlRefused("Locking clauses (FOR UPDATE/SHARE) are not allowed.");
    }
    if (CATALOG.test(t.text)) throw new SqlRefused(`System catalogs are not allowed: ${t.text.slice(0, 60)}.`);
    const next = tokens[i + 1];
    const prev = tokens[i - 1];
    // `name AS (`: a CTE being defined.
    if (
      t.kind !== "quoted" &&
      prev &&
      (prev.text.toLowerCase() === "with" || prev.text === ",") &&
      next?.text.toLowerCase() === "as"
    )
      cteNames.add(lower);
    if (next?.kind === "symbol" && next.text === "(" && !(prev?.kind === "symbol" && prev.text === ".")) {
      if (GRAMMAR_WORDS.has(lower) && t.kind === "word") continue;
      // `cte_name(col, ...) AS (`: a CTE with its column list.
      if (prev && (prev.text.toLowerCase() === "with" || prev.text === ",") && closesBeforeAs(tokens, i + 1)) {
        cteNames.add(lower);
        continue;
      }
      if (t.kind === "quoted" || !ALLOWED_FUNCTIONS.has(lower))
        throw new SqlRefused(`The function ${t.text.slice(0, 60)}() is not allowed in queries.`);
    } else if (next?.kind === "symbol" && next.text === "(" && prev?.text === ".") {
      throw new SqlRefused(`Schema-qualified functions are not allowed: ${t.text.slice(0, 60)}().`);
    }
  }
  const sql = tokensToSql(raw, tokens);
  const parser = dialect === "postgresql" ? new pgParser.Parser() : new sqliteParser.Parser();
  let ast: unknown;
  let tableList: string[];
  try {
    ast = parser.astify(sql, { database: dialect === "postgresql" ? "postgresql" : "sqlite" });
    tableList = parser.tableList(sql, { database: dialect === "postgresql" ? "postgresql" : "sqlite" });
  } catch (err) {
    throw new SqlRefused(
      `The query could not be parsed: ${String((err as Error).message)
        .split("\n")[0]
        .slice(0, 200)}`,
    );
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) throw new SqlRefused("Only one statement is allowed.");
  const statement = statements[0] as {
    type?: string;
    into?: { expr?: unknown } | null;
    with?: { name?: { value?: string } | string }[] | null;
  };
  if (statement.type !== "select") throw new SqlRefused("Only SELECT queries are allowed.");
  if (statement.into?.expr) throw new SqlRefused("SELECT INTO is not allowed.");
  for (const w of statement.with ?? []) {
    const name = typeof w.name === "string" ? w.name : w.name?.value;
    if (name) cteNames.add(name.toLowerCase());
  }
  const allowed = new Set(allowedTables.map((t) => t.toLowerCase()));
  const tables = new Set<string>();
  for (const entry of tableList) {
    const [action, schema, table] = entry.split("::");
    if (action.toLowerCase() !== "select") throw new SqlRefused("Only reading is allowed.");
    const name = (table ?? "").toLowerCase();
    if (schema && schema !== "null" && schema.toLowerCase() !== "public" && schema.toLowerCase() !== "main")
      throw new SqlRefused(`Tables of schema ${schema.slice(0, 60)} are not allowed.`);
    if (cteNames.has(name) && (!schema || schema === "null")) continue;
    if (!allowed.has(name))
      throw new SqlRefused(
        `The table ${table.slice(0, 60)} is not one this assistant may read. Allowed: ` +
          `${[...allowed].join(", ") || "none"}.`,
      );
    tables.add(name);
  }
  return { sql, tables: [...tables] };
}

/** Whether the parenthesis at `open` closes and is followed by AS (a CTE column list). */
function closesBeforeAs(tokens: Token[], open: number): boolean {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].text === "(") depth++;
    else if (tokens[j].text === ")" && --depth === 0) return tokens[j + 1]?.text.toLowerCase() === "as";
  }
  return false;
}

/** The statement as written, with comments (and the gaps around them) turned into single spaces and the trailing `;`
 * gone. */
function tokensToSql(raw: string, tokens: Token[]): string {
  let out = "";
  for (const [i, t] of tokens.entries()) {
    if (i > 0 && t.start > tokens[i - 1].end) out += " ";
    out += raw.slice(t.start, t.end);
  }
  return out;
}
