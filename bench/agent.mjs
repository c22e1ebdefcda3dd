// `npm run bench -- agent`: the agent loop on `wrangler dev` with the built-in local model (offline).
// 1. Loop overhead per tool call: paired rounds of (a) a normal reply and (b) an agent reply making
//    one api tool call to a local receiver; overhead = (b - a) - the tool's own time (its record's
//    durationMs). Target: p50 <= 5 ms. In new conversations, then in later turns of one conversation each.
// 2. Function tool start: the first call in the worker (QuickJS instantiated: cold) and later ones
//    (warm), as the records' durationMs.
// 3. Agent replies/s, one tool call each, every reply in a new conversation, 8 at a time.
import { agentBesideNormal, startServer, percentile, LOCAL_LLM } from "./lib.mjs";
import { startReceiver } from "../test/support/webhook-receiver.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const THROUGHPUT = Number(process.env.BENCH_REPLIES ?? 400);
const CONCURRENCY = 8;

export default async function () {
  const receiver = await startReceiver();
  const server = await startServer({ vars: { OUTBOUND_ALLOWED_HOSTS: new URL(receiver.url).host } });
  try {
    const { api } = server;
    const fn = await api("/tools/", {
      body: {
        name: "add_numbers",
        displayName: "Add",
        toolType: "function",
        functionCode: "function main(a) { return a.x + a.y; }",
        rawParametersSchema: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } },
      },
    });
    const fnBot = await api("/chatbots/", {
      body: { name: "fn", largeLanguageModel: LOCAL_LLM, replyMode: "agent", tools: [{ id: fn.id }] },
    });
    const cold = (
      await api(`/chatbots/${fnBot.id}/completions/`, { body: { message: { content: "add numbers x: 1, y: 2" } } })
    ).message.contentPayload.toolCalls[0].durationMs;
    const warm = [];
    for (let i = 0; i < 50; i++)
      warm.push(
        (
          await api(`/chatbots/${fnBot.id}/completions/`, {
            body: { message: { content: `add numbers x: ${i}, y: 2` } },
          })
        ).message.contentPayload.toolCalls[0].durationMs,
      );

    const tool = await api("/tools/", {
      body: {
        name: "get_weather",
        displayName: "Weather",
        toolType: "api",
        apiUrl: `${receiver.url}/echo/weather`,
        httpMethod: "get",
        rawParametersSchema: { type: "object", properties: { city: { type: "string" } } },
      },
    });
    const { agent, normal, timed } = await agentBesideNormal(server, tool, "agent");
    for (let i = 0; i < 20; i++)
      await Promise.all([timed(normal.id, "weather city: Oslo"), timed(agent.id, "weather city: Oslo")]);
    // New conversations (a first turn, answered by the worker) and later turns of one conversation each (answered by
    // its object, with the history's earlier tool calls in the prompt).
    const overheads = [];
    const later = [];
    const toolTimes = [];
    const conversations = {};
    for (let i = 0; i < ROUNDS; i++) {
      const a = await timed(normal.id, `weather city: Oslo ${i}`);
      const b = await timed(agent.id, `weather city: Oslo ${i}`);
      const own = b.reply.message.contentPayload.toolCalls[0].durationMs;
      toolTimes.push(own);
      overheads.push(b.ms - a.ms - own);
      conversations[normal.id] ??= a.reply.conversationId;
      conversations[agent.id] ??= b.reply.conversationId;
    }
    for (let i = 0; i < ROUNDS; i++) {
      const a = await timed(normal.id, `weather city: Oslo ${i}`, conversations[normal.id]);
      const b = await timed(agent.id, `weather city: Oslo ${i}`, conversations[agent.id]);
      later.push(b.ms - a.ms - b.reply.message.contentPayload.toolCalls[0].durationMs);
    }

    receiver.requests.length = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < THROUGHPUT) {
          next++;
          await api(`/chatbots/${agent.id}/completions/`, { body: { message: { content: "weather city: Lima" } } });
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    console.log(
      `loop overhead per tool call over the tool's own time (${ROUNDS} paired rounds): p50 ` +
        `${percentile(overheads, 50).toFixed(1)} ms, p95 ${percentile(overheads, 95).toFixed(1)} ms (target p50 ` +
        `<= 5 ms); the api tool's own time p50 ${percentile(toolTimes, 50)} ms`,
    );
    console.log(
      `the same in a conversation's later turns (${ROUNDS} paired rounds): p50 ${percentile(later, 50).toFixed(1)} ` +
        `ms, p95 ${percentile(later, 95).toFixed(1)} ms`,
    );
    console.log(
      `function tool: cold start ${cold} ms (first call in the worker, QuickJS instantiated), warm p50 ` +
        `${percentile(warm, 50)} ms, p95 ${percentile(warm, 95)} ms`,
    );
    console.log(
      `agent replies with one api tool call each, new conversation each, ${CONCURRENCY} at a time: ` +
        `${(THROUGHPUT / seconds).toFixed(1)} replies/s (${THROUGHPUT} in ${seconds.toFixed(1)} s; receiver got ` +
        `${receiver.requests.length} calls)`,
    );
  } finally {
    await server.stop();
    await receiver.close();
  }
}
