import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** `%text%` for LIKE with `\` escaping, so `%` and `_` typed by a user are plain characters. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** Case-insensitive (ASCII) "contains" filter for list `query` parameters. */
export const contains = (expr: SQLWrapper, text: string): SQL => sql`${expr} LIKE ${likePattern(text)} ESCAPE '\\'`;

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
