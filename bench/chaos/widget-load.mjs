// Many widget visitors at once, through the public widget API only: each starts a session (its own
// client address), then sends its messages one after another, reading each streamed reply to its
// end. Afterwards every conversation is read back: every message stored once, in order, gapless,
// each answered once; and every message (visitor's and reply) reached the inbox's webhooks once.
import { startReceiver } from "../../test/support/webhook-receiver.mjs";
import {
  checkConversation,
  deliveryTally,
  LOCAL_LLM,
  messagesOf,
  percentile,
  webhookOutcome,
} from "./_conversations.mjs";

const VISITORS = Number(process.env.CHAOS_VISITORS ?? 200);
const MESSAGES = Number(process.env.CHAOS_VISITOR_MESSAGES ?? 20);

export const description =
  `${VISITORS} concurrent widget visitors x ${MESSAGES} messages each, with replies and webhooks (built-in ` + `model)`;

export async function prepare() {
  const receiver = await startReceiver();
  return {
    // The web chat's own limit (6,000 a minute by default) is an operator setting: this load is the point.
    vars: { WEBHOOK_ALLOWED_HOSTS: new URL(receiver.url).host, WIDGET_WEB_CHAT_RATE_LIMIT_PER_MINUTE: "10000000" },
    context: { receiver },
    close: () => receiver.close(),
  };
}

/** A streamed reply read to its end: the last event's data, or the error event's. */
async function readReply(res) {
  const text = await res.text();
  const blocks = text
    .trim()
    .split("\n\n")
    .filter((b) => /^data: /m.test(b));
  const last = blocks.at(-1) ?? "";
  return {
    event: last.match(/^event: (\w+)/m)?.[1] ?? "message",
    data: JSON.parse(last.match(/^data: (.*)$/m)?.[1] ?? "null"),
  };
}

export default async function ({ server, api, receiver, log }) {
  const bot = await api("POST", "/chatbots/", { name: "Load bot", largeLanguageModel: LOCAL_LLM });
  const inbox = await api("POST", "/inboxes/", { name: "Site", channelType: "web", chatbot: { id: bot.id } });
  const chatId = inbox.channel.id;
  await api("PATCH", `/web-chats/${chatId}/`, { enableAnonymous: true });
  const webhookIds = [];
  for (const direction of ["incoming", "outgoing"])
    webhookIds.push(
      (
        await api("POST", `/inboxes/${inbox.id}/webhooks/`, {
          name: direction,
          direction,
          url: `${receiver.url}/ok/load`,
        })
      ).id,
    );

  const pub = (rest) => `${server.base}/api/v1/web-chats/${chatId}/public/${rest}`;
  let serverErrors = 0;
  let failedTurns = 0;
  const turnMs = [];
  const visitors = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: VISITORS }, async (_, v) => {
      const headers = { "Content-Type": "application/json", "CF-Connecting-IP": `10.9.${v >> 8}.${v & 255}` };
      const session = await (await fetch(pub("session/"), { method: "POST", headers, body: "{}" })).json();
      const auth = { ...headers, Authorization: `Bearer ${session.token}` };
      const visitor = { conversationId: null, sent: [] };
      visitors.push(visitor);
      for (let i = 0; i < MESSAGES; i++) {
        const content = `visitor ${v} message ${i}`;
        const t0 = performance.now();
        const res = await fetch(pub("messages/"), {
          method: "POST",
          headers: auth,
          body: JSON.stringify({
            content,
            ...(visitor.conversationId ? { conversation: visitor.conversationId } : {}),
          }),
        });
        if (res.status >= 500) serverErrors++;
        if (res.status !== 200) {
          failedTurns++;
          await res.text();
          continue;
        }
        const { event, data } = await readReply(res);
        turnMs.push(performance.now() - t0);
        visitor.sent.push(content);
        if (event !== "message" || !data?.done || !data.message?.content) failedTurns++;
        visitor.conversationId ??= data?.conversationId ?? null;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  log(`${VISITORS * MESSAGES} turns in ${seconds.toFixed(1)} s; reading back`);

  let lost = failedTurns;
  let duplicated = 0;
  let gaps = 0;
  const ids = [];
  for (const visitor of visitors) {
    if (!visitor.conversationId) {
      lost += MESSAGES;
      continue;
    }
    const checked = checkConversation(await messagesOf(api, visitor.conversationId), visitor.sent);
    // Every message the visitor was answered for is stored, in the order sent.
    lost += checked.lost;
    duplicated += checked.duplicated;
    gaps += checked.gaps;
    ids.push(...checked.ids);
  }
  const hooks = await webhookOutcome(receiver, "/ok/load", ids);
  if (hooks.lost) for (const id of webhookIds) log(`webhook ${id} records: ${await deliveryTally(api, inbox.id, id)}`);
  const stored = ids.length;
  return [
    {
      fault: `${VISITORS} widget visitors x ${MESSAGES} messages at once`,
      operations: `${VISITORS * MESSAGES} turns, ${stored} messages, ${stored} webhook events`,
      lost: lost + hooks.lost + gaps,
      duplicated: duplicated + hooks.duplicated,
      recovery:
        `${(stored / seconds).toFixed(0)} messages/s stored; turn p50 ${percentile(turnMs, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(turnMs, 99).toFixed(0)} ms`,
      serverErrors,
      note:
        `sequence gaps ${gaps}, webhook events lost ${hooks.lost}, duplicated ${hooks.duplicated}, webhooks ` +
        `waited for ${(hooks.drainedMs / 1000).toFixed(0)} s after the read-back; failed turns ${failedTurns}`,
    },
  ];
}
