// `npm run bench -- statistics`: statistics, usage statistics and records at scale.
//
// 1. A local `wrangler dev` (port BENCH_PORT, default 8841) creates 50 assistants through the API.
// 2. With the server stopped, 1,000,000 messages (BENCH_MESSAGES) are written straight into its D1
//    file (node:sqlite) across the 50 assistants, 1,000 contacts and 20 members over the last year:
//    100,000 conversations of 5 turns; their counters and records are then written by migration
//    0009's backfill statements (the pipeline writes the same rows with each message:
//    src/services/statistics/message-figures.ts).
// 3. The server restarts on that state; p50/p95 of each read endpoint over BENCH_ROUNDS requests.
// What the counters cost a completion is inside every completion `npm run bench -- completions` measures.
import { readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { randomUUID } from "node:crypto";
import { envNumbers, median, percentile, prng, seedMembers, startServer, LOCAL_LLM } from "./lib.mjs";
import { d1File } from "../test/support/local-d1.mjs";

const { PORT, MESSAGES, ROUNDS } = envNumbers({ PORT: 8841, MESSAGES: 1_000_000, ROUNDS: 60 });
const CHATBOTS = 50;
const CONTACTS = 1000;
const MEMBERS = 20;
const TURNS = 5;
const DAY = 86_400_000;
/** Migration 0009's backfill of messages' counters, contacts and records (its first backfill statement,
 * the conversations', is left out: a trigger on `conversations` counts them as they are seeded). */
const BACKFILL = (() => {
  const parts = readFileSync(new URL("../migrations/0009_statistics.sql", import.meta.url), "utf8").split(
    "--> statement-breakpoint",
  );
  const at = parts.findIndex((p) => p.includes("-- Backfill:"));
  return parts.slice(at + 1, at + 4);
})();

const rand = prng(42);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const uuid = () => randomUUID();

function seed(file, { organizationId, ownerId, chatbots }) {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
  const now = Date.now();
  const start = now - 365 * DAY;
  const contacts = Array.from({ length: CONTACTS }, uuid);
  db.exec("BEGIN");
  const contact = db.prepare(
    "INSERT INTO contacts (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  );
  contacts.forEach((id, i) => {
    contact.run(id, organizationId, `Contact ${i}`, start, start);
  });
  const members = seedMembers(db, { organizationId, ownerId, count: MEMBERS, at: start });
  db.exec("COMMIT");
  const conversation = db.prepare(
    "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, contact_id, created_by_id, title, " +
      "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const message = db.prepare(
    `INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, sender_id, content,
       content_payload, citation_nodes, feedback, words_count, model_id, input_tokens, output_tokens, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const nodes = JSON.stringify([{ node: { text: "Refunds are possible within 30 days of purchase." }, score: 0.8 }]);
  const conversations = Math.ceil(MESSAGES / (2 * TURNS));
  const started = performance.now();
  let written = 0;
  db.exec("BEGIN");
  for (let c = 0; c < conversations && written < MESSAGES; c++) {
    const bot = pick(chatbots);
    const id = uuid();
    const at = start + Math.floor(rand() * 365 * DAY);
    const createdBy = rand() < 0.3 ? pick(members) : null;
    conversation.run(id, organizationId, bot.inbox, bot.id, pick(contacts), createdBy, "Order question", at, at);
    for (let t = 0; t < TURNS && written < MESSAGES; t++) {
      const asked = at + t * 60_000;
      message.run(
        uuid(),
        organizationId,
        id,
        2 * t + 1,
        "incoming",
        "contact",
        null,
        `Where is my order number ${c}-${t}?`,
        null,
        null,
        null,
        0,
        null,
        null,
        null,
        asked,
      );
      const words = 5 + Math.floor(rand() * 40);
      const feedback = rand() < 0.05 ? "like" : rand() < 0.02 ? "dislike" : null;
      const payload = rand() < 0.1 ? JSON.stringify({ toolCalls: [{ id: "c1", name: "lookup" }] }) : null;
      message.run(
        uuid(),
        organizationId,
        id,
        2 * t + 2,
        "outgoing",
        "chatbot",
        bot.id,
        `Your order ${c}-${t} ships tomorrow.`,
        payload,
        nodes,
        feedback,
        words,
        LOCAL_LLM,
        200 + words * 3,
        words * 2,
        asked + 500 + Math.floor(rand() * 3000),
      );
      written += 2;
    }
    if (c % 5000 === 4999) {
      db.exec("COMMIT");
      db.exec("BEGIN");
    }
  }
  db.exec("COMMIT");
  for (const statement of BACKFILL) db.exec(statement);
  const seconds = (performance.now() - started) / 1000;
  const counts = db
    .prepare(
      "SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM usage_hourly) AS hourly, " +
        "(SELECT count(*) FROM usage_hourly_contacts) AS contacts, (SELECT count(*) FROM chatbot_records) AS " +
        "records",
    )
    .get();
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  return { seconds, counts };
}

async function timed(server, url, rounds) {
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const u = typeof url === "function" ? url(i) : url;
    const t0 = performance.now();
    const res = await fetch(`${server.base}/api/v1${u}`, { headers: server.headers });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`GET ${u}: ${res.status}`);
  }
  return times;
}

const fmt = (xs) => `p50 ${median(xs).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`;

export default async function () {
  let server = await startServer({ port: PORT });
  const { key } = server;
  const [org] = (await server.api("/organizations/", { method: "GET" })).results;
  const owner = await server.api("/users/current/", { method: "GET" });
  const chatbots = [];
  for (let i = 0; i < CHATBOTS; i++) {
    const bot = await server.api("/chatbots/", { body: { name: `Assistant ${i}`, largeLanguageModel: LOCAL_LLM } });
    chatbots.push({ id: bot.id, inbox: bot.defaultInbox.id });
  }
  await server.stop({ keep: true });
  const file = d1File(server.state);
  // The seed ends with migration 0009's backfill, which joins `chatbots` (the control plane): so the organization's
  // data plane is put back in `DB`, as an organization from before the shards has it (src/db/planes.ts).
  const directory = new DatabaseSync(file);
  directory.prepare("UPDATE organization_shards SET data_plane = 'db' WHERE organization_id = ?").run(org.id);
  directory.close();
  const world = { organizationId: org.id, ownerId: owner.id, chatbots };
  const seeded = seed(file, world);
  console.log(
    `seeded ${seeded.counts.messages.toLocaleString("en")} messages (${CHATBOTS} assistants, ${CONTACTS} ` +
      `contacts, ${MEMBERS} members, one year) in ${seeded.seconds.toFixed(1)} s, counters included`,
  );
  console.log(
    `  rollups: ${seeded.counts.hourly.toLocaleString("en")} hour rows, ` +
      `${seeded.counts.contacts.toLocaleString("en")} contact-hour rows, ` +
      `${seeded.counts.records.toLocaleString("en")} records`,
  );

  server = await startServer({ port: PORT, state: server.state, key });
  try {
    const today = new Date().toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 29 * DAY).toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() - 364 * DAY).toISOString().slice(0, 10);
    const bot = (i) => chatbots[i % CHATBOTS].id;
    const o = `/organizations/${org.id}/usage-statistics`;
    const cases = [
      ["statistics (30 days by day, the default)", (i) => `/chatbots/${bot(i)}/statistics/`],
      [
        "statistics (a year by month)",
        (i) => `/chatbots/${bot(i)}/statistics/?datetimeFrom=${yearAgo}&datetimeTo=${today}&timeGranularity=month`,
      ],
      [
        "statistics (a year by day, Asia/Taipei)",
        (i) => `/chatbots/${bot(i)}/statistics/?datetimeFrom=${yearAgo}&datetimeTo=${today}&timezone=Asia/Taipei`,
      ],
      [
        "llm-usage-statistics (30 days by day)",
        (i) => `/chatbots/${bot(i)}/llm-usage-statistics/?startDate=${monthAgo}&endDate=${today}&timeGranularity=day`,
      ],
      [
        "llm-usage-statistics (a year by month)",
        (i) => `/chatbots/${bot(i)}/llm-usage-statistics/?startDate=${yearAgo}&endDate=${today}&timeGranularity=month`,
      ],
      ["usage-statistics/members (this month)", () => `${o}/members/`],
      ["usage-statistics/members (a year)", () => `${o}/members/?startDate=${yearAgo}&endDate=${today}`],
      [
        "usage-statistics/members includeTime (a year by month)",
        () => `${o}/members/?startDate=${yearAgo}&endDate=${today}&includeTime=true&timeGranularity=month`,
      ],
      ["usage-statistics/chatbots (this month)", () => `${o}/chatbots/`],
      ["usage-statistics/chatbots (a year)", () => `${o}/chatbots/?startDate=${yearAgo}&endDate=${today}`],
      ["usage-statistics/members/summary (this month)", () => `${o}/members/summary/`],
      [
        "usage-statistics/chatbots/summary (a year by month)",
        () => `${o}/chatbots/summary/?startDate=${yearAgo}&endDate=${today}&timeGranularity=month`,
      ],
      ["records, first page (30 days)", (i) => `/chatbots/${bot(i)}/records/?startDate=${monthAgo}&endDate=${today}`],
      [
        "records, first page (a year, userMessage filter)",
        (i) => `/chatbots/${bot(i)}/records/?startDate=${yearAgo}&endDate=${today}&userMessage=order%20number%201`,
      ],
    ];
    // The first usage request rolls the year up into daily rows in the background (as the cron would).
    const t0 = performance.now();
    await timed(server, `/organizations/${org.id}/usage-statistics/members/`, 1);
    await new Promise((r) => setTimeout(r, 15_000));
    console.log(
      `\nfirst usage request (starts the daily rollup of the year): ` +
        `${(performance.now() - t0 - 15_000).toFixed(0)} ms; waited 15 s for the rollup`,
    );
    console.log(`\nreads (${ROUNDS} requests each, sequential, after 3 warm-up requests; target p50 <= 50 ms)`);
    for (const [name, url] of cases) {
      await timed(server, url, 3);
      const times = await timed(server, url, ROUNDS);
      console.log(`  ${name.padEnd(58)} ${fmt(times)}`);
    }
  } finally {
    // BENCH_KEEP=1 keeps the seeded state for further runs (its path and key are printed).
    if (process.env.BENCH_KEEP) console.log(`\nkept state ${server.state} key ${key} organization ${org.id}`);
    await server.stop({ keep: !!process.env.BENCH_KEEP });
  }
}
