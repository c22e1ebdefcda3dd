// `npm run bench -- channels`: a Telegram inbox (CONTRACT section 17) against the Bot API stand-in
// (test/support/platforms/telegram.mjs) on loopback, the worker under `wrangler dev` with
// TELEGRAM_API_ORIGIN pointing at it. Three measures (BENCH_ONLY=latency,burst,outage picks some):
// - latency: BENCH_EVENTS (50) updates from distinct chats, one at a time: the time from POSTing the
//   update to our webhook to the stand-in receiving the sendMessage of the assistant's reply (the
//   local model) for that chat, p50 and p95, taken from the stand-in's own receipt times (GET /__requests);
// - burst: BENCH_RATE (200) updates/s for BENCH_BURST_SECONDS (10) into one inbox from BENCH_USERS (200)
//   users, at most BENCH_CONNECTIONS (40, Telegram's default max_connections) requests at once, in order; an
//   update answered other than 200 is delivered again a second later, as Telegram does. Once settled, the
//   messages stored (conversations of the inbox and their messages, through the API): 0 lost and 0
//   duplicated required, and a chat's messages out of its updates' order;
// - outage: the stand-in answers 503 to everything of the bot for BENCH_OUTAGE_SECONDS (600) while one
//   chat sends BENCH_OUTAGE_MESSAGES (5) messages in a row; afterwards every reply must be delivered once,
//   in the order of the conversation's replies; prints the time from the outage's end to the last delivery
//   (bounded by outbound.ts's MAX_BACKOFF_S, 60 s, plus the sending).
// Exits non-zero when an update is lost or doubled (burst), or a reply is missing, doubled or out of order
// (outage). BENCH_PORT (8970) moves the server.
import { allPages, envNumbers, startServer, percentile, LOCAL_LLM } from "./lib.mjs";
import { startStandIn } from "../test/support/platforms/stand-in.mjs";
import { platform as telegram } from "../test/support/platforms/telegram.mjs";
import { deliver, telegramInbox as connectTelegram, updates } from "./telegram.mjs";

const { EVENTS, RATE, BURST_SECONDS, USERS, CONNECTIONS, OUTAGE_SECONDS, OUTAGE_MESSAGES, PORT, SETTLE_SECONDS } =
  envNumbers({
    EVENTS: 50,
    RATE: 200,
    BURST_SECONDS: 10,
    USERS: 200,
    CONNECTIONS: 40,
    OUTAGE_SECONDS: 600,
    OUTAGE_MESSAGES: 5,
    PORT: 8970,
    SETTLE_SECONDS: 600,
  });
const ONLY = new Set((process.env.BENCH_ONLY ?? "latency,burst,outage").split(",").map((s) => s.trim()));
/** outbound.ts's MAX_BACKOFF_S: the longest wait between two attempts of a refused reply. */
const MAX_BACKOFF_S = 60;
const SETTLE_TIMEOUT_MS = SETTLE_SECONDS * 1000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (x) => `${Math.round(x)} ms`;

export default async function () {
  const standIn = await startStandIn(telegram);
  const server = await startServer({
    port: PORT,
    devtools: false,
    vars: { TELEGRAM_API_ORIGIN: standIn.url, OUTBOUND_ALLOWED_HOSTS: new URL(standIn.url).host },
  });
  const api = (path, body, method = body === undefined ? "GET" : "POST") => server.api(path, { method, body });
  const requests = async (token) =>
    await (await fetch(`${standIn.url}/__requests?key=${encodeURIComponent(token)}`)).json();
  let failed = false;
  try {
    const update = updates();
    /** An assistant on the local model (handoff off, so that every message is answered) with a Telegram inbox,
     * connected to the stand-in. */
    async function telegramInbox(name) {
      const bot = await api("/chatbots/", { name, largeLanguageModel: LOCAL_LLM, handoff: { enabled: false } });
      return connectTelegram(server, { name, chatbotId: bot.id });
    }

    const conversationsOf = (inboxId) => allPages(api, `/conversations/?inbox=${inboxId}&pageSize=100`);
    const messagesOf = async (conversationId) =>
      (await allPages(api, `/messages/?conversation=${conversationId}&pageSize=100`)).sort(
        (a, b) => a.sequence - b.sequence,
      );

    if (ONLY.has("latency")) {
      const inbox = await telegramInbox("Bench latency");
      const sentTo = async (chat) =>
        (await requests(inbox.token)).find((r) => r.path.endsWith("/sendMessage") && r.body?.chat_id === String(chat));
      const one = async (chat) => {
        const posted = Date.now();
        const status = await deliver(inbox, update(chat, `Where is parcel ${chat}?`));
        const answered = Date.now();
        if (status !== 200) throw new Error(`webhook answered ${status}`);
        for (const until = Date.now() + 60_000; Date.now() < until; await sleep(20)) {
          const reply = await sentTo(chat);
          if (reply) return { reply: reply.at - posted, answer: answered - posted };
        }
        throw new Error(`no sendMessage for chat ${chat} within 60 s`);
      };
      // Warm-up: the first requests compile and open what later ones reuse.
      for (let w = 0; w < 3; w++) await one(1_000_000 + w);
      const replies = [];
      const answers = [];
      const health = []; // the runtime's bare `GET /health` between them: how busy this machine was
      for (let i = 0; i < EVENTS; i++) {
        const { reply, answer } = await one(2_000_000 + i);
        replies.push(reply);
        answers.push(answer);
        const t = Date.now();
        await (await fetch(`${server.base}/health`)).arrayBuffer();
        health.push(Date.now() - t);
      }
      console.log(`latency: ${EVENTS} updates from distinct chats, one at a time (after 3 warm-up ones)`);
      const p = (xs) => `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))}`;
      console.log(`  update POSTed -> stand-in receives sendMessage: ${p(replies)}, max ${ms(Math.max(...replies))}`);
      console.log(`  webhook answered 200: ${p(answers)}; GET /health between them: p50 ${ms(percentile(health, 50))}`);
    }

    if (ONLY.has("burst")) {
      const inbox = await telegramInbox("Bench burst");
      const total = Math.round(RATE * BURST_SECONDS);
      const expected = new Map(); // update_id -> chat
      const answerTimes = [];
      let redelivered = 0;
      let lastAccepted = 0;
      const pending = [];
      // At most CONNECTIONS requests in flight, as Telegram opens at most `max_connections` (default 40) to a
      // webhook: updates wait their turn in order, so the achieved rate is what the server takes.
      let inFlight = 0;
      const waiting = [];
      const acquire = () => (inFlight < CONNECTIONS ? void inFlight++ : new Promise((r) => waiting.push(r)));
      const release = () => (waiting.length ? waiting.shift()() : inFlight--);
      const post = async (body, chat) => {
        for (let attempt = 0; ; attempt++) {
          if (attempt) await acquire();
          const sent = Date.now();
          const status = await deliver(inbox, body).catch(() => 0);
          release();
          if (status === 200) {
            answerTimes.push(Date.now() - sent);
            lastAccepted = Math.max(lastAccepted, Date.now());
            return;
          }
          if (attempt >= 20)
            throw new Error(`update ${body.update_id} of chat ${chat} refused 20 times (last: ${status})`);
          redelivered++;
          await sleep(1000);
        }
      };
      const started = Date.now();
      for (let i = 0; i < total; i++) {
        const due = started + (i * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        await acquire();
        const chat = 3_000_000 + (i % USERS);
        const body = update(chat, `Burst message ${i} from ${chat}`);
        expected.set(String(body.update_id), chat);
        pending.push(post(body, chat));
      }
      const dispatched = Date.now();
      await Promise.all(pending);
      const sendSeconds = (lastAccepted - started) / 1000;
      console.log(
        `burst: ${total} updates offered at ${RATE}/s for ${BURST_SECONDS} s from ${USERS} users into one ` +
          `inbox, at most ${CONNECTIONS} at once`,
      );
      const rate = (total / sendSeconds).toFixed(0);
      console.log(
        `  dispatched in ${((dispatched - started) / 1000).toFixed(1)} s; all accepted (200) in ` +
          `${sendSeconds.toFixed(1)} s = ${rate} updates/s`,
      );
      console.log(`  redelivered after a non-200: ${redelivered}`);
      console.log(
        `  webhook answered 200: p50 ${ms(percentile(answerTimes, 50))}, p95 ${ms(percentile(answerTimes, 95))}`,
      );

      // Settled: the stand-in's sendMessage count (read without loading the worker) has stopped growing, then
      // every conversation holds its user's messages (counted through the API; conversations done are not read
      // again until the final count).
      const perUser = Math.floor(total / USERS);
      const done = new Set();
      const replyCount = async () =>
        (await requests(inbox.token)).filter((r) => r.path.endsWith("/sendMessage")).length;
      const settleBy = Date.now() + SETTLE_TIMEOUT_MS;
      for (let last = -1, quietSince = Date.now(); Date.now() < settleBy; ) {
        const n = await replyCount();
        if (n !== last) (last = n), (quietSince = Date.now());
        if (n < total && Date.now() - quietSince < 15_000) {
          await sleep(1000);
          continue;
        }
        for (const c of await conversationsOf(inbox.inboxId)) {
          if (done.has(c.id)) continue;
          if ((await messagesOf(c.id)).filter((m) => m.senderType === "contact").length >= perUser) done.add(c.id);
        }
        if (done.size >= USERS || Date.now() - quietSince > 120_000) break;
        await sleep(10_000);
      }
      const settled = Date.now();
      await sleep(3000); // a late duplicate would show here
      const seen = new Map();
      let outOfOrder = 0;
      let replies = 0;
      for (const c of await conversationsOf(inbox.inboxId)) {
        const messages = await messagesOf(c.id);
        const incoming = messages.filter((m) => m.senderType === "contact");
        replies += messages.filter((m) => m.senderType === "chatbot").length;
        const ids = incoming.map((m) => Number(m.metadata?.channel?.eventId));
        for (const id of ids) seen.set(String(id), (seen.get(String(id)) ?? 0) + 1);
        outOfOrder += ids.filter((id, k) => k > 0 && id < ids[k - 1]).length;
      }
      const messages = [...seen.values()].reduce((a, n) => a + n, 0);
      const lost = [...expected.keys()].filter((id) => !seen.has(id)).length;
      const duplicated = [...seen.values()].reduce((a, n) => a + n - 1, 0);
      const sent = (await requests(inbox.token)).filter((r) => r.path.endsWith("/sendMessage"));
      const sendMessages = sent.length;
      const lastReply = sent.length ? (Math.max(...sent.map((r) => r.at)) - started) / 1000 : NaN;
      const conversations = (await conversationsOf(inbox.inboxId)).length;
      const counted = ((settled - started) / 1000).toFixed(1);
      console.log(
        `  counted as settled ${counted} s after the first update (the last reply reached the stand-in at ` +
          `${lastReply.toFixed(1)} s)`,
      );
      console.log(`  ${messages} messages stored in ${conversations} conversations`);
      console.log(
        `  lost: ${lost}, duplicated: ${duplicated} (required 0 and 0); a chat's messages out of the updates' ` +
          `order: ${outOfOrder}`,
      );
      console.log(
        `  the assistant's replies stored: ${replies}, sendMessage requests received by the stand-in: ${sendMessages}`,
      );
      if (lost || duplicated) failed = true;
    }

    if (ONLY.has("outage")) {
      const inbox = await telegramInbox("Bench outage");
      const chat = 4_000_001;
      const { until } = await (
        await fetch(`${standIn.url}/__outage`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            key: inbox.token,
            seconds: OUTAGE_SECONDS,
            body: { ok: false, error_code: 503, description: "Service Unavailable" },
          }),
        })
      ).json();
      console.log(
        `outage: every request of the bot answered 503 for ${OUTAGE_SECONDS} s; ${OUTAGE_MESSAGES} messages ` +
          `in a row from one chat meanwhile`,
      );
      let conversationId = null;
      for (let i = 1; i <= OUTAGE_MESSAGES; i++) {
        if ((await deliver(inbox, update(chat, `Where is parcel ${i}?`))) !== 200)
          throw new Error("webhook refused an update");
        // The next message once this one's reply is stored (it waits behind the refused ones to go out).
        for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
          if (Date.now() > deadline) throw new Error(`no reply stored for message ${i}`);
          conversationId ??= (await conversationsOf(inbox.inboxId))[0]?.id ?? null;
          if (
            conversationId &&
            (await messagesOf(conversationId)).filter((m) => m.senderType === "chatbot").length >= i
          )
            break;
        }
      }
      const sentMessages = async () => (await requests(inbox.token)).filter((r) => r.path.endsWith("/sendMessage"));
      if (Date.now() < until) await sleep(until - Date.now());
      const deadline = until + (MAX_BACKOFF_S + 120) * 1000;
      let delivered = [];
      while (Date.now() < deadline) {
        delivered = (await sentMessages()).filter((r) => r.at >= until);
        if (delivered.length >= OUTAGE_MESSAGES) break;
        await sleep(200);
      }
      await sleep(5000); // a late second copy would show here
      const all = await sentMessages();
      delivered = all.filter((r) => r.at >= until);
      const refused = all.length - delivered.length;
      const replies = (await messagesOf(conversationId)).filter((m) => m.senderType === "chatbot");
      const marker = (text) => /parcel (\d+)/.exec(text)?.[1] ?? `?${text}`;
      const want = replies.map((m) => marker(m.content));
      const got = delivered.map((r) => marker(r.body.text));
      const inOrder = JSON.stringify(got) === JSON.stringify(want);
      const twice = got.length - new Set(got).size;
      const statuses = replies.map((m) => m.metadata?.channelDelivery?.status);
      const attempts = replies.map((m) => m.metadata?.channelDelivery?.attempts);
      const last = delivered.length ? Math.max(...delivered.map((r) => r.at)) : NaN;
      console.log(
        `  sendMessage refused during the outage: ${refused} (the first reply's attempts; the others wait behind it)`,
      );
      const order = inOrder ? "yes" : `NO (sent ${got.join(",")}, replies ${want.join(",")})`;
      console.log(
        `  delivered after it: ${delivered.length} of ${replies.length} replies, in order: ${order}, twice: ${twice}`,
      );
      console.log(`  deliveries' status: ${statuses.join(", ")}; attempts: ${attempts.join(", ")}`);
      const first = Math.min(...delivered.map((r) => r.at));
      console.log(
        `  outage's end -> first delivery ${ms(first - until)}, -> last delivery ${ms(last - until)} ` +
          `(back-off cap ${MAX_BACKOFF_S} s)`,
      );
      if (
        delivered.length !== replies.length ||
        replies.length !== OUTAGE_MESSAGES ||
        !inOrder ||
        twice ||
        statuses.some((s) => s !== "sent")
      )
        failed = true;
    }
  } finally {
    await server.stop();
    await standIn.close();
  }
  if (failed) {
    console.log("FAILED: an update lost or doubled, or a reply after the outage missing, doubled or out of order");
    process.exitCode = 1;
  }
}
