// A model provider failing under load: TURNS conversations (half streamed, half direct, 8 at a
// time) each get one turn while the assistant's model answers 500, 429 (always, or only for a
// while), drops the connection, never answers, or breaks its stream after three words; then the
// provider is healthy again and every conversation gets one more turn. Every faulty turn must end
// cleanly (a reply, or a clear error carrying the request id: `event: error`, or a 502/504 body),
// keep the visitor's message, store no partial answer, and be counted as failed; every next turn
// must be answered. The direct turns' 502/504 answers are the expected outcome, not counted as 5xx.
import { answerPieces, startUpstream, UPSTREAM_API_KEY } from "../../test/support/openai-upstream.mjs";
import { messagesOf, percentile } from "./_conversations.mjs";

const TURNS = Number(process.env.CHAOS_MODEL_TURNS ?? 40);
const CONCURRENCY = 8;
const MODEL_TIMEOUT_MS = 3000;
const ANSWER = answerPieces().join("");

export const description =
  `${TURNS} turns per model fault (500, 429, 429 for a while, connection lost, no answer, stream broken), ` +
  `${CONCURRENCY} at a time, then one healthy turn each`;

export async function prepare() {
  const upstream = await startUpstream({ tokenDelayMs: 5 });
  const host = new URL(upstream.url).host;
  return {
    vars: { OUTBOUND_ALLOWED_HOSTS: host, MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS) },
    context: { upstream },
    close: () => upstream.close(),
  };
}

const FAULTS = [
  { fault: "model answers 500", model: "fail-500" },
  { fault: "model answers 429 (Retry-After: 1) to every attempt", model: "fail-429" },
  // The first 2 x TURNS requests fail: early turns fail after their retries, later ones get through.
  { fault: "model answers 429 for a while", model: `fail-429x${2 * TURNS}-chaos` },
  { fault: "model connection lost before answering", model: "fail-connect" },
  { fault: `model never answers (MODEL_TIMEOUT_MS ${MODEL_TIMEOUT_MS})`, model: "hang" },
  { fault: "model stream broken after 3 words", model: "fail-midstream" },
];

async function oneFault({ server, api, upstream }, { fault, model }) {
  const register = (modelName) =>
    api("POST", "/large-language-models/", {
      name: `${modelName} ${crypto.randomUUID()}`,
      provider: "openai_compatible",
      modelName,
      baseUrl: `${upstream.url}/v1`,
      apiKey: UPSTREAM_API_KEY,
    });
  const [healthy, faulty] = [await register("healthy"), await register(model)];
  const bot = await api("POST", "/chatbots/", { name: fault, largeLanguageModel: healthy.id });
  const conversations = [];
  for (let i = 0; i < TURNS; i++)
    conversations.push(
      (await api("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } })).conversationId,
    );
  await api("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: faulty.id });

  const completion = (body) =>
    fetch(`${server.base}/api/v1/chatbots/${bot.id}/completions/`, {
      method: "POST",
      headers: { ...server.headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const outcomes = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TURNS) {
        const i = next++;
        const streamed = i % 2 === 0;
        const started = performance.now();
        const res = await completion({
          conversation: conversations[i],
          message: { content: `turn ${i}` },
          isStreaming: streamed,
        });
        const requestId = res.headers.get("X-Request-Id");
        const text = await res.text();
        const ms = performance.now() - started;
        let answered = false;
        let clear = false;
        if (streamed) {
          const last = text.trim().split("\n\n").at(-1) ?? "";
          const data = JSON.parse(last.match(/^data: (.*)$/m)?.[1] ?? "null");
          answered = /^data: /m.test(last) && !/^event:/m.test(last) && data?.done === true;
          clear = /^event: error$/m.test(last) && data?.requestId === requestId && !!data?.code;
        } else {
          answered = res.status === 200;
          clear = [502, 504].includes(res.status) && JSON.parse(text).requestId === requestId;
        }
        outcomes.push({ i, ms, answered, clear, status: res.status });
      }
    }),
  );
  await api("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: healthy.id });
  let nextFailed = 0;
  for (let i = 0; i < TURNS; i += CONCURRENCY) {
    await Promise.all(
      conversations.slice(i, i + CONCURRENCY).map(async (conversation) => {
        const res = await completion({ conversation, message: { content: "after" } });
        if (res.status !== 200 || (await res.json()).content !== ANSWER) nextFailed++;
      }),
    );
  }

  // Read back: start/answer, the faulty turn's message (and its whole reply when answered), after/answer.
  let lost = nextFailed;
  let duplicated = 0;
  for (const o of outcomes) {
    const messages = await messagesOf(api, conversations[o.i]);
    const layout = messages
      .map((m) => (m.type === "incoming" ? m.content : m.content === ANSWER ? "answer" : "partial"))
      .join(",");
    const expected = `start,answer,turn ${o.i},${o.answered ? "answer," : ""}after,answer`;
    if (layout !== expected) {
      if (messages.length > expected.split(",").length || layout.includes("partial")) duplicated++;
      else lost++;
    }
    if (!o.answered && !o.clear) lost++;
  }
  const failed = outcomes.filter((o) => !o.answered).length;
  let counted = 0;
  for (let i = 0; i < 50 && counted < failed; i++) {
    counted = (await api("GET", `/chatbots/${bot.id}/statistics/`)).total.failedRepliesCount;
    if (counted < failed) await new Promise((r) => setTimeout(r, 200));
  }
  lost += Math.max(0, failed - counted);
  const ms = outcomes.map((o) => o.ms);
  const s = (x) => `${(x / 1000).toFixed(1)} s`;
  const { count: received } = await (await fetch(`${upstream.url}/request-count?model=${model}`)).json();
  return {
    fault,
    operations: `${TURNS} turns + ${TURNS} after`,
    lost,
    duplicated,
    recovery:
      `${failed} failed cleanly, ${TURNS - failed} answered; ` +
      `turn p50 ${s(percentile(ms, 50))}, max ${s(Math.max(...ms))}; ` +
      `next turns all answered: ${nextFailed === 0 ? "yes" : `no (${nextFailed})`}`,
    note: `failures counted in statistics ${counted}/${failed}; requests the model received ${received}`,
  };
}

export default async function (ctx) {
  const rows = [];
  for (const f of FAULTS) {
    rows.push(await oneFault(ctx, f));
    ctx.log(`${f.fault}: done`);
  }
  return rows;
}
