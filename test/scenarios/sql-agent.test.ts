import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import {
  createDatabase,
  createTable,
  HYPERDRIVE_URL,
  MANAGED_TOTALS,
  POSTGRES_TOTALS,
  postgresMissing,
  postgresUrl,
  settled,
  TEST_HYPERDRIVE,
  TOTALS,
} from "../routes/sql-databases/support";
import { queryPostgres } from "../../src/services/sql/postgres";
import { bodyOf, refinedBodyOf } from "../support/api";

type Call = {
  id: string;
  name: string;
  toolType: string;
  input: Record<string, unknown>;
  status: string;
  output: { rows?: unknown[]; [field: string]: unknown };
  error: string | null;
};
type Reply = { content: string; message: { contentPayload: { toolCalls: Call[] } } };

async function ask(owner: Actor, botId: string, sql: string) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, {
    message: { content: `Query the database, sql: "${sql}"` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const reply = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);
  const [call] = reply.message.contentPayload.toolCalls;
  expect(call.name).toBe("query_database");
  return { reply, call };
}

/** The totals by region asked of `database` (its name): answered from `totals`, the call recorded with its SQL. */
async function askTotals(owner: Actor, botId: string, database: string, totals: object) {
  const { reply, call } = await ask(owner, botId, TOTALS);
  expect(call).toMatchObject({ toolType: "sql", status: "success", input: { sql: TOTALS } });
  expect(call.output).toMatchObject({ database, ...totals, rowCount: 3, truncated: false });
  expect(reply.content).toContain("north | 200");
  return call;
}

/** Each of `sqls` asked of the assistant: refused before it runs, a failed call. */
async function expectRefused(owner: Actor, botId: string, sqls: string[]) {
  for (const sql of sqls) {
    const refused = await ask(owner, botId, sql);
    expect(refused.call.status, sql).toBe("failure");
    expect(refused.call.error, sql).toMatch(/^Query refused/);
  }
}

/** A direct connection string is the same for every organization (only Hyperdrive bindings are given to some). */
const ANY_ORGANIZATION = "";

/** SQL a model could be talked into writing: every one is refused and recorded as a failure. */
const HOSTILE = [
  "select 1; drop table sales",
  "select * from sales; delete from sales",
  "drop table sales",
  "delete from sales",
  "with gone as (delete from sales returning *) select * from gone",
  "with t as (update sales set amount = 0 returning *) select * from t",
  "copy sales to '/tmp/stolen.csv'",
  "select pg_sleep(30)",
  "select * from sales for update",
  "select * into stolen from sales",
  "select * from secrets",
  "select * from pg_catalog.pg_user",
  "select * from information_schema.tables",
  "select * from sqlite_master",
  "select * from sales union select * from api_keys",
  "select lo_import('/etc/passwd')",
  // A FROM list's `, table AS alias` is no CTE, and a call is checked whatever alias follows it.
  "select s.value from sales, secrets as s limit 1",
  "select 1, query_to_xml('select value from secrets', true, false, '') as x from sales limit 1",
  "with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r",
];

describe("text-to-SQL in agent replies: a managed table created from a CSV", () => {
  it("answers from the table: the generated SQL and rows are in the execution record", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { replyMode: "agent" });
    const database = await createDatabase(owner, {
      name: "Sales",
      description: "Sales by region",
      chatbots: [{ id: bot.id }],
    });
    await createTable(owner, database.id);
    const call = await askTotals(owner, bot.id, "Sales", MANAGED_TOTALS);
    const record = await bodyOf<"GET /tool-execution-records/{id}/">(
      await owner.fetch("GET", `/tool-execution-records/${call.id}/`),
    );
    expect(record).toMatchObject({
      input: { sql: TOTALS },
      output: { sql: TOTALS, rows: MANAGED_TOTALS.rows },
    });
    const bySql = await bodyOf<"GET /tool-execution-records/">(
      await owner.fetch("GET", "/tool-execution-records/?toolType=sql"),
    );
    expect(bySql).toMatchObject({ count: 1, results: [{ id: call.id, tool: { toolType: "sql" } }] });
  });

  it("refuses writes, statement chains, catalogs and other tables, and the data stays whole", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { replyMode: "agent" });
    const database = await createDatabase(owner, { chatbots: [{ id: bot.id }] });
    await createTable(owner, database.id);
    for (const sql of HOSTILE) {
      const { call } = await ask(owner, bot.id, sql);
      expect(call.status, sql).toBe("failure");
      expect(call.error, sql).toMatch(/^Query refused/);
      expect(call.output, sql).toMatchObject({ refused: true });
    }
    expect(await env.MANAGED_DATABASE.get(env.MANAGED_DATABASE.idFromName(database.id)).count("sales")).toBe(4);
  });

  it("never reaches another organization's tables, and skips inactive databases", async () => {
    const [a, b] = [await seedOwner(), await seedOwner()];
    const botA = await createChatbot(a, { replyMode: "agent" });
    const dbA = await createDatabase(a, { chatbots: [{ id: botA.id }] });
    await createTable(a, dbA.id, "region,amount\nwest,1\n");
    const dbB = await createDatabase(b);
    await createTable(b, dbB.id, "region,amount\nsecret,999\n");
    const { call } = await ask(a, botA.id, "select region, amount from sales");
    expect(call.output.rows).toEqual([["west", 1]]);
    // The database of B is not offered to A's assistant, whatever it is called.
    expect((await a.fetch("PATCH", `/sql-databases/${dbB.id}/`, { chatbots: [{ id: botA.id }] })).status).toBe(404);
    await a.fetch("PATCH", `/sql-databases/${dbA.id}/`, { isActive: false });
    const res = await a.fetch("POST", `/chatbots/${botA.id}/completions/`, {
      message: { content: `Query the database, sql: "select 1"` },
    });
    expect(
      (await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res)).message.contentPayload.toolCalls,
    ).toEqual([]);
  });
});

describe.skipIf(!!postgresMissing())("text-to-SQL in agent replies: PostgreSQL over Workers sockets", () => {
  it("answers from PostgreSQL in a read-only transaction, limited to includeTables", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { replyMode: "agent" });
    const database = await createDatabase(owner, {
      databaseType: "postgresql",
      databaseUrl: postgresUrl(),
      includeTables: { tables: ["sales"] },
      chatbots: [{ id: bot.id }],
    });
    expect(await settled(owner, database.id)).toMatchObject({ status: "connected" });
    const { reply, call } = await ask(owner, bot.id, TOTALS);
    expect(call).toMatchObject({ status: "success" });
    expect(call.output).toMatchObject({ ...POSTGRES_TOTALS, rowCount: 3 });
    expect(reply.content).toContain("north | 200");
    await expectRefused(owner, bot.id, HOSTILE);
    const { call: after } = await ask(owner, bot.id, "select count(*) as n from sales");
    expect(after.output.rows).toEqual([["4"]]);
  });

  it(
    "the database itself refuses writes and slow queries (read-only transaction, statement timeout), whatever " +
      "passes the checks",
    async () => {
      const run = (sql: string, timeoutMs = 2_000) =>
        queryPostgres(env, postgresUrl(), ANY_ORGANIZATION, sql, 200, timeoutMs);
      await expect(run("select 1 as one")).resolves.toMatchObject({ columns: ["one"], rows: [[1]] });
      await expect(run("insert into sales (region, amount) values ('x', 1) returning id")).rejects.toThrow();
      await expect(run("with gone as (delete from sales returning *) select * from gone")).rejects.toThrow(
        /WITH|top level|read-only/i,
      );
      await expect(run("select nextval('sales_id_seq')")).rejects.toThrow(/read-only/i);
      await expect(run("select pg_sleep(5)", 200)).rejects.toThrow(/statement timeout/i);
      const capped = await queryPostgres(env, postgresUrl(), ANY_ORGANIZATION, "select * from sales", 2, 2_000);
      expect(capped).toMatchObject({ truncated: true });
      expect(capped.rows).toHaveLength(2);
      await expect(run("select count(*) as n from sales")).resolves.toMatchObject({ rows: [["4"]] });
    },
  );

  it("the SSRF guard applies when the connection is made, not only on save", async () => {
    await expect(
      queryPostgres(
        { OUTBOUND_ALLOWED_HOSTS: "", WEBHOOK_ALLOWED_HOSTS: "" },
        postgresUrl(),
        ANY_ORGANIZATION,
        "select 1",
        1,
        1000,
      ),
    ).rejects.toThrow(/Loopback/);
  });
});

describe.skipIf(!!postgresMissing())("text-to-SQL in agent replies: PostgreSQL through a Hyperdrive binding", () => {
  it("answers through hyperdrive://BINDING with the same checks, read-only transaction, timeout, row cap", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { replyMode: "agent" });
    const database = await createDatabase(owner, {
      name: "Shop",
      databaseType: "postgresql",
      databaseUrl: HYPERDRIVE_URL,
      includeTables: { tables: ["sales"] },
      chatbots: [{ id: bot.id }],
    });
    expect(await settled(owner, database.id)).toMatchObject({
      status: "connected",
      databaseUrl: HYPERDRIVE_URL,
      tables: [{ tableName: "sales" }],
    });
    await askTotals(owner, bot.id, "Shop", POSTGRES_TOTALS);
    await expectRefused(owner, bot.id, ["select * from secrets", "delete from sales", "select pg_sleep(30)"]);

    // What passes the checks is still run read-only, with the statement timeout and the row cap.
    const run = (sql: string, maxRows = 200, timeoutMs = 2_000) =>
      queryPostgres(env, HYPERDRIVE_URL, owner.organizationId, sql, maxRows, timeoutMs);
    await expect(run("with gone as (delete from sales returning *) select * from gone")).rejects.toThrow(
      /WITH|top level|read-only/i,
    );
    await expect(run("select nextval('sales_id_seq')")).rejects.toThrow(/read-only/i);
    await expect(run("select pg_sleep(5)", 200, 200)).rejects.toThrow(/statement timeout/i);
    const capped = await run("select * from sales order by id", 2);
    expect(capped).toMatchObject({ columns: ["id", "region", "amount", "sold_on"], truncated: true });
    expect(capped.rows).toHaveLength(2);
    await expect(run("select count(*) as n from sales")).resolves.toMatchObject({ rows: [["4"]] });
    // Every connection asks again whether the organization may use the binding (the operator may have taken it away).
    await expect(
      queryPostgres(
        { ...env, SQL_HYPERDRIVE_BINDINGS: "" },
        HYPERDRIVE_URL,
        owner.organizationId,
        "select 1",
        1,
        1_000,
      ),
    ).rejects.toThrow(`The Hyperdrive binding "${TEST_HYPERDRIVE}" is not available`);
    await expect(
      queryPostgres(
        { ...env, SQL_HYPERDRIVE_BINDINGS: `${TEST_HYPERDRIVE}=${NO_SUCH_ID}` },
        HYPERDRIVE_URL,
        owner.organizationId,
        "select 1",
        1,
        1_000,
      ),
    ).rejects.toThrow(/not available/);
  });
});
