import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { unique, type Actor } from "../../harness";
import { type Body, bodyOf } from "../../support/api";
import { connectPostgres } from "../../../src/services/sql/postgres";

export type SqlDatabase = Body<"GET /sql-databases/{id}/">;
export type SqlTable = SqlDatabase["tables"][number];

export const SALES_CSV =
  "Region,Amount,Sold On\nnorth,120,2026-01-02\nnorth,80,2026-01-03\nsouth,50,2026-01-03\neast,75.5,2026-01-04\n";

/** Sales by region: the question the tests ask of SALES_CSV's table and of the PostgreSQL cluster's `sales`. */
export const TOTALS = "select region, sum(amount) as total from sales group by region order by total desc";
const totals = (rows: [string, number | string][]) => ({ sql: TOTALS, columns: ["region", "total"], rows });
/** TOTALS' answer from the managed table made of SALES_CSV. */
export const MANAGED_TOTALS = totals([
  ["north", 200],
  ["east", 75.5],
  ["south", 50],
]);
/** TOTALS' answer from the test PostgreSQL cluster, whose sums come back as text. */
export const POSTGRES_TOTALS = totals([
  ["north", "200"],
  ["east", "75"],
  ["south", "50"],
]);

export async function createDatabase(actor: Actor, body: Record<string, unknown> = {}) {
  const res = await actor.fetch("POST", "/sql-databases/", { name: unique("db"), databaseType: "managed", ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /sql-databases/">(res);
}

export function csvForm(content: string | Uint8Array, fields: Record<string, string> = {}, filename = "sales.csv") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(
    "file",
    new File([content], filename, {
      type: filename.endsWith(".xlsx")
        ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        : "text/csv",
    }),
  );
  return form;
}

export async function createTable(
  actor: Actor,
  databaseId: string,
  content: string | Uint8Array = SALES_CSV,
  fields: Record<string, string> = { tableName: "sales" },
  filename = "sales.csv",
) {
  const res = await actor.fetch("POST", `/sql-databases/${databaseId}/tables/`, csvForm(content, fields, filename));
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /sql-databases/{id}/tables/">(res);
}

/** Polls until the background connection check has run. */
export async function settled(actor: Actor, id: string, timeoutMs = 15_000): Promise<SqlDatabase> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const db = await bodyOf<"GET /sql-databases/{id}/">(await actor.fetch("GET", `/sql-databases/${id}/`));
    if (db.status !== "pending" || Date.now() > until) return db;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const postgresUrl = () => env.TEST_POSTGRES_URL;
/** The test Hyperdrive binding in front of the cluster (vitest.config.ts), and the databaseUrl that names it. */
export const TEST_HYPERDRIVE = "TEST_HYPERDRIVE";
export const HYPERDRIVE_URL = `hyperdrive://${TEST_HYPERDRIVE}`;
/** Why PostgreSQL tests are skipped (empty when a server runs). */
export const postgresMissing = () =>
  env.TEST_POSTGRES_URL ? "" : env.TEST_POSTGRES_UNAVAILABLE || "no PostgreSQL server";

/** A database of its own in the throwaway cluster (the shared `shop` keeps only its seed), `seed` run in it. */
export async function ownPostgres(seed: string): Promise<string> {
  const admin = await connectPostgres(env, postgresUrl(), "tests");
  const name = `own_${unique("x").replace(/\W/g, "_").toLowerCase()}`.slice(0, 60);
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  const url = postgresUrl().replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
  const own = await connectPostgres(env, url, "tests");
  try {
    await own.unsafe(seed);
  } finally {
    await own.end({ timeout: 1 });
  }
  return url;
}

export type AskOutcome = Body<"POST /sql-databases/{id}/ask/">;

/** Asks the built-in model, which runs the SQL the question spells (`sql: "..."`, or unquoted up to a comma). */
export async function askSql(actor: Actor, id: string, sql: string): Promise<AskOutcome> {
  const question = sql.includes('"') ? `sql: ${sql}` : `sql: "${sql}"`;
  const res = await actor.fetch("POST", `/sql-databases/${id}/ask/`, { question });
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /sql-databases/{id}/ask/">(res);
}
