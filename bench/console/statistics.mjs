// The Statistics page over 1,000,000 messages: time from navigation start to its four charts
// drawn, signed in, in Chromium on `wrangler dev`. Target: within 1 s of opening the page.
//
// A server of its own (port CONSOLE_STATS_PORT, default 8955): 50 assistants are created through the
// API; with the server stopped, a year of traffic is written straight into its D1's statistics
// tables, as the message triggers and the daily rollup would have left them: 100,000 conversations
// of 5 turns (1,000,000 messages) over the last 365 days, across the 50 assistants and 20 members
// (usage_hourly, usage_daily_chatbots, usage_daily_members, the rollup's watermark) and one record
// per question (chatbot_records, 500,000). Then, on that state: cold loads of the page (its default
// range, the last 30 days, all assistants), and a whole year by day chosen in the form.
import { DatabaseSync } from "node:sqlite";
import { randomUUID } from "node:crypto";
import { envNumbers, launchChromium, percentile, prng, seedMembers, startServer, LOCAL_LLM } from "../lib.mjs";
import { d1File } from "../../test/support/local-d1.mjs";
import { openPage, signInContext } from "../../test/browser/console-helpers.mjs";

const { PORT } = envNumbers({ PORT: 8955 }, "CONSOLE_STATS_");
const { PAGE_LOADS: LOADS, MESSAGES } = envNumbers({ PAGE_LOADS: 20, MESSAGES: 1_000_000 });
const CHATBOTS = 50;
const MEMBERS = 20;
const TURNS = 5;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const f = (xs, p) => percentile(xs, p).toFixed(0);

const rand = prng(28);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

function seed(file, { organizationId, ownerId, chatbots }) {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
  const now = Date.now();
  const start = now - 365 * DAY;
  db.exec("BEGIN");
  const members = seedMembers(db, { organizationId, ownerId, count: MEMBERS, at: start });
  // Counters per (assistant, hour, member), as the triggers add them up message by message.
  const hours = new Map();
  const record = db.prepare(
    "INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, input_message, " +
      "output_message, reply_ms, created_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  let written = 0;
  for (let c = 0; written < MESSAGES; c++) {
    const bot = pick(chatbots);
    const conversation = randomUUID();
    const at = start + Math.floor(rand() * 365 * DAY);
    const by = rand() < 0.3 ? pick(members) : "";
    const bump = (time, fields) => {
      const hour = time - (time % HOUR);
      const key = `${bot}|${hour}|${by}`;
      const row = hours.get(key) ?? {
        bot,
        hour,
        by,
        conversations: 0,
        incoming: 0,
        outgoing: 0,
        replies: 0,
        replyMs: 0,
        failed: 0,
        requests: 0,
        input: 0,
        output: 0,
        words: 0,
      };
      for (const [k, v] of Object.entries(fields)) row[k] += v;
      hours.set(key, row);
    };
    bump(at, { conversations: 1 });
    for (let t = 0; t < TURNS && written < MESSAGES; t++) {
      const asked = at + t * 60_000;
      const replyMs = 500 + Math.floor(rand() * 3000);
      const failed = rand() < 0.01;
      const words = 5 + Math.floor(rand() * 40);
      bump(asked, { incoming: 1 });
      if (failed) bump(asked, { failed: 1, outgoing: 1 });
      else
        bump(asked + replyMs, {
          outgoing: 1,
          replies: 1,
          replyMs,
          requests: 1,
          input: 200 + words * 3,
          output: words * 2,
          words,
        });
      record.run(
        randomUUID(),
        organizationId,
        bot,
        conversation,
        `Where is my order number ${c}-${t}?`,
        failed ? null : `Your order ${c}-${t} ships tomorrow.`,
        replyMs,
        asked,
        asked + replyMs,
      );
      written += 2;
    }
  }
  const hourly = db.prepare(
    `INSERT INTO usage_hourly (organization_id, chatbot_id, hour, member_id, model_id, conversations, incoming_messages,
       outgoing_messages, replies, reply_ms, failed_replies, requests, input_tokens, output_tokens, words)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of hours.values())
    hourly.run(
      organizationId,
      r.bot,
      r.hour,
      r.by,
      LOCAL_LLM,
      r.conversations,
      r.incoming,
      r.outgoing,
      r.replies,
      r.replyMs,
      r.failed,
      r.requests,
      r.input,
      r.output,
      r.words,
    );
  // The daily rollup of every settled day (src/services/statistics/rollup.ts), and its watermark.
  const through = Math.floor((now - 2 * HOUR) / DAY) * DAY;
  const sums =
    "sum(conversations), sum(incoming_messages), sum(outgoing_messages), sum(replies), sum(failed_replies), " +
    "sum(words), sum(requests), sum(input_tokens), sum(output_tokens)";
  const counters =
    "conversations, incoming_messages, outgoing_messages, replies, failed_replies, words, requests, " +
    "input_tokens, output_tokens";
  for (const [table, key] of [
    ["usage_daily_members", "member_id"],
    ["usage_daily_chatbots", "chatbot_id"],
  ]) {
    db.prepare(
      `INSERT INTO ${table} (organization_id, day, ${key}, ${counters}) SELECT organization_id, hour - hour % ` +
        `${DAY}, ${key}, ${sums} FROM usage_hourly WHERE hour < ? GROUP BY 1, 2, 3`,
    ).run(through);
  }
  db.prepare(
    "INSERT INTO usage_rollup (id, through) VALUES ('daily', ?) ON CONFLICT (id) DO UPDATE SET through = " +
      "excluded.through",
  ).run(through);
  db.exec("COMMIT");
  const counts = db
    .prepare(
      "SELECT (SELECT sum(incoming_messages + outgoing_messages) FROM usage_hourly) AS messages, (SELECT " +
        "count(*) FROM usage_hourly) AS hourly, (SELECT count(*) FROM usage_daily_chatbots) AS daily, (SELECT " +
        "count(*) FROM chatbot_records) AS records",
    )
    .get();
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  return counts;
}

/** The page's own mark once its four charts are drawn (ms since navigation start), waited for. */
const drawnMark = (page) =>
  page
    .waitForFunction(() => performance.getEntriesByName("statistics:charts-drawn").at(-1)?.startTime)
    .then((h) => h.jsonValue());

/** ms from navigation start until the four charts are drawn. */
async function chartsDrawn(page, url, requests) {
  await page.goto(url, { waitUntil: "commit" });
  const drawn = await drawnMark(page);
  // Where the time went: each request's start and end (ms since navigation start), by what it asked for.
  const entries = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => [e.name, e.startTime, e.responseEnd]),
  );
  for (const [name, start, end] of entries) {
    const what = new URL(name).pathname.replace(/[0-9a-f-]{36}/g, "{id}").replace(/-[A-Z0-9]{8}\.(js|css)$/, ".$1");
    (requests[what] ??= []).push([start, end]);
  }
  return drawn;
}

export async function run() {
  const first = await startServer({ port: PORT });
  let server, browser;
  try {
    const [org] = (await first.api("/organizations/", { method: "GET" })).results;
    const owner = await first.api("/users/current/", { method: "GET" });
    const chatbots = [];
    for (let i = 0; i < CHATBOTS; i++)
      chatbots.push(
        (await first.api("/chatbots/", { body: { name: `Assistant ${i}`, largeLanguageModel: LOCAL_LLM } })).id,
      );
    await first.stop({ keep: true });
    const started = performance.now();
    const counts = seed(d1File(first.state), { organizationId: org.id, ownerId: owner.id, chatbots });
    console.log(
      `seeded ${counts.messages.toLocaleString("en")} messages' statistics in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${counts.hourly.toLocaleString("en")} hour rows, ${counts.daily.toLocaleString("en")} assistant-day ` +
        `rows, ${counts.records.toLocaleString("en")} records (${CHATBOTS} assistants, ${MEMBERS} members, ` +
        `one year)`,
    );
    server = await startServer({ port: PORT, state: first.state, key: first.key });
    browser = await launchChromium();
    const url = `${server.base}/console/statistics`;
    const cold = [];
    const requests = {};
    for (let i = 0; i < LOADS; i++) {
      const { context, page } = await openPage(browser);
      await signInContext(context, server.base, { apiKey: server.key });
      cold.push(await chartsDrawn(page, url, requests));
      await context.close();
    }
    // A whole year by day (365 points a chart), chosen in the form: from "Show" to the charts redrawn.
    const year = [];
    const { context, page } = await openPage(browser);
    await signInContext(context, server.base, { apiKey: server.key });
    for (let i = 0; i < Math.max(5, LOADS / 2); i++) {
      await chartsDrawn(page, url, {});
      const from = new Date(Date.now() - 364 * DAY).toISOString().slice(0, 10);
      await page.getByLabel("From", { exact: true }).fill(from);
      await page.evaluate(() => performance.clearMarks("statistics:charts-drawn"));
      const t0 = await page.evaluate(() => performance.now());
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await page.waitForFunction(() => document.querySelector(".chart tbody")?.children.length >= 365);
      year.push((await drawnMark(page)) - t0);
    }
    await context.close();
    const p95 = percentile(cold, 95);
    console.log(
      `navigation -> four charts drawn (last 30 days, all assistants), cold cache: p50 ${f(cold, 50)} ms, p95 ` +
        `${f(cold, 95)} ms (${LOADS} loads; target <= 1000 ms) ${p95 <= 1000 ? "PASS" : "FAIL"}`,
    );
    for (const [what, times] of Object.entries(requests)) {
      console.log(
        `  ${what}: starts at p50 ${f(
          times.map((t) => t[0]),
          50,
        )} ms, ends at p50 ${f(
          times.map((t) => t[1]),
          50,
        )} ms`,
      );
    }
    console.log(
      `  a whole year by day chosen in the form, "Show" -> charts redrawn: p50 ${f(year, 50)} ms, p95 ` +
        `${f(year, 95)} ms (${year.length} times)`,
    );
  } finally {
    await browser?.close();
    await (server ?? first).stop();
  }
}
