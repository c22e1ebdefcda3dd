// Shared by the webhook chaos scenarios: an assistant whose inbox has webhooks pointing at a local
// receiver with switchable fault modes, visitor messages (one incoming event each) posted into
// conversations with a human (no replies), and the count of what the receiver accepted.
import { startReceiver } from "../../test/support/webhook-receiver.mjs";
import { LOCAL_LLM } from "../lib.mjs";

/** The scenario's `prepare`: the receiver, which the server must be allowed to reach (it is on loopback). */
export async function prepareReceiver(vars = {}) {
  const receiver = await startReceiver();
  return {
    vars: { WEBHOOK_ALLOWED_HOSTS: new URL(receiver.url).host, ...vars },
    context: { receiver },
    close: () => receiver.close(),
  };
}

/** An assistant, `conversations` conversations with auto reply off, and one webhook per entry of `hooks` ({key,
 * retry}). */
export async function setUp({ api, receiver }, conversations, hooks) {
  const bot = await api("POST", "/chatbots/", { name: "Chaos bot", largeLanguageModel: LOCAL_LLM });
  const started = [];
  for (let i = 0; i < conversations; i++) {
    const { conversationId } = await api("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } });
    await api("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false });
    started.push(conversationId);
  }
  // After the conversations' first messages, so that only the scenario's events reach them.
  const ids = {};
  for (const { key, retry } of hooks) {
    const hook = await api("POST", `/inboxes/${bot.defaultInbox.id}/webhooks/`, {
      name: key,
      direction: "incoming",
      url: `${receiver.url}/switch/${key}`,
      retryFailedDeliveries: retry,
    });
    ids[key] = hook.id;
  }
  return { bot, inboxId: bot.defaultInbox.id, webhookIds: ids, conversations: started };
}

/**
 * Posts `n` visitor messages over the conversations (in order within each), spread over `overMs`
 * when given. Resolves to {messageId: createdAt}. A message the API refused is not an event.
 */
export async function postEvents({ request }, conversations, n, overMs = 0) {
  const created = new Map();
  const started = Date.now();
  await Promise.all(
    conversations.map(async (conversation, c) => {
      for (let i = c; i < n; i += conversations.length) {
        if (overMs) await new Promise((r) => setTimeout(r, Math.max(0, started + (i / n) * overMs - Date.now())));
        const res = await request("POST", "/messages/", { conversation, content: `event ${i}` });
        if (res.status === 201) created.set(res.json.id, Date.now());
      }
    }),
  );
  return created;
}

/** What `/switch/<key>/` accepted (a 200) per event id, and when first. */
export function accepted(receiver, key) {
  const byEvent = new Map();
  for (const r of receiver.requests) {
    if (!r.path.startsWith(`/switch/${key}`) || r.status !== 200) continue;
    const id = JSON.parse(r.body).id;
    const seen = byEvent.get(id);
    byEvent.set(id, { count: (seen?.count ?? 0) + 1, first: Math.min(seen?.first ?? Infinity, r.receivedAt) });
  }
  return byEvent;
}

/** Waits until every event was accepted at `key` (or `deadline`); then a moment more for late duplicates. */
export async function drain(receiver, key, events, deadline) {
  while (Date.now() < deadline && [...events.keys()].some((id) => !accepted(receiver, key).has(id)))
    await new Promise((r) => setTimeout(r, 500));
  await new Promise((r) => setTimeout(r, 3000));
}

/** A table row for the events at `key`: lost, duplicated, and the time from `backAt` to the last first acceptance. */
export function outcome(receiver, key, events, backAt, scale = 1) {
  const got = accepted(receiver, key);
  const lost = [...events.keys()].filter((id) => !got.has(id)).length;
  const duplicated = [...got.values()].reduce((n, a) => n + a.count - 1, 0);
  const last = Math.max(...[...got.values()].map((a) => a.first));
  const seconds = (last - backAt) / 1000;
  const recovery = !got.size
    ? "never"
    : scale === 1
      ? `${seconds.toFixed(1)} s`
      : `${seconds.toFixed(1)} s (${((seconds * scale) / 3600).toFixed(2)} h on the retry clock)`;
  return { operations: events.size, lost, duplicated, recovery };
}
