import { describe, expect, it } from "vitest";
import { call, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner } from "../../harness";
import {
  createDatabase,
  createTable,
  MANAGED_TOTALS,
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
});
