import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import writeXlsxFile from "write-excel-file/node";
import { describe, expect, it } from "vitest";
import { sqlDatabases, sqlDatabaseTables } from "../../../src/db/schema";
import { managedDatabase } from "../../../src/services/sql/write";
import { TABULAR_LIMITS } from "../../../src/services/sql/tabular";
import { connectPostgres } from "../../../src/services/sql/postgres";
import type { QueryResult } from "../../../durable-objects/managed-database";
import {
  call,
  db,
  expectError,
  NO_SUCH_ID,
  PREFIXES,
  seedMember,
  seedOwner,
  unique,
  type Settings,
} from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { createKnowledgeBase, uploadFiles } from "../../fixtures/knowledge";
import {
  createDatabase,
  createTable,
  csvForm,
  HYPERDRIVE_URL,
  ownPostgres,
  postgresMissing,
  postgresUrl,
  SALES_CSV,
  settled,
  TEST_HYPERDRIVE,
} from "./support";
import { bodyOf } from "../../support/api";

const count = async (organizationId: string) =>
  (await db().select({ id: sqlDatabases.id }).from(sqlDatabases).where(eq(sqlDatabases.organizationId, organizationId)))
    .length;

describe("SQL databases: CRUD", () => {
  it("creates a managed database, lists it with filters under both prefixes, updates and deletes it", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const created = await createDatabase(owner, { description: "Sales figures", chatbots: [{ id: bot.id }] });
    expect(created).toMatchObject({
      databaseType: "managed",
      status: "connected",
      databaseUrl: null,
      isActive: true,
      tables: [],
      chatbots: [{ id: bot.id }],
      includeTables: { tables: [] },
    });
    const pgUrl = "postgresql://bot:s3cret@db.example.com:5432/shop";
    const external = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: pgUrl, isActive: false });
    expect(external.databaseUrl).toBe("postgresql://bot:***@db.example.com:5432/shop");
    expect(JSON.stringify(external)).not.toContain("s3cret");
    const [stored] = await db().select().from(sqlDatabases).where(eq(sqlDatabases.id, external.id));
    expect(stored.databaseUrlSealed).toMatch(/^v1:/);
    expect(stored.databaseUrlSealed).not.toContain("s3cret");

    for (const prefix of PREFIXES) {
      const all = await bodyOf<"GET /sql-databases/">(
        await owner.fetch("GET", "/sql-databases/", undefined, { prefix }),
      );
      expect(all.count).toBe(2);
      expect(all.results[0]).toMatchObject({ id: external.id, tablesCount: 0 });
    }
    const list = async (query: string) =>
      (await bodyOf<"GET /sql-databases/">(await owner.fetch("GET", `/sql-databases/${query}`))).results.map(
        (r) => r.id,
      );
    expect(await list("?databaseType=managed")).toEqual([created.id]);
    expect(await list("?is_external=true")).toEqual([external.id]);
    expect(await list("?isExternal=false")).toEqual([created.id]);
    expect(await list("?isActive=false")).toEqual([external.id]);
    expect(await list("?query=figures")).toEqual([created.id]);

    const patched = await owner.fetch(
      "PATCH",
      `/sql-databases/${created.id}/`,
      { name: "Renamed", isActive: false },
      { prefix: "/api" },
    );
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: "Renamed", isActive: false, description: "Sales figures" });
    const put = await owner.fetch("PUT", `/sql-databases/${external.id}/`, {
      name: "Shop",
      databaseType: "postgresql",
      databaseUrl: external.databaseUrl,
    });
    expect(put.status).toBe(200);
    const [kept] = await db().select().from(sqlDatabases).where(eq(sqlDatabases.id, external.id));
    expect(kept.databaseUrlSealed).toBe(stored.databaseUrlSealed);

    expect((await owner.fetch("DELETE", `/sql-databases/${created.id}/`, undefined, { prefix: "/api" })).status).toBe(
      204,
    );
    await expectNotFound(await owner.fetch("GET", `/sql-databases/${created.id}/`));
  });

  it("refuses bad input with 400 and writes nothing", async () => {
    const owner = await seedOwner();
    const cases: [Record<string, unknown>, string][] = [
      [{ databaseType: "managed" }, "name"],
      [{ name: "x", databaseType: "sqlite" }, "databaseType"],
      [{ name: "x", databaseType: "postgresql" }, "databaseUrl"],
      [{ name: "x", databaseType: "managed", databaseUrl: "postgresql://a:b@db.example.com/x" }, "databaseUrl"],
      [{ name: "x", databaseType: "postgresql", databaseUrl: "not a url" }, "databaseUrl"],
      [{ name: "x", databaseType: "postgresql", databaseUrl: "mysql://a:b@db.example.com/x" }, "databaseUrl"],
      [
        { name: "x", databaseType: "postgresql", databaseUrl: "postgresql://a:b@db.example.com,other.example.com/x" },
        "databaseUrl",
      ],
      [
        {
          name: "x",
          databaseType: "postgresql",
          databaseUrl: "postgresql://a:b@db.example.com/x?host=/var/run/postgresql",
        },
        "databaseUrl",
      ],
      [{ name: "x", databaseType: "postgresql", databaseUrl: "postgresql://a:b@127.0.0.1:5432/x" }, "databaseUrl"],
      [{ name: "x", databaseType: "postgresql", databaseUrl: "postgresql://a:b@169.254.169.254/x" }, "databaseUrl"],
      [{ name: "x", databaseType: "postgresql", databaseUrl: "postgresql://a:b@[::1]:5432/x" }, "databaseUrl"],
      [{ name: "x", databaseType: "postgresql", databaseUrl: "postgresql://a:b@localhost/x" }, "databaseUrl"],
      [{ name: "x", databaseType: "managed", chatbots: [{ id: NO_SUCH_ID }] }, "chatbots"],
      [{ name: "x", databaseType: "managed", groups: [{ id: NO_SUCH_ID }] }, "groups"],
      [{ name: "x", databaseType: "managed", includeTables: { tables: ["a"] } }, "includeTables"],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await owner.fetch("POST", "/sql-databases/", body), 400, "invalid");
      expect(Object.keys(error.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(await count(owner.organizationId)).toBe(0);
    const taken = await createDatabase(owner);
    await expectError(
      await owner.fetch("POST", "/sql-databases/", { name: taken.name, databaseType: "managed" }),
      409,
      "conflict",
    );
    await expectError(
      await owner.fetch("PATCH", `/sql-databases/${taken.id}/`, { databaseType: "postgresql" }),
      400,
      "invalid",
    );
    await expectError(await owner.fetch("PATCH", `/sql-databases/${taken.id}/`, { name: "" }), 400, "invalid");
  });

  it("a literal % in a connection string (postgresql://bot:100%@host/db) is a 400 on databaseUrl, no 500", async () => {
    const owner = await seedOwner();
    const refused = async (res: Response) => {
      const error = await expectError(res, 400, "invalid");
      expect(Object.keys(error.errors ?? {})).toEqual(["databaseUrl"]);
      expect(error.errors!.databaseUrl[0]).toContain("percent-encode special characters");
    };
    // decodeURIComponent threw a URIError, which the connection check let through.
    await refused(
      await owner.fetch("POST", "/sql-databases/", {
        name: unique("db"),
        databaseType: "postgresql",
        databaseUrl: "postgresql://bot:100%@db.example.com:5432/shop",
      }),
    );
    expect(await count(owner.organizationId)).toBe(0);
    // The same on update, and for a database name; the stored connection string stays.
    const existing = await createDatabase(owner, {
      databaseType: "postgresql",
      databaseUrl: "postgresql://bot:s3cret@db.example.com:5432/shop",
      isActive: false,
    });
    await refused(
      await owner.fetch("PATCH", `/sql-databases/${existing.id}/`, {
        databaseUrl: "postgresql://bot:s3cret@db.example.com:5432/sh%op",
      }),
    );
    // Percent-encoded, it is saved.
    const encoded = await owner.fetch("PATCH", `/sql-databases/${existing.id}/`, {
      databaseUrl: "postgresql://bot:100%25@db.example.com:5432/shop",
    });
    expect(encoded.status, await encoded.clone().text()).toBe(200);
  });

  it("503 not_configured when ENCRYPTION_KEY is missing, without storing", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch(
      "POST",
      "/sql-databases/",
      { name: "x", databaseType: "postgresql", databaseUrl: "postgresql://a:b@db.example.com/x" },
      { settings: { ENCRYPTION_KEY: undefined } },
    );
    expect((await expectError(res, 503, "not_configured")).detail).toContain("ENCRYPTION_KEY");
    expect(await count(owner.organizationId)).toBe(0);
  });

  it("stores mysql, oracle and mssql as failed: not supported in this deployment (400 to connect)", async () => {
    const owner = await seedOwner();
    for (const type of ["mysql", "oracle", "mssql"]) {
      const row = await createDatabase(owner, { databaseType: type, databaseUrl: `${type}://u:p@db.example.com/x` });
      expect(row).toMatchObject({
        status: "failed",
        errorMessage: expect.stringContaining("not supported in this deployment"),
      });
      const check = await expectError(await owner.fetch("POST", `/sql-databases/${row.id}/check-connection/`), 400);
      expect(check.detail).toContain("not supported in this deployment");
    }
  });

  it("a connection string's secrets never show, in any form; an earlier version's mask is masked again", async () => {
    const owner = await seedOwner();
    const forms = {
      postgresql: ["postgresql://bot:p@ss@db.example.com:5432/shop", "postgresql://bot:***@db.example.com:5432/shop"],
      mssql: [
        'Server=db.example.com;User Id=sa; Password = "p@ss;w0rd";Encrypt=true',
        "Server=db.example.com;User Id=sa; Password = ***;Encrypt=true",
      ],
      oracle: ["scott/ti@ger@db.example.com:1521/ORCL", "scott/***@db.example.com:1521/ORCL"],
    };
    for (const [type, [url, masked]] of Object.entries(forms)) {
      const row = await createDatabase(owner, { databaseType: type, databaseUrl: url });
      expect(row.databaseUrl, type).toBe(masked);
      const read = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${row.id}/`));
      expect(read.databaseUrl, type).toBe(masked);
    }
    // The form an earlier version stored, which stopped at the password's first "@".
    const row = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: forms.postgresql[0] });
    const earlier = "postgresql://bot:***@ss@db.example.com:5432/shop";
    await db().update(sqlDatabases).set({ databaseUrlMasked: earlier }).where(eq(sqlDatabases.id, row.id));
    const [stored] = await db().select().from(sqlDatabases).where(eq(sqlDatabases.id, row.id));
    const read = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${row.id}/`));
    expect(read.databaseUrl).toBe(forms.postgresql[1]);
    for (const sentBack of [earlier, read.databaseUrl]) {
      const res = await owner.fetch("PATCH", `/sql-databases/${row.id}/`, { databaseUrl: sentBack });
      expect(res.status, await res.clone().text()).toBe(200);
      const [kept] = await db().select().from(sqlDatabases).where(eq(sqlDatabases.id, row.id));
      expect(kept.databaseUrlSealed).toBe(stored.databaseUrlSealed);
    }
  });

  it("an unreachable external database is saved and reported failed in the background (never a 500)", async () => {
    const owner = await seedOwner();
    // Allowed by name, but nothing listens there: the check fails with the driver's reason.
    const row = await createDatabase(owner, {
      databaseType: "postgresql",
      databaseUrl: "postgresql://u:p@127.0.0.1:1/x",
    }).catch(() => null);
    expect(row).toBeNull(); // loopback is refused on save unless allowed
    const settings = { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1:1" };
    const res = await owner.fetch(
      "POST",
      "/sql-databases/",
      { name: unique("down"), databaseType: "postgresql", databaseUrl: "postgresql://u:p@127.0.0.1:1/x" },
      { settings },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await bodyOf<"POST /sql-databases/">(res);
    expect(created.status).toBe("pending");
    const checked = await owner.fetch("POST", `/sql-databases/${created.id}/check-connection/`, undefined, {
      settings,
    });
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({ status: "failed", errorMessage: expect.any(String) });
  });

  it("a failed check DB refuses to store leaves the database pending (the check still answers 200)", async () => {
    const owner = await seedOwner();
    const name = unique("refused");
    const trigger = `"sql_check_down_${name.replace(/\W/g, "")}"`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE OF status ON sql_databases ` +
        `WHEN NEW.name = '${name}' AND NEW.status = 'failed' BEGIN SELECT RAISE(ABORT, 'status refused'); END`,
    ).run();
    try {
      const settings = { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1:1" };
      const res = await owner.fetch(
        "POST",
        "/sql-databases/",
        { name, databaseType: "postgresql", databaseUrl: "postgresql://u:p@127.0.0.1:1/x" },
        { settings },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      const created = await bodyOf<"POST /sql-databases/">(res);
      const checked = await owner.fetch("POST", `/sql-databases/${created.id}/check-connection/`, undefined, {
        settings,
      });
      expect(checked.status).toBe(200);
      expect(await checked.json()).toMatchObject({ status: "pending", errorMessage: null });
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
  });

  it(
    "hyperdrive://BINDING: 400 naming the binding when it is not offered to the organization, not configured or " +
      "not a Hyperdrive binding",
    async () => {
      const owner = await seedOwner();
      const refused = async (databaseUrl: string, settings?: Settings, method = "POST", path = "/sql-databases/") => {
        const res = await owner.fetch(
          method,
          path,
          { name: unique("hd"), databaseType: "postgresql", databaseUrl },
          { settings },
        );
        const error = await expectError(res, 400, "invalid");
        expect(Object.keys(error.errors ?? {}), databaseUrl).toEqual(["databaseUrl"]);
        return error.errors!.databaseUrl[0];
      };
      // Not listed in SQL_HYPERDRIVE_BINDINGS (whether or not the deployment has such a binding).
      expect(await refused("hyperdrive://NOPE")).toBe(
        'The Hyperdrive binding "NOPE" is not available to this organization: the operator lists the bindings ' +
          "organizations may use in SQL_HYPERDRIVE_BINDINGS.",
      );
      expect(await refused("hyperdrive://DB")).toContain('"DB" is not available');
      const elsewhere = { SQL_HYPERDRIVE_BINDINGS: `${TEST_HYPERDRIVE}=${NO_SUCH_ID}|${crypto.randomUUID()}` };
      expect(await refused(HYPERDRIVE_URL, elsewhere)).toContain(
        `"${TEST_HYPERDRIVE}" is not available to this organization`,
      );
      // Listed by the operator, but missing from the deployment or some other kind of binding.
      const listed = { SQL_HYPERDRIVE_BINDINGS: "NOPE, DB, ENCRYPTION_KEY, TEST_HYPERDRIVE_MYSQL" };
      expect(await refused("hyperdrive://NOPE", listed)).toBe(
        'No Hyperdrive binding named "NOPE" is configured in this deployment ([[hyperdrive]] in wrangler.toml).',
      );
      expect(await refused("hyperdrive://DB", listed)).toBe(
        '"DB" is a binding of this deployment but not a Hyperdrive binding.',
      );
      expect(await refused("hyperdrive://ENCRYPTION_KEY", listed)).toContain(
        '"ENCRYPTION_KEY" is a binding of this deployment but not a Hyperdrive binding',
      );
      expect(await refused("hyperdrive://TEST_HYPERDRIVE_MYSQL", listed)).toBe(
        'The Hyperdrive binding "TEST_HYPERDRIVE_MYSQL" is for a mysql database, not PostgreSQL.',
      );
      for (const malformed of [
        "hyperdrive://",
        "hyperdrive://a-b",
        "hyperdrive://u:p@NOPE",
        "hyperdrive://NOPE/db",
        "hyperdrive://NOPE?sslmode=require",
        "hyperdrive:NOPE",
      ]) {
        expect(await refused(malformed, listed), malformed).toContain("hyperdrive://BINDING_NAME");
      }
      expect(await count(owner.organizationId)).toBe(0);
      // The same on update; the stored connection string stays.
      const external = await createDatabase(owner, {
        databaseType: "postgresql",
        databaseUrl: "postgresql://bot:s3cret@db.example.com:5432/shop",
      });
      expect(await refused("hyperdrive://NOPE", listed, "PATCH", `/sql-databases/${external.id}/`)).toContain(
        'No Hyperdrive binding named "NOPE"',
      );
      expect(await refused("hyperdrive://DB", undefined, "PUT", `/sql-databases/${external.id}/`)).toContain(
        '"DB" is not available',
      );
      expect(
        (await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${external.id}/`)))
          .databaseUrl,
      ).toBe("postgresql://bot:***@db.example.com:5432/shop");
    },
  );

  it("401 without a key, 403 without the permission, 404 for another organization's database", async () => {
    const owner = await seedOwner();
    const row = await createDatabase(owner);
    for (const [method, path] of [
      ["GET", "/sql-databases/"],
      ["POST", "/sql-databases/"],
      ["GET", `/sql-databases/${row.id}/`],
      ["PATCH", `/sql-databases/${row.id}/`],
      ["DELETE", `/sql-databases/${row.id}/`],
      ["POST", `/sql-databases/${row.id}/tables/`],
    ]) {
      await expectError(
        await call(method, `/api/v1${path}`, method === "GET" || method === "DELETE" ? undefined : {}),
        401,
        "not_authenticated",
      );
    }
    const plain = await seedMember(owner);
    await expectDenied(await plain.fetch("GET", "/sql-databases/"));
    await expectDenied(await plain.fetch("POST", "/sql-databases/", { name: "x", databaseType: "managed" }));
    const viewer = await seedMember(owner, ["sql_database.view"]);
    expect((await bodyOf<"GET /sql-databases/">(await viewer.fetch("GET", "/sql-databases/"))).count).toBe(0);
    await owner.fetch("PATCH", `/sql-databases/${row.id}/`, { groups: [{ id: viewer.groupId }] });
    expect((await bodyOf<"GET /sql-databases/">(await viewer.fetch("GET", "/sql-databases/"))).count).toBe(1);
    await expectDenied(await viewer.fetch("PATCH", `/sql-databases/${row.id}/`, { name: "y" }));
    await expectDenied(await viewer.fetch("POST", `/sql-databases/${row.id}/tables/`, csvForm(SALES_CSV)));
    const manager = await seedMember(owner, ["sql_database.manage"]);
    await expectError(
      await manager.fetch("POST", "/sql-databases/", { name: "m", databaseType: "managed" }),
      400,
      "invalid",
    );
    expect(
      (
        await manager.fetch("POST", "/sql-databases/", {
          name: "m",
          databaseType: "managed",
          groups: [{ id: manager.groupId }],
        })
      ).status,
    ).toBe(201);

    const stranger = await seedOwner();
    for (const [method, path, body] of [
      ["GET", `/sql-databases/${row.id}/`],
      ["PATCH", `/sql-databases/${row.id}/`, { name: "z" }],
      ["DELETE", `/sql-databases/${row.id}/`],
      ["POST", `/sql-databases/${row.id}/check-connection/`],
    ] as const) {
      await expectNotFound(await stranger.fetch(method, path, body));
    }
    await expectNotFound(await stranger.fetch("POST", `/sql-databases/${row.id}/tables/`, csvForm(SALES_CSV)));
    await expectNotFound(await stranger.fetch("GET", "/sql-databases/not-a-uuid/"));
    await expectNotFound(await stranger.fetch("PATCH", `/sql-databases/${owner.organizationId}/`, { chatbots: [] }));
  });
});

describe("SQL databases: the assistants linked to them", () => {
  it("a member's record of a database lists only the assistants they can see", async () => {
    const owner = await seedOwner();
    const hidden = await createChatbot(owner, { name: unique("hidden-bot") });
    const shown = await createChatbot(owner, { name: unique("shown-bot") });
    const member = await seedMember(owner, ["sql_database.view", "sql_database.manage", "chatbot.view"]);
    expect((await owner.fetch("PATCH", `/chatbots/${shown.id}/`, { groups: [{ id: member.groupId }] })).status).toBe(
      200,
    );
    expect((await member.fetch("GET", `/chatbots/${hidden.id}/`)).status).toBe(404);
    const database = await createDatabase(owner, {
      groups: [{ id: member.groupId }],
      chatbots: [{ id: hidden.id }, { id: shown.id }],
    });
    // The names of every linked assistant were read, those the member cannot open too (unlike knowledge bases).
    const read = await bodyOf<"GET /sql-databases/{id}/">(await member.fetch("GET", `/sql-databases/${database.id}/`));
    expect(read.chatbots.map((b) => b.id)).toEqual([shown.id]);
    const listed = await bodyOf<"GET /sql-databases/">(await member.fetch("GET", "/sql-databases/"));
    expect(listed.results.find((d) => d.id === database.id)?.chatbots.map((b) => b.id)).toEqual([shown.id]);
    const all = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${database.id}/`));
    expect(all.chatbots.map((b) => b.id).sort()).toEqual([hidden.id, shown.id].sort());
  });

  it("a member's PATCH of chatbots replaces the links they see; a change of links needs chatbot.manage", async () => {
    const owner = await seedOwner();
    const hidden = await createChatbot(owner, { name: unique("hidden-bot") });
    const shown = await createChatbot(owner, { name: unique("shown-bot") });
    const member = await seedMember(owner, ["sql_database.view", "sql_database.manage", "chatbot.view"]);
    const manager = await seedMember(owner, [
      "sql_database.view",
      "sql_database.manage",
      "chatbot.view",
      "chatbot.manage",
    ]);
    const groups = [{ id: member.groupId }, { id: manager.groupId }];
    expect((await owner.fetch("PATCH", `/chatbots/${shown.id}/`, { groups })).status).toBe(200);
    const database = await createDatabase(owner, { groups, chatbots: [{ id: hidden.id }, { id: shown.id }] });
    const linked = async () =>
      (await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${database.id}/`))).chatbots
        .map((b) => b.id)
        .sort();
    const patch = (chatbots: { id: string }[]) =>
      member.fetch("PATCH", `/sql-databases/${database.id}/`, { description: "x", chatbots });
    // Sending back what the record lists changes no link: no chatbot.manage needed.
    const unchanged = await patch([{ id: shown.id }]);
    expect(unchanged.status, await unchanged.clone().text()).toBe(200);
    // Removing one changes what the assistant answers with.
    await expectDenied(await patch([]));
    expect(await linked()).toEqual([hidden.id, shown.id].sort());

    const emptied = await manager.fetch("PATCH", `/sql-databases/${database.id}/`, { chatbots: [] });
    expect(emptied.status, await emptied.clone().text()).toBe(200);
    // Every assistant link was deleted, the hidden assistant's too: it silently lost its query_database tool.
    expect(await linked()).toEqual([hidden.id]);
    const readded = await manager.fetch("PATCH", `/sql-databases/${database.id}/`, { chatbots: [{ id: shown.id }] });
    expect(readded.status, await readded.clone().text()).toBe(200);
    expect(await linked()).toEqual([hidden.id, shown.id].sort());
    // Creating one with assistants needs it as well.
    await expectDenied(
      await member.fetch("POST", "/sql-databases/", {
        name: unique("db"),
        databaseType: "managed",
        groups: [{ id: member.groupId }],
        chatbots: [{ id: shown.id }],
      }),
    );
  });
});

describe("managed tables from CSV and XLSX", () => {
  it("creates a typed table from an uploaded CSV, replaces and deletes it", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    const table = await createTable(owner, database.id);
    expect(table).toMatchObject({
      tableName: "sales",
      rowCount: 4,
      sourceFile: { name: "sales.csv", isFromKnowledgeBase: false },
    });
    expect(table.columns.map((c) => [c.columnName, c.columnType])).toEqual([
      ["region", "TEXT"],
      ["amount", "REAL"],
      ["sold_on", "TEXT"],
    ]);
    expect(await env.MANAGED_DATABASE.get(env.MANAGED_DATABASE.idFromName(database.id)).count("sales")).toBe(4);
    const detail = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${database.id}/`));
    expect(detail).toMatchObject({
      includeTables: { tables: ["sales"] },
      tables: [{ id: table.id, tableName: "sales" }],
    });
    await expectError(
      await owner.fetch("POST", `/sql-databases/${database.id}/tables/`, csvForm(SALES_CSV, { tableName: "sales" })),
      409,
      "conflict",
    );
    const replaced = await createTable(owner, database.id, "a,b\n1,2\n", { tableName: "sales", replace: "true" });
    expect(replaced).toMatchObject({ id: table.id, rowCount: 1 });
    expect((await owner.fetch("DELETE", `/sql-databases/${database.id}/tables/${table.id}/`)).status).toBe(204);
    expect(await db().select().from(sqlDatabaseTables).where(eq(sqlDatabaseTables.id, table.id))).toEqual([]);
    await expectNotFound(await owner.fetch("DELETE", `/sql-databases/${database.id}/tables/${table.id}/`));
  });

  it("two uploads of one new table name at once: one 201 and one 409, and the table keeps its rows", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    const upload = () =>
      owner.fetch("POST", `/sql-databases/${database.id}/tables/`, csvForm(SALES_CSV, { tableName: "sales" }));
    const statuses = (await Promise.all([upload(), upload()])).map((r) => r.status).sort();
    // Both passed an "exists?" read; the second's CREATE TABLE failed in the object (a 500), and its clean-up dropped
    // the table the first had filled, whose record said ready with 4 rows.
    expect(statuses).toEqual([201, 409]);
    expect(await managedDatabase(env, database.id).count("sales")).toBe(4);
    const detail = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${database.id}/`));
    expect(detail.tables).toMatchObject([{ tableName: "sales", status: "ready", rowCount: 4 }]);
  });

  it("two replacing uploads of over 5,000 rows at once: one loads, the other is a 409; rows never mix", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    await createTable(owner, database.id);
    const csv = (tag: string) => `tag,n\n${Array.from({ length: 6_000 }, (_, i) => `${tag},${i}`).join("\n")}\n`;
    const upload = (tag: string) =>
      owner.fetch(
        "POST",
        `/sql-databases/${database.id}/tables/`,
        csvForm(csv(tag), { tableName: "sales", replace: "true" }),
      );
    const statuses = (await Promise.all([upload("a"), upload("b")])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
    const stored: QueryResult = await managedDatabase(env, database.id).query(
      'SELECT tag, count(*) FROM "sales" GROUP BY tag',
      10,
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0][1]).toBe(6_000);
    const detail = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${database.id}/`));
    expect(detail.tables).toMatchObject([{ tableName: "sales", status: "ready", rowCount: 6_000 }]);
  });

  it("keeps values as written (long numbers, leading zeros, decimals); a cell past the header is refused", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    const csv =
      "order,phone,zip,units,price,share\n" +
      "12345678901234567,0912345678,02134,3,1.5,1e3\n" +
      "98765432109876543,0223456789,10001,-12,-0.25,.5\n";
    const table = await createTable(owner, database.id, csv, { tableName: "orders" });
    expect(table.columns.map((c) => [c.columnName, c.columnType])).toEqual([
      ["order", "TEXT"],
      ["phone", "TEXT"],
      ["zip", "TEXT"],
      ["units", "INTEGER"],
      ["price", "REAL"],
      ["share", "REAL"],
    ]);
    // Typed as the service reads it (RPC's types make `unknown` cells never).
    const stored: QueryResult = await managedDatabase(env, database.id).query('SELECT * FROM "orders"', 10);
    expect(stored.rows).toEqual([
      ["12345678901234567", "0912345678", "02134", 3, 1.5, 1000],
      ["98765432109876543", "0223456789", "10001", -12, -0.25, 0.5],
    ]);

    const wide = await owner.fetch(
      "POST",
      `/sql-databases/${database.id}/tables/`,
      csvForm("region,amount\nnorth,120\nsouth,50,extra\n", { tableName: "wide" }),
    );
    const refused = await expectError(wide, 400, "invalid");
    expect(refused.errors).toHaveProperty("file");
    expect(refused.detail).toContain("Row 3");
    // Trailing separators, as spreadsheets export them, are no values.
    const trailing = await createTable(owner, database.id, "region,amount\nnorth,120,,\n", { tableName: "trailing" });
    expect(trailing).toMatchObject({ rowCount: 1 });
  });

  it("creates tables from a knowledge base's CSV and from an XLSX upload", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    const kb = await createKnowledgeBase(owner);
    const [file] = await uploadFiles(owner, kb.id, [
      { name: "Quarterly Sales.csv", content: SALES_CSV, type: "text/csv" },
    ]);
    const res = await owner.fetch("POST", `/sql-databases/${database.id}/tables/`, {
      sourceFile: { id: file.id },
      description: "From the knowledge base",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({
      tableName: "quarterly_sales",
      rowCount: 4,
      description: "From the knowledge base",
      sourceFile: { id: file.id, name: "Quarterly Sales.csv", isFromKnowledgeBase: true },
    });

    const xlsx: Uint8Array = await writeXlsxFile(
      [
        [{ value: "Product" }, { value: "Units" }],
        [{ value: "Tea & cakes" }, { value: 12 }],
        [{ value: "Coffee" }, { value: 30 }],
      ],
      {},
    ).toBuffer();
    const sheet = await createTable(owner, database.id, xlsx, { tableName: "stock" }, "stock.xlsx");
    expect(sheet).toMatchObject({ tableName: "stock", rowCount: 2 });
    expect(sheet.columns.map((c) => [c.columnName, c.columnType])).toEqual([
      ["product", "TEXT"],
      ["units", "INTEGER"],
    ]);

    const stranger = await seedOwner();
    const theirs = await createDatabase(stranger);
    const borrowed = await stranger.fetch("POST", `/sql-databases/${theirs.id}/tables/`, {
      sourceFile: { id: file.id },
    });
    expect((await expectError(borrowed, 400, "invalid")).errors).toHaveProperty("sourceFile");
  });

  it("refuses bad files and names with 400, leaving no table", async () => {
    const owner = await seedOwner();
    const database = await createDatabase(owner);
    const post = (form: FormData | Record<string, unknown>) =>
      owner.fetch("POST", `/sql-databases/${database.id}/tables/`, form);
    await expectError(await post(csvForm("", {}, "empty.csv")), 400, "invalid");
    await expectError(await post(csvForm("a,b\n1,2\n", {}, "data.json")), 400, "invalid");
    await expectError(await post(csvForm("not a zip", {}, "x.xlsx")), 400, "invalid");
    await expectError(await post(csvForm(SALES_CSV, { tableName: "Robert'); DROP TABLE sales;--" })), 400, "invalid");
    await expectError(await post(csvForm(SALES_CSV, { tableName: "1abc" })), 400, "invalid");
    const reserved = await expectError(await post(csvForm(SALES_CSV, { tableName: "sqlite_master" })), 400, "invalid");
    expect(reserved.errors).toHaveProperty("tableName");
    expect(reserved.detail).toContain("sqlite_");
    // Big5 (a Traditional Chinese spreadsheet's export), and bytes that are no text at all.
    const big5 = new Uint8Array([
      0xab, 0x7e, 0xa6, 0x57, 0x2c, 0xbc, 0xc6, 0xb6, 0x71, 0x0a, 0xa4, 0xfd, 0x2c, 0x31, 0x0a,
    ]);
    const binary = Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256);
    for (const bytes of [big5, binary]) {
      const refused = await expectError(await post(csvForm(bytes)), 400, "invalid");
      expect(refused.errors).toHaveProperty("file");
      expect(refused.detail).toContain("UTF-8");
    }
    await expectError(await post({ sourceFile: { id: NO_SUCH_ID } }), 400, "invalid");
    await expectError(await post({ sourceFile: {} }), 400, "invalid");
    await expectError(await post(new FormData()), 400, "invalid");
    const textPart = new FormData();
    textPart.append("file", "text, not a file");
    const notAFile = await expectError(await post(textPart), 400, "invalid");
    expect(notAFile.errors).toEqual({ file: ["Required: a .csv or .xlsx file part."] });
    // A byte past the limit still passes the multipart limit (it leaves room for the form around the file): 413 here.
    const over = await expectError(
      await post(csvForm(new Uint8Array(TABULAR_LIMITS.bytes + 1))),
      413,
      "payload_too_large",
    );
    expect(over.detail).toBe(`The file is larger than ${TABULAR_LIMITS.bytes} bytes.`);
    const description = "d".repeat(10_001);
    const long = await expectError(await post(csvForm(SALES_CSV, { description })), 400, "invalid");
    expect(long.errors).toEqual({ description: ["At most 10,000 characters."] });
    const detail = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${database.id}/`));
    expect(detail.tables).toEqual([]);
    // A file named like SQLite's own tables makes a table of another name.
    const fromName = await owner.fetch(
      "POST",
      `/sql-databases/${database.id}/tables/`,
      csvForm(SALES_CSV, {}, "sqlite_stat1.csv"),
    );
    expect(fromName.status, await fromName.clone().text()).toBe(201);
    expect(await fromName.json()).toMatchObject({ tableName: "table_sqlite_stat1" });
    const external = await createDatabase(owner, {
      databaseType: "mysql",
      databaseUrl: "mysql://u:p@db.example.com/x",
    });
    await expectError(
      await owner.fetch("POST", `/sql-databases/${external.id}/tables/`, csvForm(SALES_CSV)),
      400,
      "invalid",
    );
  });
});

describe.skipIf(!!postgresMissing())("PostgreSQL databases (a real server)", () => {
  it("connects in the background and discovers tables, limited by includeTables", async () => {
    const owner = await seedOwner();
    const created = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: postgresUrl() });
    const all = await settled(owner, created.id);
    expect(all).toMatchObject({ status: "connected", errorMessage: null });
    expect(all.tables.map((t) => t.tableName)).toEqual(["sales", "secrets"]);
    const sales = all.tables.find((t) => t.tableName === "sales")!;
    expect(sales.columns.map((c) => [c.columnName, c.columnType])).toEqual([
      ["id", "integer"],
      ["region", "text"],
      ["amount", "integer"],
      ["sold_on", "date"],
    ]);
    expect(sales.columns[0]).toMatchObject({ isPrimaryKey: true, isNullable: false });
    const patched = await owner.fetch("PATCH", `/sql-databases/${created.id}/`, {
      includeTables: { tables: ["sales"] },
    });
    expect(await bodyOf<"PATCH /sql-databases/{id}/">(patched)).toMatchObject({ status: "pending" });
    expect((await settled(owner, created.id)).tables.map((t) => t.tableName)).toEqual(["sales"]);
  });

  it(
    "hyperdrive://BINDING connects through the deployment's Hyperdrive binding, without the SSRF guard; a " +
      "binding taken away is a failed status",
    async () => {
      const owner = await seedOwner();
      const created = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: HYPERDRIVE_URL });
      expect(created).toMatchObject({ databaseUrl: HYPERDRIVE_URL, status: "pending" });
      const [stored] = await db().select().from(sqlDatabases).where(eq(sqlDatabases.id, created.id));
      expect(stored.databaseUrlSealed).toMatch(/^v1:/);
      const connected = await settled(owner, created.id);
      expect(connected).toMatchObject({ status: "connected", errorMessage: null, databaseUrl: HYPERDRIVE_URL });
      expect(connected.tables.map((t) => t.tableName)).toEqual(["sales", "secrets"]);
      expect(connected.tables[0].columns.map((c) => [c.columnName, c.columnType])).toEqual([
        ["id", "integer"],
        ["region", "text"],
        ["amount", "integer"],
        ["sold_on", "date"],
      ]);

      const check = async (settings?: Settings) => {
        const res = await owner.fetch("POST", `/sql-databases/${created.id}/check-connection/`, undefined, {
          settings,
        });
        expect(res.status, await res.clone().text()).toBe(200);
        return await bodyOf<"POST /sql-databases/{id}/check-connection/">(res);
      };
      // The operator chose the origin: no outbound address guard (which refuses the cluster's loopback host).
      expect(await check({ OUTBOUND_ALLOWED_HOSTS: "", WEBHOOK_ALLOWED_HOSTS: "" })).toMatchObject({
        status: "connected",
        tables: [{ tableName: "sales" }, { tableName: "secrets" }],
      });
      // includeTables limits the discovery as for any PostgreSQL database.
      const patched = await owner.fetch("PATCH", `/sql-databases/${created.id}/`, {
        includeTables: { tables: ["sales"] },
      });
      expect(patched.status).toBe(200);
      expect((await settled(owner, created.id)).tables.map((t) => t.tableName)).toEqual(["sales"]);
      // The binding removed from the deployment, or no longer offered: failed with the reason, never a 500.
      expect(await check({ [TEST_HYPERDRIVE]: undefined } as Settings)).toMatchObject({
        status: "failed",
        errorMessage:
          `No Hyperdrive binding named "${TEST_HYPERDRIVE}" is configured in this deployment ([[hyperdrive]] in ` +
          `wrangler.toml).`,
      });
      expect(await check({ SQL_HYPERDRIVE_BINDINGS: "" })).toMatchObject({
        status: "failed",
        errorMessage: expect.stringContaining(`"${TEST_HYPERDRIVE}" is not available to this organization`),
      });
      expect(
        await check({ SQL_HYPERDRIVE_BINDINGS: `OTHER, ${TEST_HYPERDRIVE}=${owner.organizationId}` }),
      ).toMatchObject({ status: "connected", errorMessage: null });
    },
  );

  it("a database of over 90 tables keeps its table records across checks (none deleted and added again)", async () => {
    const owner = await seedOwner();
    const url = await ownPostgres(
      "do $$ begin for i in 1..91 loop execute format('create table t%s (id int)', lpad(i::text, 3, '0')); " +
        "end loop; end $$;",
    );
    const created = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: url });
    const first = await settled(owner, created.id);
    expect(first.tables).toHaveLength(91);
    const res = await owner.fetch("POST", `/sql-databases/${created.id}/check-connection/`);
    const again = await bodyOf<"POST /sql-databases/{id}/check-connection/">(res);
    // The tables past the 90th were deleted and inserted again at every check: new ids and creation times.
    const ids = (d: typeof first) => d.tables.map((t) => [t.tableName, t.id, t.createdAt]);
    expect(ids(again)).toEqual(ids(first));
  });

  it("a check keeps each column's id and description; a table with unchanged columns is not written", async () => {
    const owner = await seedOwner();
    const url = await ownPostgres(
      "create table sales (id int primary key, region text, amount int); create table notes (id int, body text);",
    );
    const created = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: url });
    expect((await settled(owner, created.id)).tables.map((t) => t.tableName)).toEqual(["notes", "sales"]);
    const stored = async (tableName: string) =>
      (
        await db()
          .select()
          .from(sqlDatabaseTables)
          .where(and(eq(sqlDatabaseTables.sqlDatabaseId, created.id), eq(sqlDatabaseTables.tableName, tableName)))
      )[0];
    // What a user may write on a column: no route sets a description yet, the record has the field.
    const first = await stored("sales");
    const described = first.columns.map((c) => (c.columnName === "region" ? { ...c, description: "Where sold" } : c));
    await db().update(sqlDatabaseTables).set({ columns: described }).where(eq(sqlDatabaseTables.id, first.id));
    const [sales, notes] = [await stored("sales"), await stored("notes")];
    const own = await connectPostgres(env, url, "tests");
    try {
      await own.unsafe("alter table sales alter column amount type bigint; alter table sales add column sold_on date;");
    } finally {
      await own.end({ timeout: 1 });
    }
    const res = await owner.fetch("POST", `/sql-databases/${created.id}/check-connection/`);
    expect(res.status, await res.clone().text()).toBe(200);
    // Every column had a new id at every check, and every table was written again.
    expect(await stored("notes")).toEqual(notes);
    const after = await stored("sales");
    const [id, region, amount] = sales.columns;
    expect(after.columns.slice(0, 2)).toEqual([id, region]);
    expect(after.columns[1].description).toBe("Where sold");
    expect(after.columns[2]).toMatchObject({ id: amount.id, createdAt: amount.createdAt, columnType: "bigint" });
    expect(after.columns[2].updatedAt).toBeGreaterThan(amount.updatedAt);
    expect(after.columns[3]).toMatchObject({ columnName: "sold_on", columnType: "date", description: "" });
    expect(sales.columns.map((c) => c.id)).not.toContain(after.columns[3].id);
    expect(after.updatedAt).toBeGreaterThan(sales.updatedAt);
  });

  it("a slow check that started first never overwrites the tables of a check started after it", async () => {
    const owner = await seedOwner();
    const before = await ownPostgres("create table before_change (id int);");
    const created = await createDatabase(owner, { databaseType: "postgresql", databaseUrl: before });
    expect((await settled(owner, created.id)).tables.map((t) => t.tableName)).toEqual(["before_change"]);
    // A catalog lock in that database holds a check of it until released: the slow check.
    const admin = await connectPostgres(env, before, "tests");
    const watcher = await connectPostgres(env, postgresUrl(), "tests");
    let release: () => void = () => undefined;
    const locked = new Promise<void>((ready) => {
      void admin
        .begin(async (tx) => {
          await tx.unsafe("lock table pg_catalog.pg_attribute in access exclusive mode");
          ready();
          await new Promise<void>((r) => (release = r));
        })
        .catch(() => undefined);
    });
    try {
      await locked;
      const slow = owner.fetch("POST", `/sql-databases/${created.id}/check-connection/`);
      // Until the check waits for the lock, so it started before the change below.
      for (let waiting = 0; !waiting; await new Promise((r) => setTimeout(r, 20))) {
        [{ waiting }] = await watcher<
          { waiting: number }[]
        >`select count(*)::int as waiting from pg_locks where not granted`;
      }
      // Settings changed meanwhile: the check they start (of the shared cluster's database) ends first.
      const patched = await owner.fetch("PATCH", `/sql-databases/${created.id}/`, { databaseUrl: postgresUrl() });
      expect(patched.status).toBe(200);
      expect((await settled(owner, created.id)).tables.map((t) => t.tableName)).toEqual(["sales", "secrets"]);
      release();
      expect((await slow).status).toBe(200);
    } finally {
      release();
      await Promise.all([admin.end({ timeout: 1 }), watcher.end({ timeout: 1 })]);
    }
    // The slow check finished last and stored the old database's tables over the new one's.
    const read = await bodyOf<"GET /sql-databases/{id}/">(await owner.fetch("GET", `/sql-databases/${created.id}/`));
    expect(read).toMatchObject({ status: "connected", tables: [{ tableName: "sales" }, { tableName: "secrets" }] });
  });

  it("a wrong password is a failed status with the server's reason", async () => {
    const owner = await seedOwner();
    const created = await createDatabase(owner, {
      databaseType: "postgresql",
      databaseUrl: postgresUrl().replace(/:[^:@/]+@/, ":wrong@"),
    });
    expect(await settled(owner, created.id)).toMatchObject({
      status: "failed",
      errorMessage: expect.stringMatching(/password|auth/i),
    });
  });
});
