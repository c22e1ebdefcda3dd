// `npm run bench -- statistics`: statistics, usage statistics and records at scale, and what the
// counters cost a completion.
//
// 1. A local `wrangler dev` (port BENCH_PORT, default 8841) creates 50 assistants through the API.
// 2. With the server stopped, 1,000,000 messages (BENCH_MESSAGES) are written straight into its D1
//    file (node:sqlite) across the 50 assistants, 1,000 contacts and 20 members over the last year:
//    100,000 conversations of 5 turns. The counters' triggers run for every row, as in production.
// 3. The server restarts on that state; p50/p95 of each read endpoint over BENCH_ROUNDS requests.
// 4. Write cost, two ways, in the same run:
//    a. SQLite itself, on the seeded database: one completion's writes (a conversation and its two
//       messages) with the counter triggers and without them, in alternating blocks;
//    b. end to end: new-conversation completions (local model) in blocks alternating, in one running
//       server, with the triggers and without them (dropped and re-created in its database file;
//       each block checks that its messages were counted, or not).
import { DatabaseSync } from "node:sqlite";
import { randomUUID } from "node:crypto";
import { median, percentile, prng, seedMembers, startServer } from "./lib.mjs";
import { d1File } from "../test/support/local-d1.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8841);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const COMPLETIONS = Number(process.env.BENCH_COMPLETIONS ?? 240);
const BLOCKS = 12;
const CHATBOTS = 50;
const CONTACTS = 1000;
const MEMBERS = 20;
const TURNS = 5;
const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";
const DAY = 86_400_000;
const TRIGGERS = ["usage_on_message", "usage_on_conversation"];

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

/** One completion's writes (a conversation, the question and the reply) through SQLite, with and without the triggers,
 * in alternating blocks. */
function sqliteWriteCost(file, { organizationId, chatbots }) {
  const db = new DatabaseSync(file);
  const saved = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${TRIGGERS.map(() => "?").join(", ")})`,
    )
    .all(...TRIGGERS);
  const conversation = db.prepare(
    "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, created_at, updated_at) VALUES (?, " +
      "?, ?, ?, ?, ?)",
  );
  const message = db.prepare(
    "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, sender_id, " +
      "content, words_count, model_id, input_tokens, output_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, " +
      "?, ?, ?, ?, ?)",
  );
  const completion = () => {
    const bot = pick(chatbots);
    const id = uuid();
    const now = Date.now();
    db.exec("BEGIN");
    conversation.run(id, organizationId, bot.inbox, bot.id, now, now);
    message.run(
      uuid(),
      organizationId,
      id,
      1,
      "incoming",
      "contact",
      null,
      "Where is my parcel?",
      0,
      null,
      null,
      null,
      now,
    );
    message.run(
      uuid(),
      organizationId,
      id,
      2,
      "outgoing",
      "chatbot",
      bot.id,
      'You said: "Where is my parcel?".',
      6,
      LOCAL_LLM,
      40,
      6,
      now + 3,
    );
    db.exec("COMMIT");
  };
  const timings = { with: [], without: [] };
  for (let block = 0; block < 20; block++) {
    for (const variant of block % 2 ? ["without", "with"] : ["with", "without"]) {
      if (variant === "without") for (const t of saved) db.exec(`DROP TRIGGER ${t.name}`);
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        completion();
        timings[variant].push(performance.now() - t0);
      }
      if (variant === "without") for (const t of saved) db.exec(t.sql);
    }
  }
  db.close();
  return timings;
}

function dropTriggers(file) {
  const db = new DatabaseSync(file);
  const saved = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${TRIGGERS.map(() => "?").join(", ")})`,
    )
    .all(...TRIGGERS);
  for (const t of saved) db.exec(`DROP TRIGGER ${t.name}`);
  db.close();
  return () => {
    const again = new DatabaseSync(file);
    for (const t of saved) again.exec(t.sql);
    again.close();
  };
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

async function completions(server, chatbots, n, warm = 10) {
  const times = [];
  for (let i = 0; i < n + warm; i++) {
    const bot = chatbots[i % chatbots.length];
    const t0 = performance.now();
    const res = await fetch(`${server.base}/api/v1/chatbots/${bot.id}/completions/`, {
      method: "POST",
      headers: { ...server.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ message: { content: `Where is my parcel number ${i}?` } }),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`completion: ${res.status}`);
    if (i >= warm) times.push(performance.now() - t0);
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
  const world = { organizationId: org.id, ownerId: owner.id, chatbots };
  const seeded = seed(file, world);
  console.log(
    `seeded ${seeded.counts.messages.toLocaleString("en")} messages (${CHATBOTS} assistants, ${CONTACTS} ` +
      `contacts, ${MEMBERS} members, one year) in ${seeded.seconds.toFixed(1)} s, triggers included`,
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
    // End to end, one server: blocks of completions alternate with and without the triggers, dropped
    // and re-created in the live database file between blocks (SQLite re-reads the changed schema).
    const live = new DatabaseSync(file);
    const saved = live
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ` +
          `(${TRIGGERS.map(() => "?").join(", ")})`,
      )
      .all(...TRIGGERS);
    const counted = () => live.prepare("SELECT coalesce(sum(incoming_messages), 0) AS n FROM usage_hourly").get().n;
    const runs = { with: [], without: [] };
    const pairs = [];
    await completions(server, chatbots, 20);
    for (let block = 0; block < 2 * BLOCKS; block++) {
      const variant = (block >> 1) % 2 === block % 2 ? "with" : "without"; // with/without, then without/with, ...
      if (variant === "without") for (const t of saved) live.exec(`DROP TRIGGER ${t.name}`);
      const before = counted();
      const times = await completions(server, chatbots, COMPLETIONS / BLOCKS, 2);
      await new Promise((r) => setTimeout(r, 200));
      const after = counted();
      if (variant === "without") for (const t of saved) live.exec(t.sql);
      if (after > before !== (variant === "with"))
        throw new Error(`block ${block} (${variant}) counted ${after - before} messages`);
      runs[variant].push(...times);
      pairs.push(median(times));
    }
    live.close();
    await server.stop({ keep: true });
    const sqlite = sqliteWriteCost(file, world);
    server = await startServer({ port: PORT, state: server.state, key });
    console.log(`\nwrite cost of the counters (target <= 1 ms p50 per completion)`);
    const a = median(sqlite.with);
    const b = median(sqlite.without);
    console.log(`  SQLite, one completion's writes on the seeded database (1,000 each, alternating blocks):`);
    console.log(
      `    with counters ${a.toFixed(3)} ms, without ${b.toFixed(3)} ms: +${((a - b) * 1000).toFixed(0)} µs ` +
        `p50 (ratio ${(a / b).toFixed(2)})`,
    );
    console.log(
      `  end to end, new-conversation completions (local model), ${BLOCKS} blocks of ${COMPLETIONS / BLOCKS} ` +
        `per variant, alternating in one server:`,
    );
    for (const variant of ["with", "without"]) console.log(`    ${variant.padEnd(7)} ${fmt(runs[variant])}`);
    const diffs = [];
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const first = (i >> 1) % 2 === 0 ? "with" : "without";
      diffs.push(first === "with" ? pairs[i] - pairs[i + 1] : pairs[i + 1] - pairs[i]);
    }
    console.log(
      `    added p50: pooled ${(median(runs.with) - median(runs.without)).toFixed(2)} ms (ratio ` +
        `${(median(runs.with) / median(runs.without)).toFixed(3)}); median of ${diffs.length} adjacent block ` +
        `pairs ${median(diffs).toFixed(2)} ms`,
    );
  } finally {
    // BENCH_KEEP=1 keeps the seeded state for further runs (its path and key are printed).
    if (process.env.BENCH_KEEP) console.log(`\nkept state ${server.state} key ${key} organization ${org.id}`);
    await server.stop({ keep: !!process.env.BENCH_KEEP });
  }
}
