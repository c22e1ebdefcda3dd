// `npm run bench -- scale`: the platform as its data grows (docs/scale.md). Synthetic organizations
// and their conversations are written in steps until BENCH_MESSAGES messages (default 2,000,000), one
// organization hot (BENCH_HOT_SHARE of the conversations, default 0.5); at the first step
// (BENCH_START_MESSAGES, default 100,000) and at the end the running server is measured:
// - the largest single store (every SQLite file of the local state: the D1 databases and each Durable
//   Object), its bytes per message between the two points and that projected to 1 billion messages
//   against D1's and a Durable Object's 10 GB;
// - write throughput through the API while the hot organization makes most of the traffic
//   (BENCH_WRITERS concurrent completions on the local model for BENCH_WRITE_SECONDS, 80% to it);
// - p50/p95 over BENCH_ROUNDS requests of the hot organization's message list (a conversation of five turns
//   written through the API), conversation list and assistant statistics, which must not grow with the total.
//
// The seed writes each thing where the running service keeps it, with the server stopped: conversations (their
// index rows), their records and the hourly rollups in the organization's data plane, its shard (`CONVERSATIONS_n`,
// placed by the directory when the API created it; `DB` for an organization from before), each message's figures as
// the pipeline writes them (statistics/message-figures.ts), and each conversation's search terms in the same shard,
// as the every-minute fold leaves them. Records older than
// two days are then moved to their hourly R2 segments by the real housekeeping cron, run on the started server. Its
// messages are written nowhere: each conversation's are in its own object, a file of kilobytes apart from the shared
// stores. When the design of docs/scale.md moves something, `seed()` is the one function that follows it.
import { DatabaseSync } from "node:sqlite";
import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { envNumbers, median, percentile, prng, startServer, uuidv7At, LOCAL_LLM } from "./lib.mjs";
import { d1Files } from "../test/support/local-d1.mjs";

const { PORT, ORGS, HOT_SHARE, MESSAGES, START_MESSAGES, ROUNDS, WRITERS, WRITE_SECONDS, REPLY_CHARS } = envNumbers({
  PORT: 8871,
  ORGS: 20,
  HOT_SHARE: 0.5,
  MESSAGES: 2_000_000,
  START_MESSAGES: 100_000,
  ROUNDS: 40,
  WRITERS: 8,
  WRITE_SECONDS: 20,
  REPLY_CHARS: 300,
});
/**
 * BENCH_SPLIT=0 keeps the hot organization in one shard; by default it has a second part (in the other shard) from
 * the middle of the simulated month on (services/shards/parts.ts), as an operator adds one when a shard fills.
 */
const SPLIT = process.env.BENCH_SPLIT !== "0";
/** BENCH_KEEP=1 keeps the local state for a look at where the bytes went (sqlite3, dbstat). */
const KEEP = Boolean(process.env.BENCH_KEEP);
const TURNS = 5;
const LIMIT = 10 * 1024 ** 3;
const DAY = 86_400_000;
/** services/statistics/record-segments.ts: records younger than this stay in D1; the cron moves the others. */
const SETTLED_AFTER_MS = 2 * DAY;

const rand = prng(7);
const REPLY = "Your order ships tomorrow from our warehouse; tracking follows by e-mail. "
  .repeat(Math.ceil(REPLY_CHARS / 74))
  .slice(0, REPLY_CHARS);

/**
 * The bytes of a stopped server's SQLite file in use: its pages (the WAL's included) less the free ones. The cron's
 * move of 28 days of records at once leaves their pages free in `DB`; a running service moves an hour's at a time and
 * its next inserts take those pages again, so the file does not keep them.
 */
function usedBytes(file) {
  const db = new DatabaseSync(file);
  try {
    const pragma = (name) => Object.values(db.prepare(`PRAGMA ${name}`).get())[0];
    return (pragma("page_count") - pragma("freelist_count")) * pragma("page_size");
  } finally {
    db.close();
  }
}

/** Every file under `dir` and its bytes. */
function filesUnder(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      files.push({ file: full, bytes: statSync(full).size });
    }
  return files;
}

/** Every SQLite store of a stopped `wrangler dev` state (D1 databases, Durable Objects), by bytes in use; R2's
 * objects apart (its bucket's own SQLite file is their listing, not a store of the service's). */
function stores(state) {
  const files = filesUnder(path.join(state, "v3"))
    .filter(({ file }) => file.endsWith(".sqlite") && !file.includes(`${path.sep}r2${path.sep}`))
    .map(({ file }) => ({ file, bytes: usedBytes(file) }));
  let r2 = 0;
  try {
    r2 = filesUnder(path.join(state, "v3", "r2"))
      .filter(({ file }) => !/\.sqlite(-wal|-shm)?$/.test(file))
      .reduce((n, f) => n + f.bytes, 0);
  } catch {
    // no R2 object yet
  }
  return { files: files.sort((a, b) => b.bytes - a.bytes), r2 };
}

/** The seed's text's search terms: its words of two characters or more, lower-cased, without its stopwords. */
const STOPWORDS = new Set(["by", "from", "is", "it", "my", "on", "our", "was", "where", "your"]);
const termsOf = (text) =>
  text
    .toLowerCase()
    .match(/[a-z0-9]{2,}/g)
    .filter((w) => !STOPWORDS.has(w));

/** The shard of a conversation made at `at` (services/shards/parts.ts `partOf`): the latest part started by then. */
const partOf = (home, parts, at) => parts.filter((p) => p.from_ms <= at).at(-1)?.shard ?? home;

function openStore(file) {
  const db = new DatabaseSync(file);
  // A cache of 256 MB: the conversations, records and terms go in by random ids, all over their B-trees.
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;");
  return db;
}

/**
 * Writes conversations of five turns until `until` messages, the hot organization getting HOT_SHARE of them: the
 * conversations, records, rollups and terms in the part of each organization's data plane holding the conversation
 * (its shard, a later part's by the time in the conversation's id, or `DB` for one from before), (`files`: d1Files).
 * Each conversation starts within `era` (`from` and `to` in epoch ms), so each step writes its own hours: the cron
 * leaves in D1 a record whose time lies inside a segment of its assistant (settledRecords,
 * services/statistics/record-segments.ts), as an earlier step's segments would hold a later one's.
 */
function seed(files, orgs, written, until, era) {
  const db = openStore(files.get("DB"));
  // The directory the service wrote when each organization was created (services/shards): its shard, and whether its
  // data plane (conversations, records, rollups) is there too or still in `DB`.
  const placed = new Map(
    db
      .prepare("SELECT organization_id AS id, shard, data_plane AS plane FROM organization_shards")
      .all()
      .map((row) => [row.id, row]),
  );
  const partsOf = new Map();
  for (const part of db.prepare("SELECT * FROM organization_parts ORDER BY from_ms").all())
    partsOf.set(part.organization_id, [...(partsOf.get(part.organization_id) ?? []), part]);
  const dataStatements = (store) => ({
    conversation: store.prepare(
      "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, title, last_message, last_message_at, " +
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    record: store.prepare(
      "INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, reply_message_id, " +
        "input_message, output_message, reply_ms, created_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    // A message's hour row (the pipeline's upsert, without the counters this seed leaves at 0).
    hourly: store.prepare(
      "INSERT INTO usage_hourly (organization_id, chatbot_id, hour, member_id, model_id, incoming_messages, " +
        "outgoing_messages, replies, reply_ms, requests, input_tokens, output_tokens, words) " +
        "VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?) " +
        "ON CONFLICT (chatbot_id, hour, member_id, model_id) DO UPDATE SET " +
        "incoming_messages = incoming_messages + excluded.incoming_messages, " +
        "outgoing_messages = outgoing_messages + excluded.outgoing_messages, replies = replies + excluded.replies, " +
        "reply_ms = reply_ms + excluded.reply_ms, requests = requests + excluded.requests, " +
        "input_tokens = input_tokens + excluded.input_tokens, " +
        "output_tokens = output_tokens + excluded.output_tokens, " +
        "words = words + excluded.words",
    ),
  });
  const main = { store: db, ...dataStatements(db) };
  const shards = new Map();
  const shard = (name) => {
    if (!shards.has(name)) {
      const store = openStore(files.get(name));
      // A conversation's distinct search terms, once (services/conversation/search-terms.ts), ids as their 16 bytes.
      const term = store.prepare(
        "INSERT OR IGNORE INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
          "VALUES (unhex(replace(?, '-', '')), ?, unhex(replace(?, '-', '')), ?)",
      );
      shards.set(name, { store, term, ...dataStatements(store) });
    }
    return shards.get(name);
  };
  // Where a conversation of the organization made at `at` is written: its statements, and those of its terms.
  const targets = new Map();
  for (const org of orgs) {
    const row = placed.get(org.id);
    if (!row) throw new Error(`organization ${org.id} has no shard in the directory`);
    const parts = partsOf.get(org.id) ?? [];
    for (const part of parts) shard(part.shard);
    const home = shard(row.shard);
    targets.set(org.id, (at) => {
      if (row.plane !== "shard") return { data: main, term: home.term };
      const data = shard(partOf(row.shard, parts, at));
      return { data, term: data.term };
    });
  }
  const all = [db, ...[...shards.values()].map((s) => s.store)];
  // The seed writes hours the daily rollups have passed (the service only ever writes the current one): the next
  // housekeeping rolls up again from the first hour (services/statistics/rollup.ts).
  for (const store of all) store.exec("DELETE FROM usage_rollup WHERE id = 'daily'");
  const hourOf = (at) => at - (at % 3_600_000);
  const now = Date.now();
  const started = performance.now();
  let n = written;
  let conversations = 0;
  for (const store of all) store.exec("BEGIN");
  while (n < until) {
    const org = rand() < HOT_SHARE ? orgs[0] : orgs[1 + Math.floor(rand() * (orgs.length - 1))];
    // Within the step's era of the last 30 days, so the statistics' default range reads them.
    const hour = hourOf(era.from + Math.floor(rand() * (era.to - era.from)));
    const at = hour + Math.floor(rand() * (3_600_000 - TURNS * 60_000));
    const id = uuidv7At(at);
    const last = at + (TURNS - 1) * 60_000 + 800;
    const target = targets.get(org.id)(at);
    const { conversation, hourly, record } = target.data;
    conversation.run(id, org.id, org.inbox, org.chatbot, `Order ${n}`, REPLY, last, at, last);
    const words = new Set(termsOf(REPLY));
    for (let t = 0; t < TURNS; t++) {
      const asked = at + t * 60_000;
      const question = `Where is my order number ${n}-${t}? It was due on Monday.`;
      for (const word of termsOf(question)) words.add(word);
      hourly.run(org.id, org.chatbot, hourOf(asked), "", 1, 0, 0, 0, 0, 0, 0, 0);
      hourly.run(org.id, org.chatbot, hourOf(asked + 800), LOCAL_LLM, 0, 1, 1, 800, 1, 400, 90, 50);
      // The record names its question and reply, which live in the conversation's object.
      record.run(randomUUID(), org.id, org.chatbot, id, randomUUID(), question, REPLY, 800, asked, asked + 800);
      n += 2;
    }
    for (const word of words) target.term.run(org.id, word, id, last);
    if (++conversations % 2000 === 0)
      for (const store of all) {
        store.exec("COMMIT");
        store.exec("BEGIN");
      }
  }
  for (const store of all) {
    store.exec("COMMIT");
    store.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  // What the housekeeping cron will move: records of hours before the one two days ago began.
  const cutoff = hourOf(now - SETTLED_AFTER_MS);
  let settled = 0;
  for (const store of all)
    settled += store.prepare("SELECT count(*) AS n FROM chatbot_records WHERE created_at < ?").get(cutoff).n;
  for (const store of all) store.close();
  return { written: n, seconds: (performance.now() - started) / 1000, settled };
}

/**
 * Runs the housekeeping cron (GET /__scheduled answers once it is done) until it has moved the records settled at
 * the seed to R2 (`settled`, counted then; a run moves up to 5,000). The count is read from each D1 file (`files`)
 * while the server runs, read-only; when one cannot be read, the runs go on until enough have run for every record.
 */
async function housekeeping(server, files, settled) {
  const t0 = performance.now();
  const cron = async (schedule) => {
    const res = await fetch(`${server.base}/__scheduled?cron=${encodeURIComponent(schedule)}`);
    const text = await res.text();
    if (!res.ok) throw new Error(`cron ${schedule}: ${res.status} ${text}`);
  };
  const leftIn = (file) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const cutoff = Date.now() - SETTLED_AFTER_MS;
      return db
        .prepare("SELECT count(*) AS n FROM chatbot_records WHERE created_at < ?")
        .get(cutoff - (cutoff % 3_600_000)).n;
    } finally {
      db.close();
    }
  };
  const left = () => {
    try {
      return [...files.values()].reduce((n, file) => n + leftIn(file), 0);
    } catch {
      return null;
    }
  };
  let runs = 0;
  for (let before = Number.POSITIVE_INFINITY; runs < Math.ceil(settled / 4000) + 5; ) {
    await cron("*/15 * * * *");
    runs++;
    const now = left();
    // Nothing left, or a run that moved nothing (records that cannot move: a segment of theirs holds their time).
    if (now !== null && (now === 0 || now >= before)) break;
    before = now ?? before;
  }
  // The every-minute fold: the terms of the conversations written through the API go to their shard.
  await cron("* * * * *");
  return { runs, seconds: (performance.now() - t0) / 1000, left: left() };
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
      await complete(server, org, `Where is my parcel number ${w}-${i}?`);
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

/** A store's name: the D1 binding (`bindings`: file to binding), or the Durable Object class it belongs to. */
const storeName = (file, bindings) =>
  bindings.has(file)
    ? `D1 ${bindings.get(file)}`
    : `${/-([A-Za-z]+)\/[^/]+\.sqlite$/.exec(file)?.[1] ?? path.basename(file)} object`;
const gb = (b) => `${(b / 1024 ** 3).toFixed(2)} GB`;
const mb = (b) => `${(b / 1024 ** 2).toFixed(1)} MB`;
const ms = (xs) => `${median(xs).toFixed(1)} / ${percentile(xs, 95).toFixed(1)}`;

/** A completion in `conversation` (a new one without), through the API; its answer. */
async function complete(server, org, content, conversation) {
  const res = await fetch(`${server.base}/api/v1/chatbots/${org.chatbot}/completions/`, {
    method: "POST",
    headers: { ...server.headers, "Content-Type": "application/json", "X-Organization-Id": org.id },
    body: JSON.stringify({ message: { content }, ...(conversation ? { conversation } : {}) }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`completion: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

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
    // A search places the organization on its shard (the directory row the seed reads).
    const search = await fetch(`${server.base}/api/v1/conversations/?keyword=order`, {
      headers: { ...server.headers, "X-Organization-Id": org.id },
    });
    if (!search.ok) throw new Error(`search: ${search.status} ${await search.text()}`);
  }
  // The simulated month: its first half seeded at the first step, its second at the last. With SPLIT the hot
  // organization's second part starts between the two, written in the directory as addDataPart writes it (the API
  // offers no route to it: scripts/move-organization.mjs --add-part does it on a deployment).
  const month = Date.now();
  // On an hour: no hour holds conversations of both steps (see seed).
  const middle = month - 15 * DAY - ((month - 15 * DAY) % 3_600_000);
  const eras = [
    { from: month - 30 * DAY, to: middle },
    { from: middle, to: month - 3_600_000 },
  ];
  let split = null;
  if (SPLIT) {
    await server.stop({ keep: true });
    const directory = new DatabaseSync(d1Files(state).get("DB"));
    const { shard } = directory
      .prepare("SELECT shard FROM organization_shards WHERE organization_id = ?")
      .get(orgs[0].id);
    const other = [...d1Files(state).keys()].find((b) => b !== "DB" && b !== shard);
    directory
      .prepare("INSERT INTO organization_parts (organization_id, from_ms, shard) VALUES (?, ?, ?)")
      .run(orgs[0].id, eras[1].from, other);
    directory.close();
    split = { from: eras[1].from, home: shard, other };
    server = await startServer({ port: PORT, state, key });
  }
  // The measured message list: a conversation of five turns written through the API, its messages in its object.
  let probe = null;
  for (let t = 0; t < TURNS; t++)
    probe = (await complete(server, orgs[0], `Where is my order number probe-${t}?`, probe)).conversationId;
  await server.stop({ keep: true });
  const files = d1Files(state);
  const bindings = new Map([...files].map(([binding, file]) => [file, binding]));
  const points = [];
  let written = 0;
  try {
    const steps = [START_MESSAGES, MESSAGES];
    for (const [i, until] of steps.entries()) {
      const seeded = seed(files, orgs, written, until, eras[i]);
      console.log(
        `seeded to ${seeded.written.toLocaleString("en")} messages in ${seeded.seconds.toFixed(0)} s ` +
          `(${Math.round((seeded.written - written) / seeded.seconds).toLocaleString("en")} messages/s into SQLite)`,
      );
      written = seeded.written;
      server = await startServer({ port: PORT, state, key });
      const moved = await housekeeping(server, files, seeded.settled);
      console.log(
        `  housekeeping: ${seeded.settled.toLocaleString("en")} records older than two days to R2 in ` +
          `${moved.runs} runs, ${moved.seconds.toFixed(0)} s (${moved.left ?? "?"} left in D1)`,
      );
      // The stores as the cron left them, before the writes measured add to them.
      await server.stop({ keep: true });
      const measured = stores(state);
      server = await startServer({ port: PORT, state, key });
      const m = await measure(server, orgs, probe);
      await server.stop({ keep: true });
      points.push({ messages: written, ...measured, ...m });
    }
  } finally {
    await server.stop({ keep: KEEP });
    if (KEEP) console.log(`state kept in ${state}`);
  }

  const [start, end] = points;
  const largest = (p) => p.files[0];
  const bytesOf = (p, file) => p.files.find((f) => f.file === file)?.bytes ?? 0;
  const perMessage = (file) => (bytesOf(end, file) - bytesOf(start, file)) / (end.messages - start.messages);
  console.log(
    `\nScale: ${ORGS} organizations, the hot one ${Math.round(HOT_SHARE * 100)}% of the conversations; ` +
      `replies of ${REPLY_CHARS} characters`,
  );
  if (split)
    console.log(
      `  the hot organization in two parts: ${split.home} until ${new Date(split.from).toISOString().slice(0, 10)}, ` +
        `${split.other} from then on (BENCH_SPLIT=0: one)`,
    );
  console.log(
    "  messages: none seeded in D1; each conversation's are in its own object, a file of kilobytes apart from the " +
      "shared stores (the seed writes none: the probe's and the writes' conversations have theirs)",
  );
  for (const p of points) {
    const share = `${((100 * largest(p).bytes) / LIMIT).toFixed(1)}% of 10 GB`;
    console.log(
      `  at ${p.messages.toLocaleString("en")} messages: ${p.files.length} stores, the largest ` +
        `${storeName(largest(p).file, bindings)} ${gb(largest(p).bytes)} (${share}); ` +
        [...files]
          .filter(([, file]) => file !== largest(p).file)
          .map(([binding, file]) => `D1 ${binding} ${mb(bytesOf(p, file))}`)
          .join(", ") +
        `; R2 ${mb(p.r2)}`,
    );
  }
  const top = largest(end).file;
  const projected = perMessage(top) * 1e9;
  console.log(
    `  largest store (${storeName(top, bindings)}): ${perMessage(top).toFixed(0)} B per message; at 1 billion ` +
      `messages ${gb(projected)}, ${(projected / LIMIT).toFixed(1)}x the 10 GB limit`,
  );
  if (split) {
    // A part closes when the next one starts: what it takes per message until it is full is the era an operator
    // gets before adding the next (scripts/move-organization.mjs --add-part), however many messages come after.
    const era = LIMIT / perMessage(top);
    const old = perMessage(files.get(split.home)).toFixed(0);
    console.log(
      `  with parts: the hot organization's old part (${split.home}) took ${old} ` +
        `B per message after the split (the other organizations' only); its new part fills 10 GB after ` +
        `${(era / 1e6).toFixed(0)} million messages more, when the next part is added`,
    );
  }
  const each = [...files].map(([binding, file]) => `D1 ${binding} ${perMessage(file).toFixed(0)} B`);
  const r2 = (end.r2 - start.r2) / (end.messages - start.messages);
  console.log(`  per message: ${each.join(", ")}, R2 ${r2.toFixed(0)} B`);
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
