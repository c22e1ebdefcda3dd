// `npm run bench -- scale`: the platform as its data grows (docs/scale.md). Synthetic organizations
// and their conversations are written in steps until BENCH_MESSAGES messages (default 2,000,000), one
// organization hot (BENCH_HOT_SHARE of the conversations, default 0.5); at the first step
// (BENCH_START_MESSAGES, default 100,000) and at the end the running server is measured:
// - the largest single store (every SQLite file of the local state: the D1 databases and each Durable
//   Object), its bytes per message between the two points and that projected to 1 billion messages
//   against D1's and a Durable Object's 10 GB;
// - write throughput through the API while the hot organization makes most of the traffic
//   (BENCH_WRITERS concurrent completions on the local model for BENCH_WRITE_SECONDS, 80% to it);
// - p50/p95 over BENCH_ROUNDS requests of the hot organization's message list, conversation list
//   and assistant statistics, which must not grow with the total.
//
// The seed writes the stores where the data lives today (the `DB` file, with the server stopped: each
// message's figures written beside it as the pipeline writes them, statistics/message-figures.ts, and
// each conversation's search terms as the every-minute fold does): when the design
// of docs/scale.md moves messages, `seed()` is the one function that follows them.
import { DatabaseSync } from "node:sqlite";
import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { median, percentile, prng, startServer } from "./lib.mjs";
import { d1File } from "../test/support/local-d1.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8871);
const ORGS = Number(process.env.BENCH_ORGS ?? 20);
const HOT_SHARE = Number(process.env.BENCH_HOT_SHARE ?? 0.5);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2_000_000);
const START = Number(process.env.BENCH_START_MESSAGES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 20);
const REPLY_CHARS = Number(process.env.BENCH_REPLY_CHARS ?? 300);
const TURNS = 5;
const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";
const LIMIT = 10 * 1024 ** 3;
const DAY = 86_400_000;

const rand = prng(7);
const REPLY = "Your order ships tomorrow from our warehouse; tracking follows by e-mail. "
  .repeat(Math.ceil(REPLY_CHARS / 74))
  .slice(0, REPLY_CHARS);

/** Every SQLite file of a `wrangler dev` state (D1 databases, Durable Objects) with its WAL, by size. */
function stores(state) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".sqlite")) {
        let bytes = statSync(full).size;
        try {
          bytes += statSync(`${full}-wal`).size;
        } catch {
          // no WAL beside it
        }
        files.push({ file: full, bytes });
      }
    }
  };
  walk(state);
  return files.sort((a, b) => b.bytes - a.bytes);
}

/** The seed's text's search terms: its words of two characters or more, lower-cased, without its stopwords. */
const STOPWORDS = new Set(["by", "from", "is", "it", "my", "on", "our", "was", "where", "your"]);
const termsOf = (text) =>
  text
    .toLowerCase()
    .match(/[a-z0-9]{2,}/g)
    .filter((w) => !STOPWORDS.has(w));

/** Writes conversations of five turns until `until` messages, `hot` getting HOT_SHARE of them. */
function seed(file, orgs, written, until) {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
  const conversation = db.prepare(
    "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, title, last_message, last_message_at, " +
      "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const message = db.prepare(
    "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, sender_id, content, " +
      "words_count, model_id, input_tokens, output_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const record = db.prepare(
    "INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, reply_message_id, " +
      "input_message, output_message, reply_ms, created_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  // A message's hour row (the pipeline's upsert, without the counters this seed leaves at 0).
  const hourly = db.prepare(
    "INSERT INTO usage_hourly (organization_id, chatbot_id, hour, member_id, model_id, incoming_messages, " +
      "outgoing_messages, replies, reply_ms, requests, input_tokens, output_tokens, words) " +
      "VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?) " +
      "ON CONFLICT (chatbot_id, hour, member_id, model_id) DO UPDATE SET " +
      "incoming_messages = incoming_messages + excluded.incoming_messages, " +
      "outgoing_messages = outgoing_messages + excluded.outgoing_messages, replies = replies + excluded.replies, " +
      "reply_ms = reply_ms + excluded.reply_ms, requests = requests + excluded.requests, " +
      "input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens, " +
      "words = words + excluded.words",
  );
  // A conversation's distinct search terms, once (services/conversation/search-terms.ts), ids as their 16 bytes.
  const term = db.prepare(
    "INSERT OR IGNORE INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
      "VALUES (unhex(replace(?, '-', '')), ?, unhex(replace(?, '-', '')), ?)",
  );
  const hourOf = (at) => at - (at % 3_600_000);
  const now = Date.now();
  const started = performance.now();
  let n = written;
  let conversations = 0;
  db.exec("BEGIN");
  while (n < until) {
    const org = rand() < HOT_SHARE ? orgs[0] : orgs[1 + Math.floor(rand() * (orgs.length - 1))];
    const id = randomUUID();
    // Spread over the last 30 days, so the statistics' default range reads them.
    const at = now - Math.floor(rand() * 30 * DAY);
    const last = at + (TURNS - 1) * 60_000 + 800;
    conversation.run(id, org.id, org.inbox, org.chatbot, `Order ${n}`, REPLY, last, at, last);
    const words = new Set(termsOf(REPLY));
    for (let t = 0; t < TURNS; t++) {
      const asked = at + t * 60_000;
      const question = `Where is my order number ${n}-${t}? It was due on Monday.`;
      for (const word of termsOf(question)) words.add(word);
      const questionId = randomUUID();
      message.run(questionId, org.id, id, 2 * t + 1, "incoming", "contact", null, question, 0, null, null, null, asked);
      const reply = randomUUID();
      message.run(
        reply,
        org.id,
        id,
        2 * t + 2,
        "outgoing",
        "chatbot",
        org.chatbot,
        REPLY,
        50,
        LOCAL_LLM,
        400,
        90,
        asked + 800,
      );
      hourly.run(org.id, org.chatbot, hourOf(asked), "", 1, 0, 0, 0, 0, 0, 0, 0);
      hourly.run(org.id, org.chatbot, hourOf(asked + 800), LOCAL_LLM, 0, 1, 1, 800, 1, 400, 90, 50);
      record.run(questionId, org.id, org.chatbot, id, reply, question, REPLY, 800, asked, asked + 800);
      n += 2;
    }
    for (const word of words) term.run(org.id, word, id, last);
    if (++conversations % 2000 === 0) {
      db.exec("COMMIT");
      db.exec("BEGIN");
    }
  }
  db.exec("COMMIT");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const [probe] = db
    .prepare("SELECT id FROM conversations WHERE organization_id = ? ORDER BY created_at DESC LIMIT 1")
    .all(orgs[0].id);
  db.close();
  return { written: n, seconds: (performance.now() - started) / 1000, probe: probe.id };
}

async function timed(server, org, url) {
  const times = [];
  for (let i = 0; i < ROUNDS + 3; i++) {
    const t0 = performance.now();
    const res = await fetch(`${server.base}/api/v1${url}`, {
      headers: { ...server.headers, "X-Organization-Id": org.id },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    if (i >= 3) times.push(performance.now() - t0); // the first requests warm the isolate's caches
  }
  return times;
}

/** Completions from WRITERS clients for WRITE_SECONDS, 80% to the hot organization: turns per second. */
async function writes(server, orgs) {
  const until = Date.now() + WRITE_SECONDS * 1000;
  let turns = 0;
  let hot = 0;
  const client = async (w) => {
    for (let i = 0; Date.now() < until; i++) {
      const org = rand() < 0.8 ? orgs[0] : orgs[1 + ((w + i) % (orgs.length - 1))];
      const res = await fetch(`${server.base}/api/v1/chatbots/${org.chatbot}/completions/`, {
        method: "POST",
        headers: { ...server.headers, "Content-Type": "application/json", "X-Organization-Id": org.id },
        body: JSON.stringify({ message: { content: `Where is my parcel number ${w}-${i}?` } }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`completion: ${res.status}`);
      turns++;
      if (org === orgs[0]) hot++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => client(w)));
  const seconds = (performance.now() - t0) / 1000;
  return { perSecond: turns / seconds, hotShare: hot / Math.max(1, turns) };
}

async function measure(server, orgs, probe) {
  const [hot] = orgs;
  const reads = {
    "message list (one conversation)": await timed(server, hot, `/messages/?conversation=${probe}`),
    "conversation list (first page)": await timed(server, hot, "/conversations/"),
    "assistant statistics (30 days)": await timed(server, hot, `/chatbots/${hot.chatbot}/statistics/`),
  };
  return { reads, writes: await writes(server, orgs) };
}

/** A store's name: the D1 binding, or the Durable Object class it belongs to. */
const storeName = (file, db) =>
  file === db ? "D1 DB" : (/-([A-Za-z]+)\/[^/]+\.sqlite$/.exec(file)?.[1] ?? path.basename(file)) + " object";
const gb = (b) => `${(b / 1024 ** 3).toFixed(2)} GB`;
const ms = (xs) => `${median(xs).toFixed(1)} / ${percentile(xs, 95).toFixed(1)}`;

export default async function () {
  let server = await startServer({ port: PORT });
  const { key, state } = server;
  const orgs = [];
  for (let i = 0; i < ORGS; i++) {
    const org = await server.api("/organizations/", { body: { name: i ? `Organization ${i}` : "Hot organization" } });
    const res = await fetch(`${server.base}/api/v1/chatbots/`, {
      method: "POST",
      headers: { ...server.headers, "Content-Type": "application/json", "X-Organization-Id": org.id },
      body: JSON.stringify({ name: "Support", largeLanguageModel: LOCAL_LLM }),
    });
    const bot = await res.json();
    if (!res.ok) throw new Error(`assistant: ${res.status} ${JSON.stringify(bot)}`);
    orgs.push({ id: org.id, chatbot: bot.id, inbox: bot.defaultInbox.id });
  }
  await server.stop({ keep: true });
  const file = d1File(state);
  const points = [];
  let written = 0;
  try {
    for (const until of [START, MESSAGES]) {
      const seeded = seed(file, orgs, written, until);
      console.log(
        `seeded to ${seeded.written.toLocaleString("en")} messages in ${seeded.seconds.toFixed(0)} s ` +
          `(${Math.round((seeded.written - written) / seeded.seconds).toLocaleString("en")} messages/s into SQLite)`,
      );
      written = seeded.written;
      const before = stores(state);
      server = await startServer({ port: PORT, state, key });
      const m = await measure(server, orgs, seeded.probe);
      await server.stop({ keep: true });
      points.push({ messages: written, stores: before, ...m });
    }
  } finally {
    await server.stop();
  }

  const [start, end] = points;
  const largest = (p) => p.stores[0];
  const perMessage = (largest(end).bytes - largest(start).bytes) / (end.messages - start.messages);
  console.log(
    `\nScale: ${ORGS} organizations, the hot one ${Math.round(HOT_SHARE * 100)}% of the conversations; ` +
      `replies of ${REPLY_CHARS} characters`,
  );
  for (const p of points) {
    const share = `${((100 * largest(p).bytes) / LIMIT).toFixed(1)}% of 10 GB`;
    console.log(
      `  at ${p.messages.toLocaleString("en")} messages: ${p.stores.length} stores, the largest ` +
        `${storeName(largest(p).file, file)} ${gb(largest(p).bytes)} (${share})`,
    );
  }
  const projected = perMessage * 1e9;
  console.log(
    `  largest store: ${perMessage.toFixed(0)} B per message; at 1 billion messages ${gb(projected)}, ` +
      `${(projected / LIMIT).toFixed(1)}x the 10 GB limit`,
  );
  console.log(`\n${"p50 / p95 ms (hot organization)".padEnd(36)} ${"start".padStart(14)} ${"end".padStart(14)}`);
  for (const name of Object.keys(start.reads))
    console.log(`${name.padEnd(36)} ${ms(start.reads[name]).padStart(14)} ${ms(end.reads[name]).padStart(14)}`);
  for (const [label, p] of [
    ["start", start],
    ["end", end],
  ])
    console.log(
      `writes at the ${label}: ${p.writes.perSecond.toFixed(1)} turns/s from ${WRITERS} clients, ` +
        `${Math.round(p.writes.hotShare * 100)}% to the hot organization`,
    );
}
