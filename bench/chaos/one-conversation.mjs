// One conversation receiving messages as fast as its clients can send them: CLIENTS concurrent
// clients, each sending its next message as soon as the last is accepted, first as direct
// completions (the reply in the answer), then as `POST /messages/` (201 once stored; the reply
// follows asynchronously). Afterwards: every message stored once, gapless, in arrival order (a
// message accepted before another was sent has the lower sequence; each client's in its order),
// every message answered once, and every message and reply delivered once to the inbox's webhooks.
import { startReceiver } from "../../test/support/webhook-receiver.mjs";
import { checkConversation, deliveryTally, LOCAL_LLM, messagesOf, webhookOutcome } from "./_conversations.mjs";

const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 16);
const PER_CLIENT = Number(process.env.CHAOS_CLIENT_MESSAGES ?? 50);

export const description =
  `one conversation, ${CLIENTS} clients sending ${PER_CLIENT} messages each as fast as accepted: completions, ` +
  `then POST /messages/ (goal 500 messages/s)`;

export async function prepare() {
  const receiver = await startReceiver();
  return {
    vars: { WEBHOOK_ALLOWED_HOSTS: new URL(receiver.url).host },
    context: { receiver },
    close: () => receiver.close(),
  };
}

/** Messages accepted before `m` was sent must have a lower sequence: the count of pairs that do not. */
function arrivalOrderErrors(sent, sequenceOf) {
  const byAnswer = [...sent].sort((a, b) => a.answeredAt - b.answeredAt);
  let errors = 0;
  let k = 0;
  let highest = 0;
  for (const m of [...sent].sort((a, b) => a.sentAt - b.sentAt)) {
    while (k < byAnswer.length && byAnswer[k].answeredAt < m.sentAt)
      highest = Math.max(highest, sequenceOf.get(byAnswer[k++].content) ?? 0);
    if ((sequenceOf.get(m.content) ?? Infinity) < highest) errors++;
  }
  return errors;
}

async function burst({ api, request, receiver, bot, webhookIds, via, log }) {
  const { conversationId } = await api("POST", `/chatbots/${bot.id}/completions/`, {
    message: { content: `${via}: start` },
  });
  const sent = [];
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; i < PER_CLIENT; i++) {
        const content = `${via}: client ${c} message ${i}`;
        const sentAt = performance.now();
        const res =
          via === "completions"
            ? await request("POST", `/chatbots/${bot.id}/completions/`, {
                conversation: conversationId,
                message: { content },
              })
            : await request("POST", "/messages/", { conversation: conversationId, content });
        if (res.status !== (via === "completions" ? 200 : 201)) refused++;
        else sent.push({ content, sentAt, answeredAt: performance.now() });
      }
    }),
  );
  const accepted = performance.now();
  // POST /messages/: the last replies follow their receipts.
  let messages = await messagesOf(api, conversationId);
  const expected = 2 * (sent.length + 1);
  for (let i = 0; i < 200 && messages.length < expected; i++) {
    await new Promise((r) => setTimeout(r, 100));
    messages = await messagesOf(api, conversationId);
  }
  const allStored = performance.now();
  const incoming = messages.filter((m) => m.type === "incoming");
  const sequenceOf = new Map(incoming.map((m) => [m.content, m.sequence]));
  const checked = checkConversation(messages, [`${via}: start`, ...sent.map((s) => s.content)]);
  const orderErrors = arrivalOrderErrors(sent, sequenceOf);
  // Each client's own messages in the order it sent them.
  let clientOrderErrors = 0;
  for (let c = 0; c < CLIENTS; c++) {
    const mine = incoming
      .filter((m) => m.content.startsWith(`${via}: client ${c} `))
      .map((m) => Number(m.content.split(" ").at(-1)));
    clientOrderErrors += mine.filter((n, i) => i && n < mine[i - 1]).length;
  }
  const hooks = await webhookOutcome(receiver, `/ok/${via}`, checked.ids);
  if (hooks.lost)
    for (const id of webhookIds) log(`webhook ${id} records: ${await deliveryTally(api, bot.defaultInbox.id, id)}`);
  const acceptSeconds = (accepted - started) / 1000;
  log(
    `${via}: ${sent.length} accepted in ${acceptSeconds.toFixed(2)} s, all ${messages.length} stored after ` +
      `${((allStored - started) / 1000).toFixed(2)} s`,
  );
  return {
    fault:
      `one conversation, ${CLIENTS} clients at once: ` +
      `${via === "completions" ? "direct completions" : "POST /messages/ (async replies)"}`,
    operations: `${sent.length + refused} messages, ${messages.length} stored, ${checked.ids.length} webhook events`,
    lost: checked.lost + checked.gaps + orderErrors + clientOrderErrors + hooks.lost + refused,
    duplicated: checked.duplicated + hooks.duplicated,
    recovery:
      `${(sent.length / acceptSeconds).toFixed(0)} messages/s accepted, ` +
      `${(messages.length / ((allStored - started) / 1000)).toFixed(0)} messages/s stored (with replies)`,
    note:
      `refused ${refused}, sequence gaps ${checked.gaps}, arrival-order errors ` +
      `${orderErrors + clientOrderErrors}, webhook events lost ${hooks.lost}, duplicated ${hooks.duplicated}, ` +
      `webhooks waited for ${(hooks.drainedMs / 1000).toFixed(0)} s after the read-back`,
  };
}

export default async function ({ api, request, receiver, log }) {
  const rows = [];
  for (const via of ["completions", "messages"]) {
    const bot = await api("POST", "/chatbots/", { name: `Burst ${via}`, largeLanguageModel: LOCAL_LLM });
    const webhookIds = [];
    for (const direction of ["incoming", "outgoing"])
      webhookIds.push(
        (
          await api("POST", `/inboxes/${bot.defaultInbox.id}/webhooks/`, {
            name: direction,
            direction,
            url: `${receiver.url}/ok/${via}`,
          })
        ).id,
      );
    rows.push(await burst({ api, request, receiver, bot, webhookIds, via, log }));
  }
  return rows;
}
