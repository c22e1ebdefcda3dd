import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { sqlDatabaseTables } from "../../db/schema";
import { badRequest } from "../../lib/errors";
import { chatModelFor, complete, ModelError } from "../llm";
import type { ModelRow } from "../models";
import type { SqlDatabaseRow } from "./access";
import { allowedTables, queryDatabaseTool, runQuery } from "./agent-tool";

export interface AskOutcome {
  question: string;
  status: "success" | "failure" | "timeout";
  sql: string | null;
  columns: string[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  durationMs: number | null;
  error: string | null;
  model: { id: string; name: string };
}

const INSTRUCTIONS =
  "Answer the user's question about the database with exactly one call of query_database: one read-only " +
  "SELECT in the database's dialect.";

/**
 * One question turned into SQL by `model` and run against the database, as an assistant's agent
 * reply would (the same tool, the same read-only check, limits and timeout), without a
 * conversation: what operators use to see whether the database answers what they expect. A model
 * that writes no query, or a query that is refused or fails, is an outcome, not an error.
 */
export async function askDatabase(
  env: Bindings,
  db: Db,
  database: SqlDatabaseRow,
  question: string,
  model: ModelRow,
): Promise<AskOutcome> {
  const ready = await db
    .select()
    .from(sqlDatabaseTables)
    .where(and(eq(sqlDatabaseTables.sqlDatabaseId, database.id), eq(sqlDatabaseTables.status, "ready")))
    .orderBy(sqlDatabaseTables.tableName);
  const tables = allowedTables(database, ready);
  if (!tables.length) throw badRequest("The database has no tables to query yet.");
  const offered = [{ database, tables }];
  const tool = queryDatabaseTool(offered);
  const base = {
    question,
    model: { id: model.id, name: model.name },
    columns: [],
    rows: [],
    rowCount: 0,
    truncated: false,
    durationMs: null,
  };
  let answer;
  try {
    answer = await complete(await chatModelFor(env, model), {
      messages: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: question },
      ],
      tools: [
        { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } },
      ],
      toolChoice: { name: tool.name },
    });
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    return { ...base, status: "failure", sql: null, error: `The model failed: ${err.message}` };
  }
  const call = answer.toolCalls.find((c) => c.name === tool.name);
  let args: Record<string, unknown> | null = null;
  try {
    args = call ? (JSON.parse(call.arguments) as Record<string, unknown>) : null;
  } catch {
    // reported below
  }
  if (!args || typeof args.sql !== "string")
    return { ...base, status: "failure", sql: null, error: "The model wrote no query." };
  const outcome = await runQuery(offered, args, env);
  const output = (outcome.output ?? {}) as {
    sql?: string;
    columns?: string[];
    rows?: unknown[][];
    rowCount?: number;
    truncated?: boolean;
    durationMs?: number;
  };
  return {
    ...base,
    status: outcome.status === "pending" ? "failure" : outcome.status,
    sql: output.sql ?? args.sql,
    columns: output.columns ?? [],
    rows: output.rows ?? [],
    rowCount: output.rowCount ?? 0,
    truncated: output.truncated ?? false,
    durationMs: output.durationMs ?? null,
    error: outcome.error ?? null,
  };
}
