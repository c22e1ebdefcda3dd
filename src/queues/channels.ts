import type { Bindings } from "../env";
import { getDb } from "../db";
import type { ChannelWork } from "../services/channels/inbound";
import { takeInEvents } from "../services/channels/intake";
import { deliverConversation } from "../services/channels/outbound";
import { byDataDb } from "./data-plane";
import { ack, backoffSeconds, retry } from "./settle";
import { logError, logWarn } from "../lib/log";

/** Work that failed is tried again after 5, 10, 20 ... s, at most 5 minutes (the cron takes over past the queue's
 * retries). */
const RETRY = { first: 5, max: 300 };

/**
 * Messaging channels' work (services/channels): events taken in, chat by chat in order; each
 * conversation's due replies sent. A delivery waits by a delayed message of its own (outbound.ts),
 * so a queue retry here only follows an unexpected failure. Each work is done on its organization's data plane; one
 * sent before messages named it, on each (where its rows are not, it finds nothing to do).
 */
export async function consumeChannelWork(batch: MessageBatch, env: Bindings, ctx: ExecutionContext) {
  const db = getDb(env.DB);
  const events: { message: Message; inboxId: string; eventId: string; organizationId?: string }[] = [];
  const conversations = new Map<string, { organizationId?: string; messages: Message[] }>();
  for (const message of batch.messages) {
    const work = message.body as ChannelWork;
    if (work?.kind === "event") events.push({ message, ...work });
    else if (work?.kind === "deliver") {
      const seen = conversations.get(work.conversationId);
      conversations.set(work.conversationId, {
        organizationId: seen?.organizationId ?? work.organizationId,
        messages: [...(seen?.messages ?? []), message],
      });
    } else {
      logWarn("channel queue message of no known kind dropped", {
        body: String(JSON.stringify(message.body)).slice(0, 200),
      });
      ack(message);
    }
  }
  const takeIn = async () => {
    const failed = new Set<string>();
    for (const [data, part] of await byDataDb(env, events, (e) => e.organizationId))
      for (const id of await takeInEvents(env, db, data, part, (p) => ctx.waitUntil(p))) failed.add(id);
    return failed;
  };
  const deliver = async (conversationId: string, organizationId: string | undefined) => {
    for (const data of (
      await byDataDb(
        env,
        [conversationId],
        () => organizationId,
        (id) => id,
      )
    ).keys())
      await deliverConversation(env, db, data, conversationId);
  };
  await Promise.all([
    events.length &&
      takeIn().then((failed) => {
        for (const e of events)
          if (failed.has(e.eventId)) retry(e.message, backoffSeconds(e.message.attempts, RETRY));
          else ack(e.message);
      }),
    ...[...conversations].map(([conversationId, { organizationId, messages }]) =>
      deliver(conversationId, organizationId).then(
        () =>
          messages.forEach((m) => {
            ack(m);
          }),
        (err) => {
          logError("channel delivery failed", { conversationId, error: String((err as Error)?.stack ?? err) });
          messages.forEach((m) => {
            retry(m, backoffSeconds(m.attempts, RETRY));
          });
        },
      ),
    ),
  ]);
}
