import { and, eq, inArray, ne } from "drizzle-orm";
import { sqlDatabaseChatbots, sqlDatabases, sqlDatabaseTables } from "../../db/schema";
import { decryptSecret } from "../../lib/crypto";
import { lazy } from "../../lib/lazy";
import { replyLinks } from "../agent/links";
import type { ToolProvider } from "../agent/registry";
import type { Bindings } from "../../env";
import type { AgentTool, ToolContext, ToolOutcome } from "../agent/types";
import type { QueryResult } from "../../../durable-objects/managed-database";
import type { SqlDatabaseRow } from "./access";
import { queryPostgres } from "./postgres";
import { managedDatabase } from "./write";
import type { SqlTableRow } from "./views";

export const DEFAULT_ROW_LIMIT = 200;
export const DEFAULT_TIMEOUT_MS = 10_000;
const SCHEMA_CHARS = 12_000;
const MODEL_CHARS = 16_000;

interface Offered {
  database: SqlDatabaseRow;
  tables: SqlTableRow[];
}

class QueryTimeout extends Error {}

/** The assistant's active SQL databases that can be queried (agent/links.ts reads them in its batch). */
export const queryableDatabasesQuery = (ctx: ToolContext) =>
  ctx.db
    .select({ database: sqlDatabases })
    .from(sqlDatabaseChatbots)
    .innerJoin(sqlDatabases, eq(sqlDatabases.id, sqlDatabaseChatbots.sqlDatabaseId))
    .where(
      and(
        eq(sqlDatabaseChatbots.chatbotId, ctx.chatbot.id),
        eq(sqlDatabases.organizationId, ctx.organizationId),
        eq(sqlDatabases.isActive, true),
        inArray(sqlDatabases.databaseType, ["managed", "postgresql"]),
        ne(sqlDatabases.status, "failed"),
      ),
    );

/** The assistant's active SQL databases (`chatbots` on the database) that can be queried, with their allowed tables. */
export const sqlDatabaseProvider: ToolProvider = async (ctx, options) => {
  const databases = (await replyLinks(ctx, options)).databases;
  if (!databases.length) return [];
  const tables = await ctx.db
    .select()
    .from(sqlDatabaseTables)
    .where(
      and(
        inArray(
          sqlDatabaseTables.sqlDatabaseId,
          databases.map((d) => d.id),
        ),
        eq(sqlDatabaseTables.status, "ready"),
      ),
    )
    .orderBy(sqlDatabaseTables.tableName);
  const offered = databases
    .map((database) => ({
      database,
      tables: allowedTables(
        database,
        tables.filter((t) => t.sqlDatabaseId === database.id),
      ),
    }))
    .filter((o) => o.tables.length)
    .sort((a, b) => a.database.name.localeCompare(b.database.name));
  return offered.length ? [queryDatabaseTool(offered)] : [];
};

/**
 * The tables of a database text-to-SQL may read: all, or those its `includeTables` names, case aside unless the
 * database holds two names of one spelling (PostgreSQL's `"Secrets"` beside `secrets`): then only the exact one.
 */
export function allowedTables(database: SqlDatabaseRow, tables: SqlTableRow[]): SqlTableRow[] {
  const named = database.includeTables?.tables;
  if (!named?.length) return tables;
  const exact = new Set(named);
  const folded = new Set(named.map((t) => t.toLowerCase()));
  const spellings = new Map<string, number>();
  for (const t of tables) spellings.set(t.tableName.toLowerCase(), (spellings.get(t.tableName.toLowerCase()) ?? 0) + 1);
  return tables.filter(
    (t) =>
      exact.has(t.tableName) ||
      (folded.has(t.tableName.toLowerCase()) && spellings.get(t.tableName.toLowerCase()) === 1),
  );
}

const dialectOf = (d: SqlDatabaseRow) => (d.databaseType === "postgresql" ? "postgresql" : "sqlite");

function schemaText(offered: Offered[]): string {
  const lines: string[] = [];
  for (const { database, tables } of offered) {
    const kind = database.databaseType === "postgresql" ? "PostgreSQL" : "SQLite";
    lines.push(`Database "${database.name}" (${kind})${database.description ? `: ${database.description}` : ""}`);
    for (const t of tables) {
      const columns = t.columns
        .map((c) => `${c.columnName} ${c.columnType}${c.isPrimaryKey ? " primary key" : ""}`)
        .join(", ");
      lines.push(`  table ${t.tableName}(${columns})${t.description ? ` -- ${t.description}` : ""}`);
    }
  }
  const text = lines.join("\n");
  return text.length > SCHEMA_CHARS ? `${text.slice(0, SCHEMA_CHARS)}\n  [more tables not shown]` : text;
}

export function queryDatabaseTool(offered: Offered[]): AgentTool {
  const names = offered.map((o) => o.database.name);
  return {
    name: "query_database",
    displayName: "Query database",
    kind: "sql",
    toolId: null,
    description:
      "Query a database with one read-only SQL SELECT statement and get the rows back (at most a few hundred). " +
      "Only the tables below can be read; no writes, no system catalogs.\n" +
      schemaText(offered),
    parameters: {
      type: "object",
      properties: {
        sql: {
          type: "string",
          maxLength: 20_000,
          description: "One SELECT (or WITH ... SELECT) statement in the database's dialect",
        },
        database: { type: "string", enum: names, description: "The database to query" },
      },
      required: offered.length > 1 ? ["sql", "database"] : ["sql"],
      additionalProperties: false,
    },
    run: (args, ctx) => runQuery(offered, args, ctx.env),
  };
}

/** The SQL parser (~1 MB of grammar), imported by the first query, not at every cold start. */
const sqlValidation = lazy(() => import("./validate"));

/** Runs one query the model wrote against the offered database it names (read-only check, row limit, timeout). */
export async function runQuery(offered: Offered[], args: Record<string, unknown>, env: Bindings): Promise<ToolOutcome> {
  const target =
    offered.length === 1 && args.database === undefined
      ? offered[0]
      : offered.find((o) => o.database.name === args.database);
  if (!target)
    return {
      status: "failure",
      error:
        `No database named "${String(args.database).slice(0, 100)}"; choose one of ` +
        `${offered.map((o) => o.database.name).join(", ")}.`,
    };
  const text = String(args.sql ?? "");
  const limit = Math.min(Math.max(Number(env.SQL_QUERY_ROW_LIMIT) || DEFAULT_ROW_LIMIT, 1), 10_000);
  const timeoutMs = Math.min(Math.max(Number(env.SQL_QUERY_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS, 100), 60_000);
  const { checkReadOnlySql, SqlRefused } = await sqlValidation();
  let statement: string;
  try {
    statement = checkReadOnlySql(
      text,
      dialectOf(target.database),
      target.tables.map((t) => t.tableName),
    ).sql;
  } catch (err) {
    if (err instanceof SqlRefused)
      return {
        status: "failure",
        output: { database: target.database.name, sql: text, refused: true },
        error: `Query refused: ${err.message}`,
      };
    throw err;
  }
  const started = Date.now();
  try {
    const result = await withTimeout(execute(env, target.database, statement, limit, timeoutMs), timeoutMs + 1_000);
    const output = {
      database: target.database.name,
      sql: statement,
      columns: result.columns,
      rows: result.rows.map((r) => r.map(jsonValue)),
      rowCount: result.rows.length,
      truncated: result.truncated,
      durationMs: Date.now() - started,
    };
    return { status: "success", output, forModel: forModel(output) };
  } catch (err) {
    const message = String((err as Error)?.message ?? err)
      .replace(/\s+/g, " ")
      .slice(0, 500);
    const timedOut = err instanceof QueryTimeout || /statement timeout|canceling statement/i.test(message);
    return {
      status: timedOut ? "timeout" : "failure",
      output: { database: target.database.name, sql: statement },
      error: timedOut ? `The query took longer than ${timeoutMs} ms.` : `The query failed: ${message}`,
    };
  }
}

async function execute(
  env: Bindings,
  database: SqlDatabaseRow,
  statement: string,
  limit: number,
  timeoutMs: number,
): Promise<QueryResult> {
  if (database.databaseType === "managed") {
    // Capped in rows and bytes inside the object (result-size.ts), before its answer crosses to the Worker.
    return await managedDatabase(env, database.id).query(statement, limit);
  }
  if (!database.databaseUrlSealed) throw new Error("No databaseUrl is set.");
  const url = await decryptSecret(database.databaseUrlSealed, env.ENCRYPTION_KEY);
  return queryPostgres(env, url, database.organizationId, statement, limit, timeoutMs);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new QueryTimeout("timeout")), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Values JSON can carry: BigInt as text, bytes as a note, dates as ISO text. */
function jsonValue(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return `<${(v as ArrayBuffer).byteLength} bytes>`;
  return v;
}

function forModel(o: {
  sql: string;
  columns: string[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
}): string {
  const lines = [
    o.columns.join(" | "),
    ...o.rows.map((r) =>
      r.map((v) => (v === null ? "NULL" : typeof v === "object" ? JSON.stringify(v) : String(v))).join(" | "),
    ),
  ];
  const more = o.truncated ? " (more exist, or long values were cut; only these are shown)" : "";
  let text = `${o.rowCount} row${o.rowCount === 1 ? "" : "s"}${more}:\n${lines.join("\n")}`;
  if (text.length > MODEL_CHARS) text = `${text.slice(0, MODEL_CHARS)}\n[truncated]`;
  return text;
}
