import type postgres from "postgres";
import type { QueryResult } from "../../../durable-objects/managed-database";
import { postgresTarget, type ConnectionEnv } from "./connection";
import { workersSocket } from "./pg-socket";
import { vendored } from "../../vendored";

export interface DiscoveredTable {
  tableName: string;
  columns: { columnName: string; columnType: string; isNullable: boolean; isPrimaryKey: boolean }[];
}

const CONNECT_TIMEOUT_S = 10;

/**
 * A one-connection client for one task, the caller ends it: to the binding's host for
 * `hyperdrive://BINDING`, else to the connection string's host after the SSRF guard.
 */
export async function connectPostgres(env: ConnectionEnv, url: string, organizationId: string) {
  const t = postgresTarget(env, url, organizationId);
  // A module of its own (src/vendor/postgres.js), imported by the first connection.
  const { default: postgres } = await vendored("postgres");
  // `socket` is a documented option the type declarations leave out.
  return postgres({
    host: t.host,
    port: t.port,
    user: t.user,
    password: t.password,
    database: t.database,
    ssl: t.ssl,
    max: 1,
    prepare: false,
    fetch_types: false,
    connect_timeout: CONNECT_TIMEOUT_S,
    idle_timeout: 5,
    onnotice: () => undefined,
    socket: workersSocket as never,
    connection: { application_name: "assistant-platform" },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
}

/** The tables and columns of the `public` schema (and any schema the user owns other than the catalogs). */
export async function discoverPostgres(
  env: ConnectionEnv,
  url: string,
  organizationId: string,
): Promise<DiscoveredTable[]> {
  const sql = await connectPostgres(env, url, organizationId);
  try {
    const columns = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }[]>`
      select table_name, column_name, data_type, is_nullable
      from information_schema.columns
      where table_schema = 'public'
      order by table_name, ordinal_position`;
    const keys = await sql<{ table_name: string; column_name: string }[]>`
      select k.table_name, k.column_name
      from information_schema.table_constraints c
      join information_schema.key_column_usage k on k.constraint_name = c.constraint_name
        and k.table_schema = c.table_schema and k.table_name = c.table_name
      where c.constraint_type = 'PRIMARY KEY' and c.table_schema = 'public'`;
    const tables = new Map<string, DiscoveredTable>();
    for (const c of columns) {
      const table = tables.get(c.table_name) ?? { tableName: c.table_name, columns: [] };
      tables.set(c.table_name, table);
      table.columns.push({
        columnName: c.column_name,
        columnType: c.data_type,
        isNullable: c.is_nullable === "YES",
        isPrimaryKey: keys.some((k) => k.table_name === c.table_name && k.column_name === c.column_name),
      });
    }
    return [...tables.values()].slice(0, 500);
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}

/**
 * Runs a checked SELECT read-only: a READ ONLY transaction with a statement timeout, the query
 * wrapped as a subquery (no statement chains or top-level data-modifying CTEs can survive that) and
 * cut at `maxRows`.
 */
export async function queryPostgres(
  env: ConnectionEnv,
  url: string,
  organizationId: string,
  statement: string,
  maxRows: number,
  timeoutMs: number,
): Promise<QueryResult> {
  const sql = await connectPostgres(env, url, organizationId);
  try {
    return await sql.begin("read only", async (tx) => {
      await tx.unsafe(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
      await tx.unsafe("set local idle_in_transaction_session_timeout = 30000");
      const rows = await tx.unsafe(`select * from (${statement}) as model_query limit ${maxRows + 1}`).values();
      const columns = (rows as unknown as { columns?: { name: string }[] }).columns?.map((c) => c.name) ?? [];
      const all = [...rows] as unknown[][];
      return { columns, rows: all.slice(0, maxRows), truncated: all.length > maxRows };
    });
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}
