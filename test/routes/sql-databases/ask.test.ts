import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { QueryResult } from "../../../durable-objects/managed-database";
import { managedDatabase } from "../../../src/services/sql/write";
import { call, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, unique } from "../../harness";
import {
  askSql,
  createDatabase,
  createTable,
  MANAGED_TOTALS,
  ownPostgres,
  POSTGRES_TOTALS,
  postgresMissing,
  postgresUrl,
  settled,
  TOTALS,
} from "./support";
import { bodyOf } from "../../support/api";
import { LOCAL_LLM } from "../../fixtures/chatbots";

describe("POST /sql-databases/{id}/ask/", () => {
  it.each(PREFIXES)("the model's SQL and the rows it returns (%s)", async (prefix) => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    await createTable(owner, database.id);
    const res = await owner.fetch(
      "POST",
      `/sql-databases/${database.id}/ask/`,
      { question: `Totals by region, sql: "${TOTALS}"` },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const outcome = await bodyOf<"POST /sql-databases/{id}/ask/">(res);
    expect(outcome).toMatchObject({
      status: "success",
      ...MANAGED_TOTALS,
      rowCount: 3,
      truncated: false,
      error: null,
      model: { id: LOCAL_LLM },
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("a query the read-only check refuses is an outcome with its reason, and the data stays whole", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner, { isActive: false });
    await createTable(owner, database.id);
    const refused = await bodyOf<"POST /sql-databases/{id}/ask/">(
      await owner.fetch("POST", `/sql-databases/${database.id}/ask/`, { question: 'sql: "delete from sales"' }),
    );
    expect(refused).toMatchObject({ status: "failure", sql: "delete from sales", rows: [], rowCount: 0 });
    expect(refused.error).toMatch(/^Query refused/);
    // The built-in model writes only the SQL a question spells: a plain question is not SQL.
    const plain = await bodyOf<"POST /sql-databases/{id}/ask/">(
      await owner.fetch("POST", `/sql-databases/${database.id}/ask/`, { question: "Which region sold the most?" }),
    );
    expect(plain).toMatchObject({ status: "failure", sql: "Which region sold the most?" });
    const count = await bodyOf<"POST /sql-databases/{id}/ask/">(
      await owner.fetch("POST", `/sql-databases/${database.id}/ask/`, {
        question: 'sql: "select count(*) as n from sales"',
      }),
    );
    expect(count).toMatchObject({ status: "success", rows: [[4]] });
  });

  it.skipIf(!!postgresMissing())("asks the throwaway PostgreSQL cluster, limited to includeTables", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner, {
      databaseType: "postgresql",
      databaseUrl: postgresUrl(),
      includeTables: { tables: ["sales"] },
    });
    expect(await settled(owner, database.id)).toMatchObject({ status: "connected" });
    const outcome = await bodyOf<"POST /sql-databases/{id}/ask/">(
      await owner.fetch("POST", `/sql-databases/${database.id}/ask/`, { question: `sql: "${TOTALS}"` }),
    );
    expect(outcome).toMatchObject({ status: "success", ...POSTGRES_TOTALS });
    const other = await bodyOf<"POST /sql-databases/{id}/ask/">(
      await owner.fetch("POST", `/sql-databases/${database.id}/ask/`, { question: 'sql: "select * from secrets"' }),
    );
    expect(other.status).toBe("failure");
    expect(other.error).toMatch(/^Query refused/);
  });

  it(
    "400 for a missing question, an unknown model, a database without tables or of a type that cannot be " + "queried",
    async () => {
      const owner = await seedOwner();
      const database = await createDatabase(owner);
      const ask = (id: string, body: unknown) => owner.fetch("POST", `/sql-databases/${id}/ask/`, body);
      const empty = await ask(database.id, { question: 'sql: "select 1"' });
      expect((await expectError(empty, 400, "invalid")).detail).toMatch(/no tables/);
      await createTable(owner, database.id);
      expect((await expectError(await ask(database.id, {}), 400, "invalid")).errors).toHaveProperty("question");
      expect((await expectError(await ask(database.id, { question: "  " }), 400, "invalid")).errors).toHaveProperty(
        "question",
      );
      expect(
        (await expectError(await ask(database.id, { question: "x", largeLanguageModel: NO_SUCH_ID }), 400, "invalid"))
          .errors,
      ).toHaveProperty("largeLanguageModel");
      const mysql = await createDatabase(owner, { databaseType: "mysql", databaseUrl: "mysql://a:b@db.example.com/x" });
      await expectError(await ask(mysql.id, { question: "x" }), 400, "not_supported");
    },
  );

  it("401 without a key, 403 without sql_database.view, 404 for another organization's database", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    await createTable(owner, database.id);
    const body = { question: `sql: "${TOTALS}"` };
    await expectError(await call("POST", `/api/v1/sql-databases/${database.id}/ask/`, body), 401, "not_authenticated");
    const member = await seedMember(owner, ["chatbot.view"]);
    await expectError(await member.fetch("POST", `/sql-databases/${database.id}/ask/`, body), 403, "permission_denied");
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("POST", `/sql-databases/${database.id}/ask/`, body), 404, "not_found");
    await expectError(await owner.fetch("POST", `/sql-databases/${NO_SUCH_ID}/ask/`, body), 404, "not_found");
  });

  it("a column named sys (a CSV of blood pressure: SYS, DIA) can be queried by name", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    await createTable(owner, database.id, "Day,SYS,DIA\n2026-01-01,120,80\n2026-01-02,130,84\n", {
      tableName: "readings",
    });
    const outcome = await askSql(owner, database.id, "select avg(sys) as systolic from readings");
    // Catalog names are refused where a table or schema stands, not as any word: `sys` here is a column.
    expect({ status: outcome.status, error: outcome.error, rows: outcome.rows }).toEqual({
      status: "success",
      error: null,
      rows: [[125]],
    });
    const catalog = await askSql(owner, database.id, "select * from sqlite_master");
    expect(catalog).toMatchObject({ status: "failure", error: expect.stringMatching(/System catalogs/) });
  });

  it("a managed database's long values are cut, and the result says so", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    await createTable(owner, database.id);
    const outcome = await askSql(owner, database.id, "select printf('%.*c', 200000, 'x') as big from sales");
    expect(outcome).toMatchObject({ status: "success", rowCount: 4, truncated: true });
    const big = outcome.rows[0][0] as string;
    expect(big.startsWith("x".repeat(65536))).toBe(true);
    expect(big.slice(65536)).toBe("… (value cut at 65536 bytes)");
  });

  it("a managed database's object returns at most the result's byte budget, not every row whole", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    await createTable(owner, database.id);
    // 64 rows of 60,000 bytes: the object sent all 3.8 MB to the Worker, which kept 17 (RPC messages are bounded).
    const sent: QueryResult = await managedDatabase(env, database.id).query(
      "select printf('%.*c', 60000, 'x') as v from sales a, sales b, sales c",
      200,
    );
    expect({ rows: sent.rows.length, truncated: sent.truncated }).toEqual({ rows: 17, truncated: true });
  });
});

describe.skipIf(!!postgresMissing())("POST /sql-databases/{id}/ask/: PostgreSQL values", () => {
  it("a table holding an 'infinity' date (or a BC date) can be queried; other dates read as before", async () => {
    const owner = await seedOwner();
    const url = await ownPostgres(
      `create table contracts (id int primary key, name text, valid_to date, signed_at timestamptz);
       insert into contracts values (1, 'open-ended', 'infinity', '-infinity'), (2, 'ends', '2026-01-01', null),
         (3, 'ancient', '0044-03-15 BC', '2026-01-02 10:00:00+02');`,
    );
    const database = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: url });
    expect((await settled(owner, database.id)).status).toBe("connected");
    const outcome = await askSql(owner, database.id, "select id, valid_to, signed_at from contracts order by id");
    // The driver read dates into Date, and 'infinity' made an invalid one: the whole query failed.
    expect({ status: outcome.status, error: outcome.error, rows: outcome.rows }).toEqual({
      status: "success",
      error: null,
      rows: [
        [1, "infinity", "-infinity"],
        [2, "2026-01-01T00:00:00.000Z", null],
        [3, "0044-03-15 BC", "2026-01-02T08:00:00.000Z"],
      ],
    });
  });

  it("a table named with a double quote (discovered and offered) can be queried as PostgreSQL spells it", async () => {
    const owner = await seedOwner();
    const url = await ownPostgres(`create table "we""ird" (id int); insert into "we""ird" values (1);`);
    const database = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: url });
    const checked = await settled(owner, database.id);
    expect(checked.tables.map((t) => t.tableName)).toEqual(['we"ird']);
    const outcome = await askSql(owner, database.id, 'select id from "we""ird"');
    // A quoted name ended at its first quote: `"we""ird"` was read as table `we` aliased `ird`, and refused.
    expect({ status: outcome.status, error: outcome.error, rows: outcome.rows }).toEqual({
      status: "success",
      error: null,
      rows: [[1]],
    });
  });

  it("a schema named after the connecting role does not shadow the public table the database lists", async () => {
    const owner = await seedOwner();
    const role = `r_${unique("role").replace(/\W/g, "_").toLowerCase()}`.slice(0, 40);
    const url = await ownPostgres(
      `create role ${role} login password 'pw';
       create table sales (region text); insert into sales values ('listed');
       create schema ${role} authorization ${role};
       create table ${role}.sales (region text); insert into ${role}.sales values ('shadow');
       grant select on sales, ${role}.sales to ${role};`,
    );
    const asRole = url.replace(/\/\/[^@]+@/, `//${role}:pw@`);
    const database = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: asRole });
    expect((await settled(owner, database.id)).tables.map((t) => t.tableName)).toEqual(["sales"]);
    // PostgreSQL's default search_path ("$user", public) read the role's own schema first.
    const outcome = await askSql(owner, database.id, "select region from sales");
    expect({ status: outcome.status, rows: outcome.rows }).toEqual({ status: "success", rows: [["listed"]] });
  });

  it("a result's size is capped, not only its row count (4 rows of 5 MB each)", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: postgresUrl() });
    expect((await settled(owner, database.id)).status).toBe("connected");
    const res = await owner.fetch("POST", `/sql-databases/${database.id}/ask/`, {
      question: `sql: "select lpad('x', 5000000, 'y') as big from sales"`,
    });
    const text = await res.text();
    // Every value was held whole and returned: one query could bring gigabytes (PostgreSQL allows 1 GB a value).
    expect(text.length).toBeLessThan(2 * 1024 * 1024);
    const outcome = JSON.parse(text) as Awaited<ReturnType<typeof askSql>>;
    expect(outcome).toMatchObject({ status: "success", truncated: true });
    expect(outcome.rows.length).toBeGreaterThan(0);
    expect(String(outcome.rows[0][0])).toMatch(/… \(value cut at 65536 bytes\)$/);
    // 64 rows of 60,000 bytes each stop at the result's 1 MiB, uncut.
    const many = await askSql(owner, database.id, "select lpad('x', 60000, 'y') as v from sales a, sales b, sales c");
    expect(many).toMatchObject({ status: "success", rowCount: 17, truncated: true });
    expect(many.rows.every(([v]) => String(v).length === 60_000)).toBe(true);
  });
});
