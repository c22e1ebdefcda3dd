// `npm run bench -- stream`: the time our streamed completion endpoint adds on top of a model.
// A local OpenAI-compatible upstream streams 20 words at a fixed pace. Each round asks the upstream
// directly, then the same question through POST /chatbots/{id}/completions/ (isStreaming) of an
// assistant using that upstream; paired differences of time to first content byte and to last byte
// give the overhead, reported as p50 and p95, with where the first byte's share goes (before the
// model is asked, after its first word).
import { startServer, percentile, streamedHello } from "./lib.mjs";
import { startUpstream, UPSTREAM_API_KEY } from "../test/support/openai-upstream.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const TOKEN_DELAY_MS = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 5);
/** The server's port (its devtools port is the next one) and the upstream's: BENCH_PORT, else any free ones. */
const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;

/** Times a streamed response: when it was asked, ms to the first chunk that carries content, and to the end. */
export async function timed(url, init, hasContent) {
  const start = performance.now();
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let first = null;
  let seen = "";
  for await (const chunk of res.body) {
    seen += decoder.decode(chunk, { stream: true });
    if (first === null && hasContent(seen)) first = performance.now() - start;
  }
  return { start, first, last: performance.now() - start, text: seen };
}

/** Milliseconds to the first byte of any answer (the body is then drained). */
async function firstByte(url) {
  const start = performance.now();
  const res = await fetch(url);
  const reader = res.body.getReader();
  await reader.read();
  const first = performance.now() - start;
  while (!(await reader.read()).done);
  return first;
}

export default async function () {
  const upstream = await startUpstream({ tokenDelayMs: TOKEN_DELAY_MS, port: PORT === undefined ? 0 : PORT + 2 });
  const server = await startServer(PORT === undefined ? {} : { port: PORT, inspectorPort: PORT + 1 });
  const api = async (path, body, method = "POST") => {
    const res = await fetch(`${server.base}/api/v1${path}`, {
      method,
      headers: { ...server.headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  try {
    const model = await api("/large-language-models/", {
      name: "Bench upstream",
      provider: "openai_compatible",
      modelName: "bench",
      baseUrl: `${upstream.url}/v1`,
      apiKey: UPSTREAM_API_KEY,
    });
    const bot = await api("/chatbots/", { name: "Bench bot", largeLanguageModel: model.id });
    const direct = () =>
      timed(
        `${upstream.url}/v1/chat/completions`,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${UPSTREAM_API_KEY}`, "Content-Type": "application/json" },
          body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "hello" }] }),
        },
        (s) => s.includes('"content":"word'),
      );
    const ours = () => timed(...streamedHello(server, bot.id), (s) => s.includes('"done":false'));
    const conversationId = (await api(`/chatbots/${bot.id}/completions/`, { message: { content: "hello" } }))
      .conversationId;
    const continuing = () =>
      timed(...streamedHello(server, bot.id, { conversation: conversationId }), (s) => s.includes('"done":false'));
    // The AI gateway: same worker, same upstream, only authentication and a model lookup in between.
    // What it adds is mostly what this local runtime costs any route that streams a fetch.
    const [organization] = await (
      await fetch(`${server.base}/api/v1/organizations/?pagination=false`, { headers: server.headers })
    ).json();
    await api(`/organizations/${organization.id}/`, { canUseAiGateway: true }, "PATCH");
    const gateway = () =>
      timed(
        `${server.base}/api/v1/chat/completions`,
        {
          method: "POST",
          headers: { ...server.headers, "Content-Type": "application/json" },
          body: JSON.stringify({ model: model.id, stream: true, messages: [{ role: "user", content: "hello" }] }),
        },
        (s) => s.includes('"content":"word'),
      );

    const series = {
      "completion, new conversation": ours,
      "completion, continuing conversation": continuing,
      "AI gateway (reference)": gateway,
    };
    // Rounds take the series in turn, so a drift of the machine during the run touches all alike.
    // Each request of ours is also split at the upstream: from our client to the model's request
    // arriving, and from the model's first word to our client (the upstream notes both times).
    const results = Object.fromEntries(
      Object.keys(series).map((name) => [name, { first: [], last: [], toModel: [], fromModel: [] }]),
    );
    for (const run of Object.values(series)) for (let i = 0; i < 10; i++) await run();
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, run] of Object.entries(series)) {
        const added = results[name];
        const d = await direct();
        const o = await run();
        const asked = upstream.requests.at(-1);
        added.toModel.push(asked.arrivedAt - o.start);
        added.fromModel.push(o.start + o.first - asked.firstWordAt);
        if (!o.text.includes('"done":true') && !o.text.includes("[DONE]"))
          throw new Error(`${name}: stream ${i} did not finish: ${o.text.slice(-300)}`);
        added.first.push(o.first - d.first);
        added.last.push(o.last - d.last);
      }
    }
    const d = { first: [], last: [] };
    for (let i = 0; i < 50; i++) {
      const r = await direct();
      d.first.push(r.first);
      d.last.push(r.last);
    }
    // What any request costs on this server: GET /health (no key, no storage) against a bare answer
    // of the Node upstream, paired the same way.
    const floor = [];
    for (let i = 0; i < 100; i++) {
      const node = await firstByte(`${upstream.url}/not-a-route`);
      floor.push((await firstByte(`${server.base}/health`)) - node);
    }
    const f = (xs, p) => percentile(xs, p).toFixed(1).padStart(6);
    console.log(`${ROUNDS} paired streamed requests per series; upstream: 20 words, ${TOKEN_DELAY_MS} ms apart`);
    console.log(
      `upstream alone:                             first byte p50 ${f(d.first, 50)} ms  p95 ${f(d.first, 95)} ` +
        `ms | last byte p50 ${f(d.last, 50)} ms  p95 ${f(d.last, 95)} ms`,
    );
    console.log(
      `local server floor, GET /health over a bare Node answer: first byte p50 ${f(floor, 50)} ms  p95 ` +
        `${f(floor, 95)} ms`,
    );
    for (const [name, added] of Object.entries(results)) {
      console.log(
        `added, ${name.padEnd(36)} first byte p50 ${f(added.first, 50)} ms  p95 ${f(added.first, 95)} ms | ` +
          `last byte p50 ${f(added.last, 50)} ms  p95 ${f(added.last, 95)} ms`,
      );
      console.log(
        `       ${"".padEnd(36)} p50: client to model request ${f(added.toModel, 50)} ms, model's first word ` +
          `to client ${f(added.fromModel, 50)} ms`,
      );
    }
    const p50 = percentile(results["completion, new conversation"].first, 50);
    console.log(
      `target: at most 10 ms added to the first byte at p50 (completion, new conversation): ` +
        `${p50 <= 10 ? "PASS" : "FAIL"}`,
    );
  } finally {
    await server.stop();
    await upstream.close();
  }
}
