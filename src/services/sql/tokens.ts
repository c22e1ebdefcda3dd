export type SqlDialect = "postgresql" | "sqlite";

/** The model's SQL was refused before it reached the database: the reason goes back to the model. */
export class SqlRefused extends Error {}

export interface Token {
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
      // A doubled quote is one quote of the name (`"we""ird"` is the table we"ird, as PostgreSQL and SQLite read it).
      let j = i + 1;
      let k = sql.indexOf(c, j);
      for (; k >= 0 && sql[k + 1] === c; k = sql.indexOf(c, j)) j = k + 2;
      if (k < 0) throw new SqlRefused("Unterminated quoted identifier.");
      out.push({ kind: "quoted", text: sql.slice(i + 1, k).replaceAll(c + c, c), start: i, end: k + 1 });
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
