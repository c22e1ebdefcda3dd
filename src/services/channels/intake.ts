// Events kept by inbound.ts become messages of the conversation pipeline: the sender a contact of
// the inbox, the chat a conversation (a new one after the last was resolved), files in R2, and the
// message posted to the conversation's object like a widget's (CONTRACT section 17). Run by the
// channel queue; every step may run again (a redelivered queue message, a crash) without a second
// contact, conversation or message: their ids are derived from the platform's ids (stableUuidv7),
// the conversation of a chat changes only from the one the step read, and an event whose run got as
// far as posting its message asks the chat's conversation object whether it is stored (docs/decisions.md,
// "Messaging channels").
import { and, asc, eq, inArray, isNotNull, isNull, lt, notExists, or, sql } from "drizzle-orm";
import {
  attachments,
  channelEvents,
  channelThreads,
  contactInboxes,
  contacts,
  conversations,
  inboxes,
  uploads,
} from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { stableUuidv7, uuidv7 } from "../../lib/ids";
import { readAtMost } from "../../lib/http";
import { type JsonObject, ownValue } from "../../lib/json";
import { conversationObject, newConversation, type ConversationRow } from "../conversations";
import { channelRating } from "../conversation/csat";
import { conversationDb } from "../shards/parts";
import { assistantRefusal } from "../assistant-refusal";
import { messageAttachment, type AttachmentRow } from "../records/attachments";
import { extractLater } from "../uploads/reading";
import { fileTypeOf } from "../parsing";
import { contentTypeFor, mediaType } from "../uploads/file-specs";
import { inferType } from "../uploads/attachments";
import { safeFilename } from "../uploads/store";
import { countUploads, type NewUpload, uploadRoom } from "../uploads/allowance";
import { chunk } from "../../lib/sql";
import { fromBase64 } from "../../lib/base64";
import { MESSAGE_URL_TTL_SECONDS } from "../uploads/settings";
import { signedDownloadUrl } from "../uploads/urls";
import { storedMessages } from "../messages";
import { platformContext } from "./http";
import type { StoredEvent } from "./inbound";
import { adapterFor } from "./platforms";
import { loadChannel } from "./settings";
import {
  PlatformError,
  type AnyChannelAdapter,
  type ChannelConfig,
  type InboundAttachment,
  type PlatformContext,
} from "./types";
import { logError, logWarn } from "../../lib/log";

/** Largest file taken from a platform (the attachment spec's size). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** After this many failed attempts an event is set aside (`ignored`, with its error) instead of tried again (about a
 * day of back-off). */
export const MAX_EVENT_ATTEMPTS = 300;
/** After this many, a file the platform cannot give now is left out (said in the message) rather than holding the
 * message back. */
const FILE_ATTEMPTS = 3;
/** How long a run holds a chat (leaseChat), renewed at each of its events: longer than an event's steps (each platform
 * call has 15 s, a message may bring several files), short enough that a run that died holds its chat back briefly. */
const CHAT_LEASE_MS = 120_000;

type EventRow = typeof channelEvents.$inferSelect;

/**
 * Takes in the named events' chats: each chat's pending events one after the other, in the order the
 * platform says they happened (then as received, then as their request listed them), whichever queue message or
 * request brought them first, so overlapping deliveries of one chat cannot swap its messages; chats side by side, each
 * by one run at a time (leaseChat). The events, chats, contacts, conversations and files are on `data` (the inboxes'
 * organization's data plane), the channels and inboxes on `db`. Returns the ids that failed, and those of chats
 * another run holds (to be tried again).
 */
export async function takeInEvents(
  env: Bindings,
  db: Db,
  data: Db,
  refs: { inboxId: string; eventId: string }[],
  waitUntil: (p: Promise<unknown>) => void,
): Promise<Set<string>> {
  const failed = new Set<string>();
  const byInbox = new Map<string, string[]>();
  for (const r of refs) byInbox.set(r.inboxId, [...(byInbox.get(r.inboxId) ?? []), r.eventId]);
  const rows: EventRow[] = [];
  for (const [inboxId, ids] of byInbox) {
    for (let i = 0; i < ids.length; i += 90) {
      rows.push(
        ...(await data
          .select()
          .from(channelEvents)
          .where(
            and(
              eq(channelEvents.inboxId, inboxId),
              inArray(channelEvents.eventId, ids.slice(i, i + 90)),
              eq(channelEvents.status, "pending"),
            ),
          )),
      );
    }
  }
  // The named events by chat: each chat is taken in by one run at a time (its lease, leaseChat), from its oldest
  // pending event as read once the chat is held.
  const chats = new Map<string, { first: EventRow; threadKey: string; named: string[] }>();
  for (const row of rows) {
    const threadKey = row.threadKey ?? (row.payload as unknown as StoredEvent).threadKey;
    const key = `${row.inboxId}\n${threadKey}`;
    const chat = chats.get(key) ?? { first: row, threadKey, named: [] };
    chat.named.push(row.eventId);
    chats.set(key, chat);
  }
  await Promise.all(
    [...chats.values()].map(async ({ first, threadKey, named }) => {
      const holder = crypto.randomUUID();
      if (!(await leaseChat(data, first, threadKey, holder))) {
        // Another run is taking this chat in: its events stay pending for a later run (the queue's retry, else the
        // cron's), which may take in what came after that run read the chat.
        for (const id of named) failed.add(id);
        return;
      }
      try {
        const chat = await pendingOf(data, first, threadKey);
        for (const [i, row] of chat.entries()) {
          // Held again for each event: a run slower than the lease (a chat of many files) must not run beside the next.
          if (i > 0 && !(await leaseChat(data, first, threadKey, holder))) {
            for (const later of chat.slice(i)) failed.add(later.eventId);
            return;
          }
          try {
            await takeIn(env, db, data, row, waitUntil);
          } catch (err) {
            // The rest of this chat waits for it: its messages must not overtake it.
            for (const later of chat.slice(i)) failed.add(later.eventId);
            await setBack(data, row, err);
            if (!(err instanceof PlatformError) && !(err instanceof IntakeError))
              logError("channel event not taken in", {
                eventId: row.eventId,
                error: String((err as Error)?.stack ?? err),
              });
            return;
          }
        }
      } finally {
        await releaseChat(data, first, threadKey, holder);
      }
    }),
  );
  return failed;
}

/**
 * A chat's pending events, oldest first: the platform's time, then as received, then as their request listed them
 * (WhatsApp, Telegram and e-mail give whole seconds, and one request's events share their receiving time). An event
 * kept before its chat was a column of its row is its own chat.
 */
async function pendingOf(data: Db, row: EventRow, threadKey: string): Promise<EventRow[]> {
  const pending = await data
    .select()
    .from(channelEvents)
    .where(
      and(
        eq(channelEvents.inboxId, row.inboxId),
        eq(channelEvents.threadKey, threadKey),
        eq(channelEvents.status, "pending"),
      ),
    )
    .orderBy(
      asc(channelEvents.at),
      asc(channelEvents.receivedAt),
      asc(channelEvents.position),
      asc(channelEvents.eventId),
    )
    .limit(200);
  if (pending.length || row.threadKey !== null) return pending;
  return data
    .select()
    .from(channelEvents)
    .where(
      and(
        eq(channelEvents.inboxId, row.inboxId),
        eq(channelEvents.eventId, row.eventId),
        eq(channelEvents.status, "pending"),
      ),
    );
}

/**
 * Holds the chat for this run (`holder`) for CHAT_LEASE_MS, or for longer when it holds it already: an `UPDATE ...
 * RETURNING` of its row (made for a chat's first event), D1's single writer making the claim atomic, as the sender's
 * lease on a conversation's deliveries (outbound.ts). False when another run holds it. Two runs of one chat at once
 * (two queue batches holding its events, the cron queueing again an event a run still holds) each took its events in:
 * a new chat's first message opened two conversations, a message was answered twice.
 */
async function leaseChat(data: Db, row: EventRow, threadKey: string, holder: string): Promise<boolean> {
  const now = Date.now();
  const until = now + CHAT_LEASE_MS;
  const [held] = await data
    .insert(channelThreads)
    .values({
      inboxId: row.inboxId,
      threadKey,
      organizationId: row.organizationId,
      leaseUntil: until,
      leaseHolder: holder,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [channelThreads.inboxId, channelThreads.threadKey],
      set: { leaseUntil: until, leaseHolder: holder },
      setWhere: or(
        isNull(channelThreads.leaseUntil),
        lt(channelThreads.leaseUntil, now),
        eq(channelThreads.leaseHolder, holder),
      ),
    })
    .returning({ holder: channelThreads.leaseHolder });
  return held?.holder === holder;
}

/** Lets the chat go: the next run takes it at once. A chat that opened no conversation (its events set aside) keeps no
 * row. A failure is logged: the lease ends by itself. */
async function releaseChat(data: Db, row: EventRow, threadKey: string, holder: string) {
  const mine = and(
    eq(channelThreads.inboxId, row.inboxId),
    eq(channelThreads.threadKey, threadKey),
    eq(channelThreads.leaseHolder, holder),
  );
  try {
    await data.batch([
      data.delete(channelThreads).where(and(mine, isNull(channelThreads.conversationId))),
      data.update(channelThreads).set({ leaseUntil: null, leaseHolder: null }).where(mine),
    ]);
  } catch (err) {
    logWarn("channel chat's lease not released", { threadKey, error: String(err) });
  }
}

/** A step that cannot succeed yet (the conversation is being created by another run). */
class IntakeError extends Error {}

async function setBack(data: Db, row: EventRow, err: unknown) {
  const attempts = row.attempts + 1;
  const status = attempts >= MAX_EVENT_ATTEMPTS ? "ignored" : "pending";
  await data
    .update(channelEvents)
    .set({ attempts, status, error: String((err as Error)?.message ?? err).slice(0, 500) })
    .where(and(eq(channelEvents.inboxId, row.inboxId), eq(channelEvents.eventId, row.eventId)));
}

async function takeIn(env: Bindings, db: Db, data: Db, row: EventRow, waitUntil: (p: Promise<unknown>) => void) {
  let event = row.payload as unknown as StoredEvent;
  const ofEvent = and(eq(channelEvents.inboxId, row.inboxId), eq(channelEvents.eventId, row.eventId));
  const channel = await loadChannel(env, db, row.inboxId);
  // An event older than its channel was kept for a connection since disconnected (the row is made anew on the next
  // save): never taken in through another bot or account, which would answer that one's user (a Telegram private
  // chat's id is the user's, the same for every bot). As a reply's delivery (docs/decisions.md, "Disconnecting a
  // channel").
  if (!channel || row.receivedAt < channel.row.createdAt)
    return void (await data
      .update(channelEvents)
      .set({ status: "ignored", error: "The inbox's channel was disconnected." })
      .where(ofEvent));
  const adapter = await adapterFor(channel.config.platform);
  const ctx = platformContext(env, channel.config);
  if (adapter.chatOf) {
    // An event naming a message or a file, not its chat (a Slack reaction), goes to the chat the platform says.
    try {
      event = { ...event, ...(await adapter.chatOf(ctx, event)) };
    } catch (err) {
      if (!(err instanceof PlatformError) || err.retryable) throw err;
      // The platform will not say (the message deleted since, a scope the app lacks): there is no chat to add it to.
      return void (await data
        .update(channelEvents)
        .set({ status: "ignored", error: `Its chat is unknown: ${err.message}`.slice(0, 500) })
        .where(ofEvent));
    }
  }
  const messageId = await stableUuidv7(`message\n${row.inboxId}\n${row.eventId}`, event.receivedAt);
  // Asked only of an event a run got as far as posting, or one that failed before (a run older than the naming may
  // have posted it): a first run costs nothing more.
  const earlier = row.messageId !== null || row.attempts > 0;
  if (!(earlier && (await posted(env, data, channel.config, event, messageId)))) {
    const [inbox] = await db.select({ chatbotId: inboxes.chatbotId }).from(inboxes).where(eq(inboxes.id, row.inboxId));
    // A tapped button is answered at once, whatever comes of it, so the visitor's client stops waiting.
    if (event.tapId && adapter.acknowledge)
      waitUntil(adapter.acknowledge(ctx, event.tapId).catch((err) => logUnless(err, "button tap not acknowledged")));
    if (await ratingAnswer(env, data, channel.config, event, waitUntil)) {
      await data.update(channelEvents).set({ status: "stored", error: null }).where(ofEvent);
      return;
    }
    if (event.reaction && !(await openConversation(env, data, channel.config, event))) {
      // A reaction belongs to the messages it answers: it opens no conversation of its own (after a resolved one, a
      // thumbs-up to the rating question would), and is set aside saying so.
      await data
        .update(channelEvents)
        .set({ status: "ignored", error: "A reaction with no open conversation to add it to." })
        .where(ofEvent);
      return;
    }
    const contact = await contactOf(data, adapter, ctx, event);
    const { conversation, created } = await conversationOf(
      env,
      data,
      channel.config,
      inbox?.chatbotId ?? null,
      event,
      contact.id,
      () => groupTitle(adapter, ctx, event),
    );
    const { rows: files, missing } = await takeFiles(
      env,
      data,
      adapter,
      ctx,
      conversation,
      { id: `${row.inboxId}\n${row.eventId}`, at: event.receivedAt, files: event.attachments },
      row.attempts + 1 >= FILE_ATTEMPTS,
    );
    const origin = channel.row.origin;
    const stored = await Promise.all(
      files.map(async (f) =>
        messageAttachment(f, await signedDownloadUrl(env, origin, f.key, MESSAGE_URL_TTL_SECONDS)),
      ),
    );
    const replies = conversation.autoReplyEnabled && !!conversation.chatbotId && !event.reaction;
    if (replies && adapter.typing) waitUntil(adapter.typing(ctx, event.threadKey).catch((err) => logUnless(err)));
    const metadata: JsonObject = {
      channel: { type: channel.config.platform, eventId: row.eventId, threadKey: event.threadKey },
    };
    // What the reply needs to go out (LINE's reply token while fresh, e-mail's thread), kept before
    // the message is posted: its reply may be on its way the moment the message is stored.
    const context: JsonObject = {
      ...(event.thread ?? {}),
      ...(event.replyToken ? { replyToken: event.replyToken, replyTokenAt: event.receivedAt } : {}),
    };
    // The event names its message before the message is posted: a later run of it (this one died, or its post's
    // outcome is unknown) then looks for the message in the chat's conversation (see posted).
    const named = data.update(channelEvents).set({ messageId }).where(ofEvent);
    if (Object.keys(context).length) {
      const patched = data
        .update(channelThreads)
        .set({
          context: sql`json_patch(coalesce(${channelThreads.context}, '{}'), ${JSON.stringify(context)})`,
          updatedAt: Date.now(),
        })
        .where(and(eq(channelThreads.inboxId, row.inboxId), eq(channelThreads.threadKey, event.threadKey)));
      await data.batch([patched, named]);
    } else await named;
    await conversationObject(env, conversation.id).post({
      organizationId: conversation.organizationId,
      conversationId: conversation.id,
      refusal: replies ? await assistantRefusal(env, db, conversation.organizationId) : undefined,
      ...(event.reaction ? { silent: true } : {}),
      ...(created ? { created: conversation } : { conversation }),
      sender: { type: "contact", id: contact.id, name: contact.name, avatar: contact.avatar },
      message: {
        id: messageId,
        content: [event.text, ...missing].filter(Boolean).join("\n"),
        metadata,
        ...(stored.length ? { attachments: stored } : {}),
      },
    });
    extractLater(env, data, waitUntil, files);
  }
  await data.update(channelEvents).set({ status: "stored", messageId, error: null }).where(ofEvent);
}

/**
 * Whether a message an earlier run of the event posted (`messageId`, named on the event before its post) is stored:
 * asked of the chat's conversation object. A run posts to the chat's conversation, and the chat moves to another
 * one only by a later event of the chat, which waits for this one (takeInEvents): so it is that conversation's,
 * even when resolved since.
 */
async function posted(env: Bindings, data: Db, channel: ChannelConfig, event: StoredEvent, messageId: string) {
  const [thread] = await data
    .select({ conversationId: channelThreads.conversationId })
    .from(channelThreads)
    .where(and(eq(channelThreads.inboxId, channel.inboxId), eq(channelThreads.threadKey, event.threadKey)));
  if (!thread?.conversationId) return false;
  return !!(await storedMessages(env, channel.organizationId, thread.conversationId).find(messageId));
}

/**
 * The answer to the satisfaction question of the chat's resolved conversation (services/conversation/csat.ts):
 * kept as its rating, no message. A rating button tapped when no question waits is dropped: it is
 * no question of the visitor's. Typed, the answer is a bare digit and nothing else: a digit captioning a file (a
 * photo captioned "2") or a reaction is a message, which taken as the rating lost what came with it.
 */
async function ratingAnswer(
  env: Bindings,
  data: Db,
  channel: ChannelConfig,
  event: StoredEvent,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<boolean> {
  const typed = !event.attachments.length && !event.reaction && /^\s*[1-5]\s*$/.test(event.text);
  if (event.rating === undefined && !typed) return false;
  const current = await threadConversation(env, data, channel, event);
  const rated = current
    ? await channelRating(env, await conversationDb(env, channel.organizationId, current.id), waitUntil, current, event)
    : null;
  return !!rated || event.rating !== undefined;
}

/** The conversation the chat's row names, resolved or not; none before the chat's first message. */
async function threadConversation(env: Bindings, data: Db, channel: ChannelConfig, event: StoredEvent) {
  const [thread] = await data
    .select({ conversationId: channelThreads.conversationId })
    .from(channelThreads)
    .where(and(eq(channelThreads.inboxId, channel.inboxId), eq(channelThreads.threadKey, event.threadKey)));
  return thread?.conversationId
    ? await chatConversation(env, channel.organizationId, thread.conversationId)
    : undefined;
}

/** The chat's conversation when it is open (not resolved); none otherwise. */
async function openConversation(env: Bindings, data: Db, channel: ChannelConfig, event: StoredEvent) {
  const current = await threadConversation(env, data, channel, event);
  return current?.status === "resolved" ? undefined : current;
}

/**
 * The conversation a chat's row names, from the part of the organization's data plane holding it (the chat is in the
 * organization's own shard: services/shards/parts.ts).
 */
async function chatConversation(env: Bindings, organizationId: string, conversationId: string) {
  const part = await conversationDb(env, organizationId, conversationId);
  const [row] = await part.select().from(conversations).where(eq(conversations.id, conversationId));
  return row as ConversationRow | undefined;
}

/** A nicety the platform refused (a typing indicator, a tap's answer): logged; anything else is a bug and thrown. */
const logUnless = (err: unknown, message = "typing indicator not shown") => {
  if (!(err instanceof PlatformError)) throw err;
  logWarn(message, { error: err.message });
};

/** A new conversation's title: the group chat's name as the event gives it, else as the platform tells it; none for a
 * person's own chat. */
async function groupTitle(adapter: AnyChannelAdapter, ctx: PlatformContext, event: StoredEvent): Promise<string> {
  if (!event.group) return "";
  if (event.group.name || !adapter.groupName) return event.group.name ?? "";
  try {
    return (await adapter.groupName(ctx, event.group.id)) ?? "";
  } catch (err) {
    // Like a profile, a name is a nicety: the conversation starts untitled.
    if (!(err instanceof PlatformError)) throw err;
    return "";
  }
}

/**
 * The sender as a contact of the inbox: the one the channel made (its id from the inbox and the platform's user id),
 * else one the business made for this inbox with the platform's user id as `sourceId` (CONTRACT section 17's mapping:
 * its `queryMetadata` and custom fields then apply), else a new one that the platform's profile fills.
 */
async function contactOf(data: Db, adapter: AnyChannelAdapter, ctx: PlatformContext, event: StoredEvent) {
  const { inboxId, organizationId } = ctx.channel;
  const id = await stableUuidv7(`contact\n${inboxId}\n${event.sender.id}`, 0);
  const shown = { id: contacts.id, name: contacts.name, avatar: contacts.avatar };
  const [found] = await data.select(shown).from(contacts).where(eq(contacts.id, id));
  if (found) return found;
  const [made] = await data
    .select(shown)
    .from(contacts)
    .innerJoin(contactInboxes, and(eq(contactInboxes.contactId, contacts.id), eq(contactInboxes.inboxId, inboxId)))
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.sourceId, event.sender.id)))
    .orderBy(asc(contacts.createdAt))
    .limit(1);
  if (made) return made;
  let profile: { name?: string; avatar?: string } | null = null;
  if (adapter.profile && (!event.sender.name || !event.sender.avatar)) {
    try {
      profile = await adapter.profile(ctx, event);
    } catch (err) {
      // A profile is a nicety: the message is taken in without it.
      if (!(err instanceof PlatformError)) throw err;
    }
  }
  const name = event.sender.name || profile?.name || event.sender.email || event.sender.id;
  const avatar = event.sender.avatar || profile?.avatar || null;
  const now = Date.now();
  await data.batch([
    data
      .insert(contacts)
      .values({
        id,
        organizationId,
        name,
        avatar,
        sourceId: event.sender.id,
        email: event.sender.email ?? null,
        phoneNumber: event.sender.phoneNumber ?? null,
        // The contact's metadata is the business's custom fields: the platform is its inbox's.
        metadata: {},
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing(),
    data.insert(contactInboxes).values({ contactId: id, inboxId }).onConflictDoNothing(),
  ]);
  return { id, name, avatar };
}

/**
 * The chat's open conversation, or a new one (first message, or the last one resolved). The chat's
 * row names its conversation; it moves to a new one only from the one this run read, so two runs
 * never open two. A new conversation is stored by its object with its first message.
 */
async function conversationOf(
  env: Bindings,
  data: Db,
  channel: ChannelConfig,
  chatbotId: string | null,
  event: StoredEvent,
  contactId: string,
  title: () => Promise<string>,
): Promise<{ conversation: ConversationRow; created: boolean }> {
  const where = and(eq(channelThreads.inboxId, channel.inboxId), eq(channelThreads.threadKey, event.threadKey));
  const [thread] = await data.select().from(channelThreads).where(where);
  const current = thread?.conversationId
    ? await chatConversation(env, channel.organizationId, thread.conversationId)
    : undefined;
  if (current && current.status !== "resolved") return { conversation: current, created: false };
  const opened = async (id: string) => {
    const row = newConversation(
      { organizationId: channel.organizationId, inboxId: channel.inboxId, chatbotId, contactId, title: await title() },
      id,
    );
    return { conversation: event.group ? { ...row, type: "group" as const } : row, created: true };
  };
  // The row names a conversation not stored: a run that opened it died, or its post failed, before the conversation's
  // object stored it with its first message. This run holds the chat (leaseChat), so no other is storing it now: it is
  // opened under that id. Taken for none, a second conversation was opened beside the one another run was storing.
  // Should a run that outlived its lease store it after all, the conversation's key refuses one of the two.
  if (thread?.conversationId && !current) return opened(thread.conversationId);
  const id = uuidv7();
  const before = thread?.conversationId ?? null;
  const [moved] = await data
    .insert(channelThreads)
    .values({
      inboxId: channel.inboxId,
      threadKey: event.threadKey,
      organizationId: channel.organizationId,
      contactId,
      conversationId: id,
      updatedAt: Date.now(),
    })
    .onConflictDoUpdate({
      target: [channelThreads.inboxId, channelThreads.threadKey],
      // A chat's row may be its lease's alone until its first conversation (leaseChat): the contact is set then.
      set: {
        conversationId: id,
        contactId: sql`coalesce(${channelThreads.contactId}, excluded.contact_id)`,
        updatedAt: Date.now(),
      },
      setWhere:
        before === null ? sql`${channelThreads.conversationId} is null` : eq(channelThreads.conversationId, before),
    })
    .returning({ conversationId: channelThreads.conversationId });
  if (!moved) throw new IntakeError("Another run is opening this chat's conversation.");
  return opened(id);
}

/**
 * The event's files in R2 as attachments of the conversation, each with its upload row (which counts its bytes in the
 * organization's stored uploads, uploads/allowance.ts). One the platform refuses, or cannot give now after a few
 * attempts (`giveUp`), is said in the message instead ("[image not received: ...]"), as is one past the plan's upload
 * bytes ("[image not kept: ...]").
 * A file's attachment id and R2 key are named by its event (`event.id`: inbox and platform id) and its place in it, so
 * a later run of the event (the queue's redelivery after a run failed past the files, a run that outlived its chat's
 * lease) takes the attachment an earlier run stored and counted, without downloading or counting it again, and writes
 * a file an earlier run put in R2 but never counted over the same object. Named at random, each run counted the
 * bytes again and left the earlier objects and attachments behind, named by no message.
 */
async function takeFiles(
  env: Bindings,
  data: Db,
  adapter: AnyChannelAdapter,
  ctx: PlatformContext,
  conversation: ConversationRow,
  event: { id: string; at: number; files: InboundAttachment[] },
  giveUp: boolean,
): Promise<{ rows: AttachmentRow[]; missing: string[] }> {
  const { files } = event;
  const rows: AttachmentRow[] = [];
  const uploadRows: NewUpload[] = [];
  const missing: string[] = [];
  const kinds = new Map<string, InboundAttachment["kind"]>();
  const names = await Promise.all(
    files.map(async (_, i) => ({
      id: await stableUuidv7(`attachment\n${event.id}\n${i}`, event.at),
      folder: await stableUuidv7(`file\n${event.id}\n${i}`, event.at),
    })),
  );
  const earlier = await storedAttachments(
    data,
    conversation.organizationId,
    names.map((n) => n.id),
  );
  // Read once, and only when files are to be taken and the plan caps uploads.
  const room = earlier.size < files.length ? await uploadRoom(env, conversation.organizationId, data) : null;
  let left = room ? room.left : Number.POSITIVE_INFINITY;
  for (const [i, file] of files.entries()) {
    const taken = earlier.get(names[i].id);
    if (taken) {
      rows.push(taken);
      continue;
    }
    let bytes: Uint8Array;
    let contentType = mediaType(file.contentType) || "";
    let name = file.filename ?? "";
    if (file.inline !== undefined) bytes = fromBase64(file.inline);
    else {
      if (!adapter.download) continue;
      let response: Response;
      try {
        response = await adapter.download(ctx, file);
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        if (err.retryable && !giveUp) throw err;
        missing.push(`[${file.kind} not received: ${err.message}]`);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        const error = new PlatformError(
          `${ctx.channel.platform} answered ${response.status} for the file`,
          response.status,
        );
        if (error.retryable && !giveUp) throw error;
        missing.push(`[${file.kind} not received: ${error.message}]`);
        continue;
      }
      // Read no further than the limit: a platform's file of unknown length is not held whole to be refused.
      const read = await readAtMost(response.body, MAX_FILE_BYTES + 1);
      bytes = read.bytes;
      contentType ||= mediaType(response.headers.get("Content-Type"));
      name ||= dispositionName(response.headers.get("Content-Disposition"));
    }
    if (bytes.byteLength > MAX_FILE_BYTES) {
      missing.push(`[${file.kind} not kept: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB]`);
      continue;
    }
    if (room && bytes.byteLength > left) {
      missing.push(pastRoom(file.kind, room.plan));
      continue;
    }
    left -= bytes.byteLength;
    const filename = name || `${file.kind}${extensionFor(contentType)}`;
    contentType ||= contentTypeFor(filename);
    const key = `uploads/${conversation.organizationId}/attachment/${names[i].folder}/${safeFilename(filename)}`;
    kinds.set(key, file.kind);
    await env.FILES.put(key, bytes, { httpMetadata: { contentType } });
    const now = Date.now();
    uploadRows.push({
      key,
      organizationId: conversation.organizationId,
      modelName: "attachment",
      fieldName: "file",
      filename,
      contentType,
      maxSize: bytes.byteLength,
      size: bytes.byteLength,
      uploadedAt: now,
      claimedAt: now,
      createdAt: now,
    });
    const row: AttachmentRow = {
      id: names[i].id,
      organizationId: conversation.organizationId,
      conversationId: conversation.id,
      key,
      filename,
      type: file.kind === "file" ? inferType(contentType) : file.kind,
      contentType,
      size: bytes.byteLength,
      extractionStatus: fileTypeOf(filename, contentType) !== null ? "pending" : "none",
      extractedText: null,
      extractionError: null,
      createdBy: null,
      expiresAt: null,
      createdAt: now,
    };
    rows.push(row);
  }
  // The room read above passed each file, but another upload may have taken it since: what holds is the write that
  // counts the bytes (docs/decisions.md, "Plans"); a file it refuses is said in the message as one past the room.
  // Its attachment is written in the same batch and taken out again there, so no attachment names a file the count
  // refused, and no counted file is left without its attachment.
  // The conversation row may not exist yet (its object stores it with the message): no foreign key from attachments to
  // it. D1 binds at most 100 parameters a statement: 6 attachments (15 columns) per insert.
  // Another run of the event may have stored some of them meanwhile (one that outlived its lease): those are taken as
  // stored, not counted again. A row of a key left not arrived (a refused count whose removal died) goes first, or
  // the key would be refused as taken at every run.
  const mine = rows.filter((row) => !earlier.has(row.id));
  const meanwhile = await storedAttachments(
    data,
    conversation.organizationId,
    mine.map((row) => row.id),
    mine.map((row) => row.key),
  );
  const adding = mine.filter((row) => !meanwhile.has(row.id));
  const counting = uploadRows.filter((upload) => adding.some((row) => row.key === upload.key));
  const keys = adding.map((row) => row.key);
  const attach = adding.length
    ? [
        ...chunk(adding, 6).map((part) => data.insert(attachments).values(part)),
        data.delete(attachments).where(
          and(
            inArray(attachments.key, keys),
            notExists(
              data
                .select({ key: uploads.key })
                .from(uploads)
                .where(and(eq(uploads.key, attachments.key), isNotNull(uploads.uploadedAt))),
            ),
          ),
        ),
      ]
    : [];
  const { refused, plan } = await countUploads(env, data, counting, [], attach);
  const gone = new Set(refused.map((upload) => upload.key));
  if (plan) for (const { key } of refused) missing.push(pastRoom(kinds.get(key), plan));
  // What this run put in R2 under another name than the stored attachment's (the platform named the file otherwise).
  const beside = mine.filter((row) => meanwhile.has(row.id) && meanwhile.get(row.id)?.key !== row.key);
  if (beside.length) await env.FILES.delete(beside.map((row) => row.key));
  // The chat's conversation may have changed since another run stored its files (resolved meanwhile): they go with
  // the message to this one.
  const stored = new Map([...earlier, ...meanwhile]);
  const moved = [...stored.values()].filter((row) => row.conversationId !== conversation.id).map((row) => row.id);
  if (moved.length)
    await data.update(attachments).set({ conversationId: conversation.id }).where(inArray(attachments.id, moved));
  const kept = rows.map((row) => ({ ...(stored.get(row.id) ?? row), conversationId: conversation.id }));
  return { rows: kept.filter((row) => !gone.has(row.key)), missing };
}

/**
 * The attachments stored under `ids` (an event's files, named by the event: takeFiles), by id. With `keys`, the upload
 * rows of those keys left not arrived are removed in the same round trip.
 */
async function storedAttachments(
  data: Db,
  organizationId: string,
  ids: string[],
  keys: string[] = [],
): Promise<Map<string, AttachmentRow>> {
  if (!ids.length) return new Map();
  const read = data
    .select()
    .from(attachments)
    .where(and(eq(attachments.organizationId, organizationId), inArray(attachments.id, ids)));
  const found = keys.length
    ? (
        await data.batch([
          read,
          data.delete(uploads).where(and(inArray(uploads.key, keys), isNull(uploads.uploadedAt))),
        ])
      )[0]
    : await read;
  return new Map(found.map((row) => [row.id, row as AttachmentRow]));
}

const pastRoom = (kind: string | undefined, plan: { planName: string }) =>
  `[${kind} not kept: the ${plan.planName} plan's upload bytes are used]`;

/** The file name a download's Content-Disposition gives (`filename*=UTF-8''...` or `filename="..."`), if any. */
function dispositionName(header: string | null): string {
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header ?? "")?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // a malformed escape: the plain name below, if any
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header ?? "")?.[1]?.trim() ?? "";
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "video/mp4": ".mp4",
  "audio/mpeg": ".mp3",
  "audio/mp4": ".m4a",
  "audio/ogg": ".ogg",
  "application/pdf": ".pdf",
};
// The sender's platform names the type.
const extensionFor = (contentType: string) => ownValue(EXTENSIONS, contentType) ?? "";
