// `npm run bench -- storage`: what one turn (a visitor's message and the assistant's reply) costs
// in storage, measured, not estimated: the bytes each D1 table and its indexes gain per turn
// (SQLite's `dbstat`), the rows each gains, and what each conversation's Durable Object keeps.
// docs/scale.md builds its capacity model on these figures.
//
// A local `wrangler dev` (BENCH_PORT, default 8861) with an OpenAI-compatible stand-in answering
// BENCH_REPLY_WORDS words (default 80, ~560 characters); BENCH_CONVERSATIONS conversations
// (default 40) of BENCH_TURNS turns each (default 10) through the completions API, the visitor's
// message ~80 characters. Two webhook configurations (incoming, outgoing) receive every message's event (as a
// business integrating the API would), so its deliveries count too; BENCH_WEBHOOK=0 leaves it out.
// The database is read (read-only, beside the running server) after a warm-up turn in every
// conversation and again at the end; the difference is divided by the turns between.
// BENCH_CHANNEL=telegram: the turns come through a Telegram inbox instead (a chat per conversation, the update
// signed by the Bot API stand-in of test/support/platforms, a turn done when the stand-in has the reply), so the
// channel's own rows (events, chats, deliveries) count too.
import { DatabaseSync } from "node:sqlite";
import { readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { startServer } from "./lib.mjs";
import { d1File } from "../test/support/local-d1.mjs";
import { startUpstream, UPSTREAM_API_KEY } from "../test/support/openai-upstream.mjs";
import { startStandIn } from "../test/support/platforms/stand-in.mjs";
import { platform as telegram } from "../test/support/platforms/telegram.mjs";
import { deliver, telegramInbox, updates } from "./telegram.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8861);
const REPLY_WORDS = Number(process.env.BENCH_REPLY_WORDS ?? 80);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 40);
const TURNS = Number(process.env.BENCH_TURNS ?? 10);
const WEBHOOK = process.env.BENCH_WEBHOOK !== "0";
const CHANNEL = process.env.BENCH_CHANNEL ?? "";
if (CHANNEL && CHANNEL !== "telegram") throw new Error(`BENCH_CHANNEL: only "telegram" is measured, not ${CHANNEL}`);
const SETTLE_MS = 4_000;

const QUESTIONS = [
  "Hello, my order 4471 has not arrived yet, can you tell me where it is?",
  "What are your opening hours on public holidays, and is the shop open on Sunday?",
  "Can I return a pair of shoes I bought three weeks ago if I have lost the receipt?",
  "Do you ship to Japan, and how long does delivery usually take from your warehouse?",
];

/** Bytes and rows per table (indexes counted with their table) of a SQLite file, read-only. */
export function tableSizes(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const owner = new Map(
      db
        .prepare("SELECT name, tbl_name AS t FROM sqlite_master WHERE type IN ('table', 'index')")
        .all()
        .map((r) => [r.name, r.t]),
    );
    const sizes = new Map();
    for (const r of db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name").all()) {
      const table = owner.get(r.name) ?? r.name;
      const entry = sizes.get(table) ?? { bytes: 0, dataBytes: 0, indexBytes: 0, rows: 0 };
      entry.bytes += r.bytes;
      if (table === r.name) entry.dataBytes += r.bytes;
      else entry.indexBytes += r.bytes;
      sizes.set(table, entry);
    }
    for (const [table, entry] of sizes) {
      // FTS5 shadow tables and virtual tables: sizes only.
      if (!/^[a-z_0-9]+$/.test(table) || table.startsWith("sqlite_")) continue;
      try {
        entry.rows = db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get().n;
      } catch {
        entry.rows = 0; // a virtual table whose module this SQLite lacks
      }
    }
    return sizes;
  } finally {
    db.close();
  }
}

/**
 * Bytes and rows per table of `DB` and of the organization shards (their tables marked " (shard)", the shards
 * summed: each organization's rows are in one of them).
 */
function storeSizes(dbFile) {
  const sizes = tableSizes(dbFile);
  const dir = path.dirname(dbFile);
  const shards = readdirSync(dir)
    .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite" && path.join(dir, f) !== dbFile)
    .map((f) => path.join(dir, f));
  for (const shard of shards)
    for (const [table, e] of tableSizes(shard)) {
      if (table === "d1_migrations" || table.startsWith("_cf_")) continue;
      const key = `${table} (shard)`;
      const sum = sizes.get(key) ?? { bytes: 0, dataBytes: 0, indexBytes: 0, rows: 0 };
      for (const k of Object.keys(sum)) sum[k] += e[k];
      sizes.set(key, sum);
    }
  return sizes;
}

/** The SQLite files of one Durable Object class in a `wrangler dev` state, and their total size. */
function objectFiles(state, className) {
  const dir = path.join(state, "v3", "do");
  const classDir = readdirSync(dir).find((d) => d.endsWith(`-${className}`));
  if (!classDir) return { files: [], bytes: 0 };
  const files = readdirSync(path.join(dir, classDir))
    .filter((f) => f.endsWith(".sqlite"))
    .map((f) => path.join(dir, classDir, f));
  let bytes = 0;
  for (const f of files) {
    bytes += statSync(f).size;
    for (const side of ["-wal"]) {
      try {
        bytes += statSync(f + side).size;
      } catch {
        // no WAL beside it
      }
    }
  }
  return { files, bytes };
}

function receiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        received: () => received,
        close: () => server.close(),
      }),
    ),
  );
}

const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

export default async function () {
  const upstream = await startUpstream({ tokenDelayMs: 0 });
  const hook = WEBHOOK ? await receiver() : null;
  const standIn = CHANNEL ? await startStandIn(telegram) : null;
  const server = await startServer({
    port: PORT,
    inspectorPort: PORT + 1000,
    vars: {
      OUTBOUND_ALLOWED_HOSTS: "127.0.0.1,localhost",
      ...(standIn ? { TELEGRAM_API_ORIGIN: standIn.url } : {}),
    },
  });
  try {
    const model = await server.api("/large-language-models/", {
      body: {
        name: "Storage bench",
        provider: "openai_compatible",
        modelName: `words-${REPLY_WORDS}`,
        baseUrl: `${upstream.url}/v1`,
        apiKey: UPSTREAM_API_KEY,
      },
    });
    const bot = await server.api("/chatbots/", {
      body: { name: "Storage bench", largeLanguageModel: model.id, handoff: { enabled: false } },
    });
    const channel = standIn ? await telegramChats(server, standIn, bot) : null;
    // Both directions: an event for every message, as a business mirroring conversations into its CRM.
    if (hook)
      for (const direction of ["incoming", "outgoing"])
        await server.api(`/inboxes/${channel?.inboxId ?? bot.defaultInbox.id}/webhooks/`, {
          body: { name: `Storage bench ${direction}`, direction, url: hook.url, secretToken: "bench-secret" },
        });
    const ask = async (content, conversation) => {
      if (channel) return { conversationId: await channel.say(content, conversation) };
      const res = await fetch(`${server.base}/api/v1/chatbots/${bot.id}/completions/`, {
        method: "POST",
        headers: { ...server.headers, "Content-Type": "application/json" },
        body: JSON.stringify({ message: { content }, ...(conversation ? { conversation } : {}) }),
      });
      const body = await res.json();
      if (!res.ok || !body.message?.content) throw new Error(`completion: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    // Deliveries sent, then housekeeping, which moves the delivered ones to R2 (services/webhooks/segments.ts), as
    // its cron does every 15 minutes.
    const settle = async () => {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const cron = await fetch(`${server.base}/__scheduled?cron=${encodeURIComponent("*/15 * * * *")}`);
      if (!cron.ok) throw new Error(`housekeeping: ${cron.status} ${await cron.text()}`);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    };
    // A first turn in every conversation: conversations, contacts and first-turn rows are
    // per-conversation costs; what follows is what each further turn adds.
    const file = d1File(server.state);
    const empty = storeSizes(file);
    const conversations = [];
    for (let i = 0; i < CONVERSATIONS; i++)
      conversations.push((await ask(QUESTIONS[i % 4], channel ? i + 1 : null)).conversationId);
    await settle();
    const first = storeSizes(file);
    const objectsFirst = objectFiles(server.state, "Conversation");
    let turns = 0;
    for (let t = 1; t < TURNS; t++)
      for (const [i, id] of conversations.entries()) {
        await ask(`${QUESTIONS[(i + t) % 4]} (${t})`, id);
        turns++;
      }
    await settle();
    const last = storeSizes(file);
    const objectsLast = objectFiles(server.state, "Conversation");

    const rows = [...last.entries()]
      .map(([table, e]) => {
        const b = first.get(table) ?? { bytes: 0, dataBytes: 0, indexBytes: 0, rows: 0 };
        return {
          table,
          bytes: (e.bytes - b.bytes) / turns,
          data: (e.dataBytes - b.dataBytes) / turns,
          index: (e.indexBytes - b.indexBytes) / turns,
          rows: (e.rows - b.rows) / turns,
          total: e.bytes,
        };
      })
      .filter((r) => r.bytes !== 0 || r.rows !== 0)
      .sort((a, b) => b.bytes - a.bytes);
    const perTurn = rows.reduce((n, r) => n + r.bytes, 0);
    const inShards = rows.filter((r) => r.table.endsWith(" (shard)")).reduce((n, r) => n + r.bytes, 0);
    console.log(
      `\nStorage per turn: ${turns} turns after a first one in each of ${CONVERSATIONS} conversations; ` +
        `replies of ${REPLY_WORDS} words, webhook ${hook ? "on" : "off"}` +
        (channel ? `, through a ${CHANNEL} inbox` : ", through the completions API"),
    );
    console.log(
      `\n${"D1 table".padEnd(28)} ${"B/turn".padStart(8)} ${"data".padStart(7)} ${"index".padStart(7)} ` +
        `${"rows/turn".padStart(9)}`,
    );
    for (const r of rows)
      console.log(
        `${r.table.padEnd(28)} ${fmt(r.bytes).padStart(8)} ${fmt(r.data).padStart(7)} ` +
          `${fmt(r.index).padStart(7)} ${r.rows.toFixed(2).padStart(9)}`,
      );
    console.log(`${"D1 total".padEnd(28)} ${fmt(perTurn).padStart(8)}`);
    console.log(`${"  of it in DB".padEnd(28)} ${fmt(perTurn - inShards).padStart(8)}`);
    console.log(`${"  of it in the shards".padEnd(28)} ${fmt(inShards).padStart(8)}`);
    // What a conversation costs beyond its turns: its first turn's bytes less one turn's.
    const firstTurns = [...first.entries()]
      .map(([table, e]) => ({ table, bytes: (e.bytes - (empty.get(table)?.bytes ?? 0)) / CONVERSATIONS }))
      .filter((r) => r.bytes !== 0);
    const perConversation = firstTurns.reduce((n, r) => n + r.bytes, 0) - perTurn;
    console.log(
      `\nPer conversation beyond its turns: ${fmt(perConversation)} B (` +
        firstTurns
          .filter((r) => !rows.some((t) => t.table === r.table))
          .map((r) => `${r.table} ${fmt(r.bytes)}`)
          .join(", ") +
        ")",
    );
    const objectBytes = (objectsLast.bytes - objectsFirst.bytes) / turns;
    console.log(
      `\nConversation objects: ${objectsLast.files.length} files, ` +
        `${fmt(objectsLast.bytes / Math.max(1, objectsLast.files.length))} B each on disk ` +
        `(${fmt(objectBytes)} B per turn; file sizes, page-granular)`,
    );
    const limit = 10 * 1024 ** 3;
    console.log(
      `\nD1 \`DB\` (10 GB) fills at ${(limit / (perTurn - inShards) / 1e6).toFixed(1)} million turns at this rate, ` +
        `an organization's shard at ${(limit / Math.max(1, inShards) / 1e6).toFixed(1)} million of its turns` +
        (hook ? `; webhook events received: ${hook.received()}` : ""),
    );
  } finally {
    await server.stop();
    hook?.close();
    await standIn?.close();
    await upstream.close?.();
  }
}

/**
 * A Telegram inbox of `bot`, connected to the stand-in. `say(text, chat)` posts a private message of user `chat`
 * (signed as Telegram signs it) and resolves with the chat once the stand-in has received one more reply for it.
 */
async function telegramChats(server, standIn, bot) {
  const inbox = await telegramInbox(server, { name: "Storage bench", chatbotId: bot.id });
  const update = updates();
  const replies = new Map(); // chat -> replies the stand-in had before the message
  const repliesTo = async (chat) => {
    const sent = await (await fetch(`${standIn.url}/__requests?key=${encodeURIComponent(inbox.token)}`)).json();
    return sent.filter((r) => r.path.endsWith("/sendMessage") && r.body?.chat_id === String(chat)).length;
  };
  return {
    inboxId: inbox.inboxId,
    async say(text, chat) {
      const before = replies.get(chat) ?? 0;
      const status = await deliver(inbox, update(chat, text));
      if (status !== 200) throw new Error(`webhook answered ${status}`);
      for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
        const now = await repliesTo(chat);
        if (now > before) {
          replies.set(chat, now);
          return chat;
        }
      }
      throw new Error(`no reply to chat ${chat} within 60 s`);
    },
  };
}
