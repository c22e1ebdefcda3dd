import pgParser from "node-sql-parser/build/postgresql.js";
import sqliteParser from "node-sql-parser/build/sqlite.js";

import { type SqlDialect, SqlRefused, tokenize, type Token } from "./tokens";
import { readStatementNames } from "./statement";
import { ALLOWED_FUNCTIONS, CATALOG, FORBIDDEN_WORDS, GRAMMAR_WORDS } from "./words";

export { type SqlDialect, SqlRefused, tokenize } from "./tokens";

export interface CheckedSql {
  /** The statement as it will run: comments and one trailing `;` removed. */
  sql: string;
  /** Tables it reads (lower-case). */
  tables: string[];
}

/**
 * Checks that SQL written by a model is one read-only SELECT (or WITH ... SELECT) over the allowed
 * tables: lexically (no `;` chains, no writing or session words anywhere, no catalogs), then by the
 * grammar's places (statement.ts: every table in FROM/JOIN allowed or a CTE in scope, every call allowed
 * whatever alias follows), then with a SQL parser of the dialect (exactly one statement, a select, every
 * table it lists allowed or a CTE of its own). The database then runs it read-only as well.
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
    // A qualifier (`pg_catalog.x`, `information_schema.tables`): catalogs as schemas. Other words may be columns
    // (`sys` of a blood pressure table); tables and schemas are checked where the grammar puts them, below.
    if (tokens[i + 1]?.kind === "symbol" && tokens[i + 1].text === ".") refuseCatalog(t.text);
  }
  // CTEs and tables by their place in the grammar, not by the words around them (statement.ts).
  const names = readStatementNames(tokens, dialect);
  for (const [i, t] of tokens.entries()) {
    if ((t.kind !== "word" && t.kind !== "quoted") || !(tokens[i + 1]?.kind === "symbol" && tokens[i + 1].text === "("))
      continue;
    if (tokens[i - 1]?.kind === "symbol" && tokens[i - 1].text === ".")
      throw new SqlRefused(`Schema-qualified functions are not allowed: ${t.text.slice(0, 60)}().`);
    if (names.notCalls.has(i) || (t.kind === "word" && GRAMMAR_WORDS.has(t.text.toLowerCase()))) continue;
    // Whatever alias follows: a call is a call (decisions.md, SQL databases and text-to-SQL).
    if (t.kind === "quoted" || !ALLOWED_FUNCTIONS.has(t.text.toLowerCase()))
      throw new SqlRefused(`The function ${t.text.slice(0, 60)}() is not allowed in queries.`);
  }
  const allowed = new Set(allowedTables.map((t) => t.toLowerCase()));
  const tables = new Set<string>();
  const refuse = (table: string) =>
    new SqlRefused(
      `The table ${table.slice(0, 60)} is not one this assistant may read. Allowed: ` +
        `${[...allowed].join(", ") || "none"}.`,
    );
  const read = (table: string, schema?: string) => {
    refuseCatalog(table);
    if (schema && schema !== "null") refuseCatalog(schema);
    if (schema && schema !== "null" && schema.toLowerCase() !== "public" && schema.toLowerCase() !== "main")
      throw new SqlRefused(`Tables of schema ${schema.slice(0, 60)} are not allowed.`);
    const name = table.toLowerCase();
    if (!allowed.has(name)) throw refuse(table);
    tables.add(name);
  };
  // PostgreSQL tells `"Secrets"` from `secrets` (a quoted name keeps its case, others fold to lower case), so its
  // names are compared as it compares them: else a table left out could be read by the case of a name allowed.
  const exact = new Set(allowedTables);
  for (const r of names.tables) {
    read(r.name, r.schema);
    if (dialect !== "postgresql" || exact.has(r.key)) continue;
    const quoted = allowedTables.find((t) => t.toLowerCase() === r.key.toLowerCase());
    if (quoted && quoted !== quoted.toLowerCase())
      throw new SqlRefused(`PostgreSQL folds names not in double quotes to lower case: write "${quoted}".`);
    throw refuse(r.name);
  }

  for (const cte of names.cteNames) refuseCatalog(cte);

  const sql = tokensToSql(raw, tokens);
  // The parser ends a quoted name at its first quote even when doubled (`"we""ird"` is table we"ird): it reads a
  // stand-in (a NUL, which no query holds) for each such name, given back by `named`.
  const standIns = new Map<string, string>();
  const parsed = tokensToSql(raw, tokens, (t) => {
    const quote = raw[t.start];
    if (t.kind !== "quoted" || !t.text.includes(quote)) return undefined;
    const standIn = `\u0000${standIns.size}`;
    standIns.set(standIn, t.text);
    return `${quote}${standIn}${quote}`;
  });
  const named = (name: string | undefined) => (name === undefined ? undefined : (standIns.get(name) ?? name));
  const parser = dialect === "postgresql" ? new pgParser.Parser() : new sqliteParser.Parser();
  let ast: unknown;
  let tableList: string[];
  try {
    ast = parser.astify(parsed, { database: dialect === "postgresql" ? "postgresql" : "sqlite" });
    tableList = parser.tableList(parsed, { database: dialect === "postgresql" ? "postgresql" : "sqlite" });
  } catch (err) {
    throw new SqlRefused(
      `The query could not be parsed: ${String((err as Error).message)
        .split("\n")[0]
        .slice(0, 200)}`,
    );
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) throw new SqlRefused("Only one statement is allowed.");
  const statement = statements[0] as { type?: string; into?: { expr?: unknown } | null };
  if (statement.type !== "select") throw new SqlRefused("Only SELECT queries are allowed.");
  if (statement.into?.expr) throw new SqlRefused("SELECT INTO is not allowed.");
  // The parser's list is flat (no scopes): a second look, where any CTE name of the statement may stand.
  for (const entry of tableList) {
    const [action, rawSchema, rawTable] = entry.split("::");
    const [schema, table] = [named(rawSchema), named(rawTable)];
    if (action.toLowerCase() !== "select") throw new SqlRefused("Only reading is allowed.");
    if (names.cteNames.has((table ?? "").toLowerCase()) && (!schema || schema === "null")) continue;
    read(table ?? "", schema);
  }
  return { sql, tables: [...tables] };
}

/** Why a name may not be read as a table or schema: a catalog of PostgreSQL or SQLite (or another engine's). */
function refuseCatalog(name: string): void {
  if (CATALOG.test(name)) throw new SqlRefused(`System catalogs are not allowed: ${name.slice(0, 60)}.`);
}

/**
 * The statement as written, with comments (and the gaps around them) turned into single spaces and the trailing `;`
 * gone; `instead` may give another text for a token.
 */
function tokensToSql(raw: string, tokens: Token[], instead?: (t: Token) => string | undefined): string {
  let out = "";
  for (const [i, t] of tokens.entries()) {
    if (i > 0 && t.start > tokens[i - 1].end) out += " ";
    out += instead?.(t) ?? raw.slice(t.start, t.end);
  }
  return out;
}
