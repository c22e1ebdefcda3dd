// Conversations under a burst of asynchronous messages when the server stops (SIGTERM to `wrangler
// dev`: every conversation object dies with it, mid-turn) and starts again on the same state.
// Clients whose request failed in the restart go on sending once it is back. Afterwards, with the
// objects' alarms given their 30 s to answer what was owed: every message accepted (201) is stored
// once, no message twice, sequences gapless, every stored message answered once. Webhooks are left
// out: Miniflare's queues live in memory (the deploy's cron re-sends what a restart dropped).
import { startServer } from "../lib.mjs";
import { checkConversation, LOCAL_LLM, messagesOf } from "./_conversations.mjs";

const CONVERSATIONS = Number(process.env.CHAOS_RESTART_CONVERSATIONS ?? 20);
const CLIENTS = 2; // per conversation
const BEFORE_MS = 1500; // of burst before the stop
const AFTER = 5; // messages per client once the server is back

export const description =
  `${CONVERSATIONS} conversations x ${CLIENTS} clients sending POST /messages/; the server (every object) ` +
  `stopped mid-burst and started again on its state`;

export default async function ({ server, api, log }) {
  const bot = await api("POST", "/chatbots/", { name: "Restart bot", largeLanguageModel: LOCAL_LLM });
  const conversations = [];
  for (let i = 0; i < CONVERSATIONS; i++)
    conversations.push(
      (await api("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } })).conversationId,
    );

  let down = false;
  let restarted = null;
  const accepted = new Map(conversations.map((c) => [c, []]));
  const unsure = new Map(conversations.map((c) => [c, []]));
  let serverErrors = 0;
  let interrupted = 0;
  const post = async (conversation, content) => {
    try {
      const res = await fetch(`${server.base}/api/v1/messages/`, {
        method: "POST",
        headers: { ...server.headers, "Content-Type": "application/json" },
        body: JSON.stringify({ conversation, content }),
      });
      await res.text();
      if (res.status === 201) return accepted.get(conversation).push(content);
      if (res.status === 503) interrupted++;
      else if (res.status >= 500) serverErrors++;
    } catch {}
    unsure.get(conversation).push(content); // cut by the stop: stored or not, but at most once
  };
  const stopAt = Date.now() + BEFORE_MS;
  const clients = conversations.flatMap((conversation) =>
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; Date.now() < stopAt || down; i++) {
        if (down) await restarted;
        await post(conversation, `client ${c} message ${i}`);
      }
      await restarted;
      for (let i = 0; i < AFTER; i++) await post(conversation, `client ${c} after ${i}`);
    }),
  );
  await new Promise((r) => setTimeout(r, BEFORE_MS));
  down = true;
  const stoppedAt = Date.now();
  restarted = server.stop({ keep: true }).then(() =>
    startServer({
      port: new URL(server.base).port,
      state: server.state,
      key: server.key,
      inspectorPort: Number(new URL(server.base).port) + 30,
    }),
  );
  const again = await restarted;
  down = false;
  const backAt = Date.now();
  log(`stopped and started again in ${((backAt - stoppedAt) / 1000).toFixed(1)} s`);
  await Promise.all(clients);

  // Replies owed when the objects died come from their alarms (30 s after each owed turn began).
  const deadline = Date.now() + 60_000;
  let lost = 0;
  let duplicated = 0;
  let gaps = 0;
  let stored = 0;
  for (const conversation of conversations) {
    let checked;
    for (;;) {
      const messages = await messagesOf(api, conversation);
      checked = checkConversation(messages, ["start", ...accepted.get(conversation)]);
      if ((checked.lost === 0 && checked.gaps === 0) || Date.now() > deadline) {
        stored += messages.length;
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    lost += checked.lost + checked.gaps;
    duplicated += checked.duplicated;
    gaps += checked.gaps;
  }
  const sent =
    [...accepted.values()].reduce((n, a) => n + a.length, 0) + [...unsure.values()].reduce((n, a) => n + a.length, 0);
  const cut = [...unsure.values()].reduce((n, a) => n + a.length, 0);
  await again.stop();
  return [
    {
      fault: "server stopped mid-burst (every conversation object with it), started again on its state",
      operations: `${sent} messages (${cut} cut by the stop), ${stored} stored`,
      lost,
      duplicated,
      serverErrors,
      recovery:
        `back in ${((backAt - stoppedAt) / 1000).toFixed(1)} s; all owed replies stored ` +
        `${((Date.now() - backAt) / 1000).toFixed(1)} s after`,
      note: `requests cut by the stop: ${cut} (of which 503 interrupted: ${interrupted}); sequence gaps ${gaps}`,
    },
  ];
}
