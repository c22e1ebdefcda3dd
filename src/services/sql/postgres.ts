import type postgres from "postgres";
import type { QueryResult } from "../../../durable-objects/managed-database";
import { postgresTarget, type ConnectionEnv } from "./connection";
import { workersSocket } from "./pg-socket";
import { ResultBudget } from "./result-size";
import { vendored } from "../../vendored";

export interface DiscoveredTable {
  tableName: string;
  columns: { columnName: string; columnType: string; isNullable: boolean; isPrimaryKey: boolean }[];
}

const CONNECT_TIMEOUT_S = 10;
/** Rows read from PostgreSQL at a time: a result is read only as far as its byte budget goes. */
const ROWS_PER_READ = 20;

/**
 * date, timestamp and timestamptz as the driver reads them (a Date), except what a Date cannot hold: `infinity`,
 * `-infinity`, BC dates and years past 275760 stay PostgreSQL's text (an invalid Date failed the whole query).
 */
const dates = {
  to: 1184,
  from: [1082, 1114, 1184],
  serialize: (x: Date | string) => (x instanceof Date ? x : new Date(x)).toISOString(),
  parse: (x: string) => {
    const date = new Date(x);
    return / BC$/i.test(x) || Number.isNaN(date.getTime()) ? x : date;
  },
};

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
    types: { date: dates },
    socket: workersSocket as never,
    connection: { application_name: "assistant-platform" },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
}

/** The tables and columns of the `public` schema, where queries resolve their names (queryPostgres). */
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
 * cut at `maxRows`. Rows are read a few at a time and stop at the result's byte budget (result-size.ts).
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
      // Names resolve in `public`, the schema whose tables are discovered and offered: the default path ("$user",
      // public) read a schema named after the connecting role first, whose `sales` shadowed the listed one.
      await tx.unsafe("set local search_path = public, pg_temp");
      const query = tx.unsafe(`select * from (${statement}) as model_query limit ${maxRows + 1}`).values();
      const budget = new ResultBudget();
      const rows: unknown[][] = [];
      let more = false;
      read: for await (const part of query.cursor(ROWS_PER_READ)) {
        for (const row of part as unknown as unknown[][]) {
          const kept = rows.length < maxRows ? budget.take(row) : null;
          if (!kept) {
            more = true;
            break read;
          }
          rows.push(kept);
        }
      }
      // The columns of the query's description: there even when no row came back.
      const described = (query as unknown as { statement?: { columns?: { name: string }[] } }).statement;
      const columns = described?.columns?.map((c) => c.name) ?? [];
      return { columns, rows, truncated: more || budget.truncated };
    });
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}
