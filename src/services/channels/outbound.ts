// Replies out to the platforms (CONTRACT section 17). Each outgoing message of a messaging inbox
// gets a delivery row in its own batch (the outbox: an effect of the pipeline), and the channel
// queue sends a conversation's deliveries oldest first, one sender at a time (a lease on the
// oldest pending one): a reply waits for the one before it, a refused one (429, 5xx) is tried again
// after Retry-After or a back-off by a delayed queue message, any other refusal is recorded as failed
// and the next goes. The message's `metadata.channelDelivery` follows its row, written by the conversation's
// object after each write of the row (showDelivery). docs/decisions.md, "Messaging channels".
import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { prepared, ph, sqlStatement } from "../../db/prepared";
import {
  attachments,
  channelDeliveries,
  channelEvents,
  channelThreads,
  chatbots,
  inboxChannels,
  inboxes,
  webChats,
} from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { conflict, notFound } from "../../lib/errors";
import { conversationObject, type ConversationRow, type MessageRow } from "../conversations";
import { storedMessages, threadKeyOf } from "../messages";
import type { MessageEffect } from "../conversation/effects";
import { signedDownloadUrl } from "../uploads/urls";
import { uuidv7At } from "../webhooks/emit";
import { platformContext } from "./http";
import { enqueueWork } from "./inbound";
import { adapterFor } from "./platforms";
import { loadChannel, markChannel } from "./settings";
import { PlatformError, type OutboundMessage } from "./types";
import { isRatingAsk, RATING_CHOICES } from "../conversation/csat";
import { dataDb, dataDbs } from "../shards";
import { logError } from "../../lib/log";

/** How long one sender holds a conversation's deliveries. */
const LEASE_MS = 60_000;
/** Longest wait between two attempts of a refused reply (so an outage's end is noticed within it). */
export const MAX_BACKOFF_S = 60;
/** A reply still refused after this long is failed. */
const GIVE_UP_MS = 24 * 60 * 60 * 1000;
/** LINE's reply token is good for about a minute after the event: used only within this. */
const REPLY_TOKEN_MS = 50_000;

const insertOutbox = prepared<{
  organizationId: string;
  inboxId: string;
  conversationId: string;
  messageId: string;
  createdAt: number;
  status: "pending" | "failed";
  error: string | null;
}>((db) =>
  db
    .insert(channelDeliveries)
    .values({
      id: uuidv7At(ph("createdAt")),
      organizationId: ph("organizationId"),
      inboxId: ph("inboxId"),
      conversationId: ph("conversationId"),
      messageId: ph("messageId"),
      status: ph("status"),
      attempts: 0,
      nextAttemptAt: ph("createdAt"),
      leaseUntil: null,
      error: ph("error"),
      platformMessageIds: null,
      createdAt: ph("createdAt"),
      sentAt: null,
      // Shown by the conversation's object once its batch is stored, or the cron (see showState).
      shown: false,
    })
    .returning({ id: channelDeliveries.id }),
);

/**
 * The delivery's state as its message shows it (`metadata.channelDelivery`, CONTRACT section 17), read from its row;
 * none without a delivery. `platformMessageId` is the contract's field: the platform's id of the reply's first message
 * (null before one is sent); `platformMessageIds` every message a reply split at the platform's limit became.
 */
const deliveryStateOf =
  "SELECT json_object('status', status, 'attempts', attempts, 'error', error, " +
  "'platformMessageId', json_extract(platform_message_ids, '$[0]'), " +
  "'platformMessageIds', json(coalesce(platform_message_ids, '[]'))) AS state " +
  "FROM channel_deliveries WHERE message_id = ?1 ORDER BY created_at DESC LIMIT 1";

/**
 * The statements that read a delivery's current state and mark it shown, for its conversation's object to run in one
 * batch (Conversation.deliveryState) and then show the state on the message in its store: the state shown is the one
 * marked. They read the row rather than take a state: a call that comes late, twice, or after a later write only
 * shows the latest state again.
 */
export const showDelivery = (data: Db, messageId: string) => [
  sqlStatement(data, deliveryStateOf).bind(messageId),
  sqlStatement(data, "UPDATE channel_deliveries SET shown = 1 WHERE message_id = ?1 AND shown = 0").bind(messageId),
];

/**
 * Tells the message's conversation object that its delivery's state was written (the row marked not shown in the
 * same statement). Safe to fail: the row stays marked until an object's copy clears it, and the housekeeping cron
 * tells the object again (unshownDeliveries), so the state still reaches the message; never rejects.
 */
export async function showState(
  env: Bindings,
  delivery: Pick<DeliveryRow, "organizationId" | "conversationId" | "messageId">,
) {
  try {
    await conversationObject(env, delivery.conversationId).deliveryState(
      delivery.organizationId,
      delivery.conversationId,
      delivery.messageId,
    );
  } catch (err) {
    logError("delivery state not shown on its message (the cron tries again)", {
      messageId: delivery.messageId,
      error: String((err as Error)?.message ?? err),
    });
  }
}

/** Deliveries whose message may not show their state (see showState): for the cron, on each data plane. */
export async function unshownDeliveries(data: Db, limit = 500) {
  return data
    .select({
      organizationId: channelDeliveries.organizationId,
      conversationId: channelDeliveries.conversationId,
      messageId: channelDeliveries.messageId,
    })
    .from(channelDeliveries)
    .where(eq(channelDeliveries.shown, false))
    .limit(limit);
}

/** Why a reply whose text renders to nothing on the platform (a rule, an empty code block alone) was not sent. */
export const NOTHING_TO_SHOW = "The reply has nothing the platform shows: its text is empty once formatted.";

/** Why a reply in a messaging inbox without its channel (never connected, or disconnected) was not sent. */
export const NOT_CONNECTED = "The inbox's channel is not connected: the reply was not sent.";

/**
 * The outbox: a delivery for each outgoing message of an inbox with a channel, in the message's batch (the channel is
 * the inbox's as the turn read it before the batch, `config`); the conversation's object shows it on the message once
 * stored. A messaging inbox without its channel gets a failed one, saying so: an operator's reply there went nowhere
 * and showed nothing. Other inboxes (web chat, API) have no statement.
 */
export const channelEffect: MessageEffect = {
  name: "channels",
  inBatch(db, conversation: ConversationRow, message: MessageRow, config) {
    if (message.type !== "outgoing" || (!config.channel && !config.platform)) return null;
    return insertOutbox(db, {
      organizationId: config.channel?.organizationId ?? conversation.organizationId,
      inboxId: conversation.inboxId,
      conversationId: conversation.id,
      messageId: message.id,
      createdAt: message.createdAt,
      ...(config.channel ? { status: "pending", error: null } : { status: "failed", error: NOT_CONNECTED }),
    });
  },
  stored({ env, waitUntil, messages: stored, organizationId }) {
    const due = new Set(
      stored.filter((m) => (m.result?.results as unknown[] | undefined)?.length).map((m) => m.conversation.id),
    );
    if (due.size)
      waitUntil(
        enqueueWork(
          env,
          [...due].map((conversationId) => ({ kind: "deliver" as const, conversationId, organizationId })),
        ),
      );
  },
};

type DeliveryRow = typeof channelDeliveries.$inferSelect;

/**
 * Sends the conversation's due deliveries, oldest first, while this run holds the lease on the
 * oldest pending one. Stops at one the platform refused for now (queued again for its time). The deliveries are on
 * `data` (the conversation's part of its organization's data plane), the channels and assistants on `db`.
 */
export async function deliverConversation(
  env: Bindings,
  db: Db,
  data: Db,
  conversationId: string,
  now = () => Date.now(),
): Promise<void> {
  for (;;) {
    const at = now();
    const head = data
      .select({ id: channelDeliveries.id })
      .from(channelDeliveries)
      .where(and(eq(channelDeliveries.conversationId, conversationId), eq(channelDeliveries.status, "pending")))
      .orderBy(asc(channelDeliveries.id))
      .limit(1);
    const [claimed] = await data
      .update(channelDeliveries)
      .set({ leaseUntil: at + LEASE_MS, attempts: sql`${channelDeliveries.attempts} + 1`, shown: false })
      .where(
        and(
          eq(channelDeliveries.id, sql`(${head})`),
          sql`${channelDeliveries.nextAttemptAt} <= ${at}`,
          or(sql`${channelDeliveries.leaseUntil} is null`, lt(channelDeliveries.leaseUntil, at)),
        ),
      )
      .returning();
    if (!claimed) {
      const [waiting] = await data
        .select()
        .from(channelDeliveries)
        .where(eq(channelDeliveries.id, sql`(${head})`));
      // Not yet due and no one holds it: its time is queued (a queue message may have been lost meanwhile).
      if (waiting && waiting.nextAttemptAt > at && (waiting.leaseUntil === null || waiting.leaseUntil < at)) {
        const work = { kind: "deliver" as const, conversationId, organizationId: waiting.organizationId };
        await enqueueWork(env, [work], Math.ceil((waiting.nextAttemptAt - at) / 1000));
      }
      return;
    }
    // Its attempts shown while it is sent.
    const shown = showState(env, claimed);
    const next = await send(env, db, data, claimed, now);
    await shown;
    if (!next) return;
  }
}

/** One attempt; true when the next delivery may go (this one sent or failed for good). */
async function send(env: Bindings, db: Db, data: Db, delivery: DeliveryRow, now: () => number): Promise<boolean> {
  const done = async (set: Partial<DeliveryRow>) => {
    await data
      .update(channelDeliveries)
      .set({ leaseUntil: null, ...set, shown: false })
      .where(eq(channelDeliveries.id, delivery.id));
    await showState(env, delivery);
  };
  const channel = await loadChannel(env, db, delivery.inboxId);
  // The reply and the latest message from the platform, in one read of the conversation's object.
  const [message, latest] = await storedMessages(env, delivery.organizationId, delivery.conversationId).lookup([
    { id: delivery.messageId },
    { latest: { type: "incoming", threadKey: true } },
  ]);
  // The chat and the files are the organization's, in its own shard; the delivery is in its conversation's part
  // (services/shards/parts.ts): for most organizations one database.
  const home = await dataDb(env, delivery.organizationId);
  const thread = message ? await threadOf(home, delivery, latest) : null;
  // A reply older than its channel was queued for a connection since disconnected (the row is made anew on the next
  // save): never sent through another bot or account (docs/decisions.md, "Disconnecting a channel").
  const missing =
    !channel || delivery.createdAt < channel.row.createdAt
      ? "The inbox's channel was disconnected before this reply was sent."
      : !message
        ? "The message was deleted."
        : !thread
          ? "The conversation has no platform chat to answer (it was not started on the platform)."
          : null;
  if (missing || !channel || !message || !thread) {
    await done({ status: "failed", error: missing });
    return true;
  }
  const adapter = await adapterFor(channel.config.platform);
  const outbound = await outboundMessage(env, db, home, channel.row.origin, delivery, message, thread, now());
  try {
    const ids = await adapter.send(platformContext(env, channel.config), outbound);
    // Nothing went out (its text renders to nothing there, and it has no file): not "sent", which it read as.
    if (!ids.length) {
      await done({ status: "failed", error: NOTHING_TO_SHOW });
      return true;
    }
    await done({ status: "sent", error: null, platformMessageIds: ids, sentAt: now() });
    // A reply token is good once: this one is spent (a newer event's, kept meanwhile, stays).
    if (outbound.replyToken) {
      await home
        .update(channelThreads)
        .set({ context: sql`json_remove(${channelThreads.context}, '$.replyToken', '$.replyTokenAt')` })
        .where(
          and(
            eq(channelThreads.inboxId, delivery.inboxId),
            eq(channelThreads.threadKey, thread.threadKey),
            sql`json_extract(${channelThreads.context}, '$.replyToken') = ${outbound.replyToken}`,
          ),
        );
    }
    if (channel.row.status === "failing") await markChannel(db, delivery.inboxId, "connected", null);
    return true;
  } catch (err) {
    if (!(err instanceof PlatformError)) {
      await done({ error: String((err as Error)?.message ?? err) });
      throw err;
    }
    const at = now();
    // The parts of a long reply the platform took before refusing: kept, so no attempt sends them again.
    const partly = err.sent?.length ? { platformMessageIds: err.sent } : {};
    if (err.retryable && at - delivery.createdAt < GIVE_UP_MS) {
      const wait = err.retryAfterSeconds ?? Math.min(MAX_BACKOFF_S, 2 ** Math.max(0, delivery.attempts - 1));
      await done({ error: err.message, nextAttemptAt: at + wait * 1000, ...partly });
      const { conversationId, organizationId } = delivery;
      await enqueueWork(env, [{ kind: "deliver", conversationId, organizationId }], Math.max(1, Math.ceil(wait)));
      return false;
    }
    await done({ status: "failed", error: err.message, ...partly });
    if (err.credentialsRefused) await markChannel(db, delivery.inboxId, "failing", err.message);
    return true;
  }
}

/** The chat as a reply needs it, with the time the visitor last wrote in it (Meta's 24-hour window). */
type ThreadRow = typeof channelThreads.$inferSelect & { lastInboundAt: number };

/**
 * The platform chat a conversation answers: the one its `latest` message from the platform came
 * from (a resolved conversation keeps its chat though the chat has moved on to a new conversation).
 */
async function threadOf(data: Db, delivery: DeliveryRow, latest: MessageRow | null): Promise<ThreadRow | null> {
  if (!latest) return null;
  const [thread] = await data
    .select()
    .from(channelThreads)
    .where(and(eq(channelThreads.inboxId, delivery.inboxId), eq(channelThreads.threadKey, threadKeyOf(latest))));
  return thread ? { ...thread, lastInboundAt: latest.createdAt } : null;
}

/** The reply as the platform's module gets it: text, sources, files, and what the chat's context holds. */
async function outboundMessage(
  env: Bindings,
  db: Db,
  data: Db,
  origin: string,
  delivery: DeliveryRow,
  message: MessageRow,
  thread: ThreadRow,
  at: number,
): Promise<OutboundMessage> {
  const context = (thread.context ?? {}) as Record<string, unknown>;
  const fresh =
    typeof context.replyToken === "string" &&
    typeof context.replyTokenAt === "number" &&
    at - context.replyTokenAt < REPLY_TOKEN_MS;
  const citations = ((message.citations ?? []) as { title?: unknown; url?: unknown; source?: unknown }[])
    .map((c) => ({
      title: String(c.title ?? ""),
      url: typeof c.url === "string" ? c.url : typeof c.source === "string" ? c.source : "",
    }))
    .filter((c) => /^https?:\/\//.test(c.url));
  // Our files by a URL the platform can fetch for a day; others as the message names them.
  const named = (message.attachments ?? []) as {
    id?: unknown;
    file?: unknown;
    filename?: unknown;
    contentType?: unknown;
  }[];
  const ids = named.map((a) => a.id).filter((id): id is string => typeof id === "string");
  const keys = new Map(
    ids.length
      ? (
          await data
            .select({ id: attachments.id, key: attachments.key })
            .from(attachments)
            // A message names only its organization's files (services/uploads/attachments.ts), but the shard holds
            // other organizations' too: the sender looks among this one's, whatever a stored message says.
            .where(and(eq(attachments.organizationId, delivery.organizationId), inArray(attachments.id, ids)))
        ).map((r) => [r.id, r.key])
      : [],
  );
  const files = await Promise.all(
    named.map(async (a) => {
      const key = typeof a.id === "string" ? keys.get(a.id) : undefined;
      return {
        url: key ? await signedDownloadUrl(env, origin, key, 24 * 3600) : String(a.file ?? ""),
        filename: String(a.filename ?? "file"),
        contentType: String(a.contentType ?? "application/octet-stream"),
      };
    }),
  );
  const rating = isRatingAsk(message.contentPayload);
  return {
    deliveryId: delivery.id,
    threadKey: thread.threadKey,
    text: message.content,
    citations,
    quickReplies: rating
      ? RATING_CHOICES
      : message.senderType === "chatbot" && message.sequence <= 2
        ? await startersOf(db, delivery.inboxId)
        : [],
    ...(rating ? { rating } : {}),
    attachments: files.filter((f) => /^https?:\/\//.test(f.url)),
    ...(fresh ? { replyToken: context.replyToken as string } : {}),
    thread: context as OutboundMessage["thread"],
    senderName: message.senderName,
    fromPerson: message.senderType === "user",
    lastInboundAt: thread.lastInboundAt,
    at,
    // A long reply an earlier attempt got partly out: the rest goes (sendInOrder).
    sent: delivery.platformMessageIds ?? [],
  };
}

/** The assistant's conversation starters (its web chats' `displayConversationStarters`): quick replies under its first
 * answer. */
async function startersOf(db: Db, inboxId: string): Promise<string[]> {
  const rows = await db
    .select({ settings: webChats.settings })
    .from(inboxes)
    .innerJoin(chatbots, eq(chatbots.id, inboxes.chatbotId))
    .innerJoin(sql`${inboxes} as chat_inboxes`, sql`chat_inboxes.chatbot_id = ${chatbots.id}`)
    .innerJoin(webChats, sql`${webChats.inboxId} = chat_inboxes.id`)
    .where(eq(inboxes.id, inboxId))
    .limit(1);
  return (rows[0]?.settings.displayConversationStarters ?? []).filter((s) => s.trim()).slice(0, 13);
}

/**
 * A failed delivery of the organization's (in one of its data plane's `parts`, newest first: the message's
 * conversation's) sent again (the console's Retry): it goes before the conversation's later ones. Refused (409) when
 * the inbox's channel was disconnected since the reply was queued: it was written for the old bot's or account's chat
 * (docs/decisions.md, "Disconnecting a channel"). The retry starts the reply's time to give up afresh, so the sender's
 * own check of its age against the channel's cannot tell the two connections apart once it is queued again.
 */
export async function retryDelivery(
  env: Bindings,
  db: Db,
  parts: Db[],
  organizationId: string,
  messageId: string,
): Promise<void> {
  let found: { data: Db; delivery: typeof channelDeliveries.$inferSelect } | null = null;
  for (const data of parts) {
    const [delivery] = await data
      .select()
      .from(channelDeliveries)
      .where(and(eq(channelDeliveries.messageId, messageId), eq(channelDeliveries.organizationId, organizationId)));
    if (delivery) found = { data, delivery };
    if (found) break;
  }
  if (!found) throw notFound("This message has no delivery to a messaging platform.");
  const { data, delivery } = found;
  if (delivery.status !== "failed")
    throw conflict(
      delivery.status === "sent" ? "The message was delivered already." : "The message is on its way already.",
    );
  const [channel] = await db
    .select({ createdAt: inboxChannels.createdAt })
    .from(inboxChannels)
    .where(eq(inboxChannels.inboxId, delivery.inboxId));
  if (!channel || delivery.createdAt < channel.createdAt)
    throw conflict(
      "The inbox's channel was disconnected since this reply was queued: it was written for the chat of the " +
        "connection before, and is not sent through another bot or account.",
    );
  await data
    .update(channelDeliveries)
    .set({
      status: "pending",
      nextAttemptAt: Date.now(),
      error: null,
      attempts: 0,
      createdAt: Date.now(),
      shown: false,
    })
    .where(eq(channelDeliveries.id, delivery.id));
  await showState(env, delivery);
  await enqueueWork(env, [{ kind: "deliver", conversationId: delivery.conversationId, organizationId }]);
}

/** Conversations with deliveries nobody is sending though they are due (a lost queue message, a dead sender), with
 * their organization: for the cron, on each data plane. */
export async function strandedDeliveries(data: Db, now = Date.now()) {
  return data
    .selectDistinct({
      conversationId: channelDeliveries.conversationId,
      organizationId: channelDeliveries.organizationId,
    })
    .from(channelDeliveries)
    .where(
      and(
        eq(channelDeliveries.status, "pending"),
        lt(channelDeliveries.nextAttemptAt, now - 60_000),
        or(sql`${channelDeliveries.leaseUntil} is null`, lt(channelDeliveries.leaseUntil, now)),
      ),
    )
    .limit(500);
}

/** Housekeeping: messaging channels' events and replies the queue never heard of (a refused hand-over, a lost
 * message), on each data plane, queued again with their organization. */
export async function requeueChannelWork(env: Bindings, now = Date.now()): Promise<void> {
  for (const data of dataDbs(env)) {
    const events = await data
      .select({
        inboxId: channelEvents.inboxId,
        eventId: channelEvents.eventId,
        organizationId: channelEvents.organizationId,
      })
      .from(channelEvents)
      .where(and(eq(channelEvents.status, "pending"), lt(channelEvents.receivedAt, now - 60_000)))
      .limit(500);
    const conversations = await strandedDeliveries(data, now);
    await enqueueWork(env, [
      ...events.map((e) => ({ kind: "event" as const, ...e })),
      ...conversations.map((c) => ({ kind: "deliver" as const, ...c })),
    ]);
  }
}
