// `npm run bench -- sql`: the text-to-SQL tool (`query_database`) on `wrangler dev` with the local
// model, over 100k rows, on a managed database (a table created from a 100k-row CSV) and on
// PostgreSQL (a throwaway cluster from Debian's package, test/support/postgres-server.mjs).
// Figures: the tool's round trip inside agent replies (its execution record's durationMs: checks,
// connection, query, rows back) and the whole reply, p50/p95, against the bare query time of the
// same SQL in the same run: node:sqlite over the same rows (managed) and a plain `postgres` client
// from Node (PostgreSQL).
import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { percentile, startServer, LOCAL_LLM } from "./lib.mjs";
import { startPostgres } from "../test/support/postgres-server.mjs";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const SQL = "select region, count(*) as n, sum(amount) as total from sales group by region order by total desc";
const REGIONS = ["north", "south", "east", "west", "centre"];

const amount = (i) => (i * 7919) % 1000;

export default async function () {
  const pg = await startPostgres({
    seed: `create table sales (id integer primary key, region text not null, amount integer not null);
      insert into sales select i, (array['north','south','east','west','centre'])[1 + i % 5], (i * 7919) % 1000
        from generate_series(0, ${ROWS - 1}) as i;
      analyze sales;`,
  });
  if (!pg.url) throw new Error(pg.reason);
  const server = await startServer({ vars: { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${pg.port}` } });
  try {
    const { api } = server;
    const bot = await api("/chatbots/", { body: { name: "sql", largeLanguageModel: LOCAL_LLM, replyMode: "agent" } });
    const managed = await api("/sql-databases/", { body: { name: "managed", databaseType: "managed" } });
    const csv = [
      "id,region,amount",
      ...Array.from({ length: ROWS }, (_, i) => `${i},${REGIONS[i % 5]},${amount(i)}`),
    ].join("\n");
    const form = new FormData();
    form.append("tableName", "sales");
    form.append("file", new File([csv], "sales.csv", { type: "text/csv" }));
    const t0 = performance.now();
    const table = await api(`/sql-databases/${managed.id}/tables/`, { form });
    const loadMs = performance.now() - t0;
    const external = await api("/sql-databases/", {
      body: { name: "pg", databaseType: "postgresql", databaseUrl: pg.url },
    });
    for (let i = 0; i < 100; i++) {
      const row = await api(`/sql-databases/${external.id}/`, { method: "GET" });
      if (row.status !== "pending") break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const measure = async (databaseId) => {
      await api(`/sql-databases/${databaseId}/`, { method: "PATCH", body: { chatbots: [{ id: bot.id }] } });
      const tool = [];
      const reply = [];
      for (let i = 0; i < ROUNDS + 5; i++) {
        const started = performance.now();
        const res = await api(`/chatbots/${bot.id}/completions/`, {
          body: { message: { content: `Query the database, sql: "${SQL}"` } },
        });
        const call = res.message.contentPayload.toolCalls[0];
        if (call.status !== "success") throw new Error(`query failed: ${call.error}`);
        if (i >= 5) {
          tool.push(call.durationMs);
          reply.push(performance.now() - started);
        }
      }
      await api(`/sql-databases/${databaseId}/`, { method: "PATCH", body: { chatbots: [] } });
      return { tool, reply };
    };
    const onManaged = await measure(managed.id);
    const onPostgres = await measure(external.id);

    const sqlite = new DatabaseSync(":memory:");
    sqlite.exec("create table sales (id integer, region text, amount integer)");
    const insert = sqlite.prepare("insert into sales values (?, ?, ?)");
    sqlite.exec("begin");
    for (let i = 0; i < ROWS; i++) insert.run(i, REGIONS[i % 5], amount(i));
    sqlite.exec("commit");
    const bareSqlite = [];
    for (let i = 0; i < ROUNDS; i++) {
      const s = performance.now();
      sqlite.prepare(SQL).all();
      bareSqlite.push(performance.now() - s);
    }
    const client = postgres(pg.url, { max: 1, onnotice: () => {} });
    await client.unsafe(SQL);
    const barePg = [];
    for (let i = 0; i < ROUNDS; i++) {
      const s = performance.now();
      await client.unsafe(SQL);
      barePg.push(performance.now() - s);
    }
    await client.end();

    const f = (xs) => `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`;
    console.log(
      `${ROWS} rows; managed table loaded from a ${(csv.length / 1e6).toFixed(1)} MB CSV in ` +
        `${(loadMs / 1000).toFixed(2)} s (${table.rowCount} rows)`,
    );
    console.log(
      `managed (SQLite Durable Object): query_database round trip ${f(onManaged.tool)}; whole agent reply ` +
        `${f(onManaged.reply)}; bare query (node:sqlite, same rows) ${f(bareSqlite)}`,
    );
    console.log(
      `postgresql (Workers socket, new connection per call, read-only transaction): query_database round trip ` +
        `${f(onPostgres.tool)}; whole agent reply ${f(onPostgres.reply)}; bare query (node postgres client, ` +
        `open connection) ${f(barePg)}`,
    );
  } finally {
    await server.stop();
    await pg.stop();
  }
}
