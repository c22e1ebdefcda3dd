// `npm run bench -- ordering`: messages/s into ONE conversation, where its Durable Object runs one
// turn (visitor message + assistant reply, local model) at a time. Several clients send at once;
// the run checks afterwards that the messages strictly alternate with no gap or loss.
import { startServer } from "./lib.mjs";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const TURNS_PER_CLIENT = Number(process.env.BENCH_TURNS ?? 50);

export default async function () {
  const server = await startServer();
  const api = (path, body, method = body ? "POST" : "GET") =>
    fetch(`${server.base}/api/v1${path}`, { method, headers: { ...server.headers, "Content-Type": "application/json" }, body: body && JSON.stringify(body) }).then(async (r) => {
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      return r.json();
    });
  try {
    const bot = await api("/chatbots/", { name: "Bench bot", largeLanguageModel: "00000000-0000-7000-8000-000000000001" });
    const { conversationId } = await api(`/chatbots/${bot.id}/completions/`, { message: { content: "warm up" } });
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < TURNS_PER_CLIENT; i++) await api(`/chatbots/${bot.id}/completions/`, { conversation: conversationId, message: { content: `client ${client} turn ${i}` } });
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const turns = CLIENTS * TURNS_PER_CLIENT;

    const messages = [];
    for (let url = `/messages/?conversation=${conversationId}&pageSize=100`; url; ) {
      const page = await api(url);
      messages.push(...page.results);
      url = page.next && page.next.slice(page.next.indexOf("/api/v1") + 7);
    }
    messages.sort((a, b) => a.sequence - b.sequence);
    const expected = 2 * (turns + 1);
    const gaps = messages.filter((m, i) => m.sequence !== i + 1).length;
    const alternationErrors = messages.filter((m, i) => m.type !== (i % 2 === 0 ? "incoming" : "outgoing")).length;
    console.log(`${CLIENTS} concurrent clients x ${TURNS_PER_CLIENT} completions into one conversation (local model)`);
    console.log(`turns: ${turns} in ${seconds.toFixed(2)} s = ${(turns / seconds).toFixed(1)} turns/s = ${((2 * turns) / seconds).toFixed(1)} messages/s`);
    console.log(`stored messages: ${messages.length} (expected ${expected}), sequence gaps: ${gaps}, alternation errors: ${alternationErrors}`);
    if (messages.length !== expected || gaps || alternationErrors) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}
