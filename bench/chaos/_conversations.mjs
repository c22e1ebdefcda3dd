// Shared by the conversation chaos scenarios: reading a conversation back, checking it, and counting
// what a webhook receiver accepted per message.
import { allPages } from "../lib.mjs";
export { LOCAL_LLM } from "../lib.mjs";

/** Every message of a conversation, oldest first (the API lists newest first, a cursor page at a time). */
export async function messagesOf(api, conversationId) {
  const all = await allPages((url) => api("GET", url), `/messages/?conversation=${conversationId}&pageSize=100`);
  return all.sort((a, b) => a.sequence - b.sequence);
}

/**
 * What a conversation's stored messages say against what was sent: `sent` are the visitor's
 * contents in the order the conversation received them. Lost: a sent message or its reply missing;
 * duplicated: a content stored twice, or a second reply; gaps: sequence numbers not 1..n.
 */
export function checkConversation(messages, sent, { replies = true } = {}) {
  const incoming = messages.filter((m) => m.type === "incoming");
  const contents = incoming.map((m) => m.content);
  const seen = new Set(contents);
  let lost = sent.filter((c) => !seen.has(c)).length;
  let duplicated = contents.length - seen.size;
  const gaps = messages.filter((m, i) => m.sequence !== i + 1).length;
  // Each incoming message followed by exactly one reply.
  if (replies) {
    for (let i = 0; i < messages.length; i++) {
      if (messages[i].type !== "incoming") continue;
      let answers = 0;
      for (let j = i + 1; j < messages.length && messages[j].type !== "incoming"; j++) answers++;
      if (answers === 0) lost++;
      if (answers > 1) duplicated += answers - 1;
    }
  }
  return { lost, duplicated, gaps, ids: messages.map((m) => m.id) };
}

/** Deliveries the receiver accepted (200) under `prefix`, per message id. */
export function acceptedByMessage(receiver, prefix) {
  const counts = new Map();
  for (const r of receiver.requests) {
    if (!r.path.startsWith(prefix) || r.status !== 200) continue;
    const id = JSON.parse(r.body).id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * Waits until every id has been accepted under `prefix`, for as long as deliveries keep arriving
 * (a loaded machine drains the queue slowly) but no more than `idleMs` without one; then a moment
 * for late duplicates. Lost and duplicated webhook events, and how long the last took to arrive.
 */
export async function webhookOutcome(receiver, prefix, ids, idleMs = 60_000) {
  const started = Date.now();
  let progressAt = Date.now();
  let count = -1;
  for (;;) {
    const got = acceptedByMessage(receiver, prefix);
    if (ids.every((id) => got.has(id))) break;
    if (got.size !== count) (count = got.size), (progressAt = Date.now());
    if (Date.now() - progressAt > idleMs) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const drainedMs = Date.now() - started;
  await new Promise((r) => setTimeout(r, 2000));
  const got = acceptedByMessage(receiver, prefix);
  return {
    lost: ids.filter((id) => !got.has(id)).length,
    duplicated: [...got.values()].reduce((n, c) => n + c - 1, 0),
    drainedMs,
  };
}

export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** The delivery records of a webhook by status, and its failures' reasons (what became of events the receiver lacks).
 * */
export async function deliveryTally(api, inboxId, webhookId) {
  const tally = {};
  const reasons = {};
  for (const r of await allPages(
    (url) => api("GET", url),
    `/inboxes/${inboxId}/webhooks/${webhookId}/records/?pageSize=100`,
  )) {
    tally[r.status] = (tally[r.status] ?? 0) + 1;
    if (r.error) reasons[r.error.slice(0, 60)] = (reasons[r.error.slice(0, 60)] ?? 0) + 1;
  }
  return `${JSON.stringify(tally)}${Object.keys(reasons).length ? ` ${JSON.stringify(reasons)}` : ""}`;
}
