// `npm run bench -- ordering`: messages/s into ONE conversation, where its Durable Object runs one
// turn (visitor message + assistant reply, local model) at a time. Several clients send at once;
// the run checks afterwards that the messages strictly alternate with no gap or loss.
// `npm run bench -- completions` runs the same measure on a baseline beside the working tree.
import { allPages, startServer, LOCAL_LLM } from "./lib.mjs";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const TURNS_PER_CLIENT = Number(process.env.BENCH_TURNS ?? 50);

/**
 * One conversation under `clients` concurrent senders on a started server: its rate and whether every
 * message is stored in order. `base`: where to send them (default the server's, behind wrangler's
 * proxy worker; `server.runtime` is the runtime's own address).
 */
export async function oneConversation(
  server,
  { clients = CLIENTS, turnsPerClient = TURNS_PER_CLIENT, base = server.base } = {},
) {
  const api = (path, body, method = body ? "POST" : "GET") =>
    fetch(`${base}/api/v1${path}`, {
      method,
      headers: { ...server.headers, "Content-Type": "application/json" },
      body: body && JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      return r.json();
    });
  const bot = await api("/chatbots/", {
    name: "Bench bot",
    largeLanguageModel: LOCAL_LLM,
  });
  const { conversationId } = await api(`/chatbots/${bot.id}/completions/`, { message: { content: "warm up" } });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < turnsPerClient; i++)
        await api(`/chatbots/${bot.id}/completions/`, {
          conversation: conversationId,
          message: { content: `client ${client} turn ${i}` },
        });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const turns = clients * turnsPerClient;

  const messages = await allPages(api, `/messages/?conversation=${conversationId}&pageSize=100`);
  messages.sort((a, b) => a.sequence - b.sequence);
  const expected = 2 * (turns + 1);
  const gaps = messages.filter((m, i) => m.sequence !== i + 1).length;
  const alternationErrors = messages.filter((m, i) => m.type !== (i % 2 === 0 ? "incoming" : "outgoing")).length;
  return {
    clients,
    turnsPerClient,
    turns,
    seconds,
    messagesPerSecond: (2 * turns) / seconds,
    stored: messages.length,
    expected,
    gaps,
    alternationErrors,
    ok: messages.length === expected && !gaps && !alternationErrors,
  };
}

export default async function () {
  const server = await startServer();
  try {
    const r = await oneConversation(server);
    console.log(
      `${r.clients} concurrent clients x ${r.turnsPerClient} completions into one conversation (local model)`,
    );
    console.log(
      `turns: ${r.turns} in ${r.seconds.toFixed(2)} s = ${(r.turns / r.seconds).toFixed(1)} turns/s = ` +
        `${r.messagesPerSecond.toFixed(1)} messages/s`,
    );
    console.log(
      `stored messages: ${r.stored} (expected ${r.expected}), sequence gaps: ${r.gaps}, alternation errors: ` +
        `${r.alternationErrors}`,
    );
    if (!r.ok) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}
