// The Worker's `email` handler (src/index.ts): Cloudflare Email Routing delivers each message sent to
// an address routed to this Worker. The inbox is the one whose address is the envelope recipient; its
// message is read (email.ts) and kept like a webhook's events (inbound.ts `keep`: by Message-ID, so a
// redelivery is the same row; the channel queue makes it a message and the reply goes back by EMAIL), in
// its sender's own chat of the thread (`chatOf`); one left out on purpose is kept set aside (`setAside`); one with no
// address to answer at all is refused (`setReject`), as mail to an address no inbox has.
// Locally, `wrangler dev` (Miniflare 5) hands a raw message to this handler with
// curl -X POST 'http://localhost:8787/cdn-cgi/local/email?from=jane@example.com&to=support@shop.example' --data-binary
// @message.eml
// (the /cdn-cgi/handler/email of older releases reaches the fetch handler now); it answers 400 with the
// reason given to setReject. The local EMAIL binding checks each message sent (From matching the
// envelope sender, a Message-ID, no Received header), gives it a Message-ID of its own, and writes it to
// an .eml file it names in the log ("send_email binding called with the following message").
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { getDb } from "../../db";
import { channelDeliveries, channelEvents, channelThreads } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { emailInboxFor, readMail, type DroppedEmail } from "./email";
import { keep } from "./inbound";
import { loadChannel } from "./settings";
import { dataDb } from "../shards";
import { dataParts } from "../shards/parts";
import { firstAcrossParts } from "../shards/parts-merge";
import type { InboundEvent } from "./types";

/**
 * The chat of one person's e-mail thread: their address and the thread's root Message-ID (neither has a space). Two
 * people answering one mailing (a newsletter sent from the inbox's address outside the platform) name the same root,
 * and each is a conversation of their own: neither's mail is in the other's history, nor is the other answered.
 */
export const emailChat = (address: string, root: string) => `${address} ${root}`;

/**
 * The person a chat is with: its key's address; for a chat kept before chats were per person (keyed by the root
 * alone), the address its replies went to.
 */
function personOfChat(row: { threadKey: string; context: unknown }): string | undefined {
  if (row.threadKey.includes(" ")) return row.threadKey.split(" ")[0];
  const address = (row.context as { address?: unknown } | null)?.address;
  return typeof address === "string" ? address.toLowerCase() : undefined;
}

/** The inbox's chats `where` says, with the context their replies go out with. */
const chats = (data: Db, inboxId: string, where: SQL) =>
  data
    .select({ threadKey: channelThreads.threadKey, context: channelThreads.context })
    .from(channelThreads)
    .where(and(eq(channelThreads.inboxId, inboxId), where));

/**
 * The chat a message goes to (`event.threadKey` is its thread's root, email.ts): the sender's own chat of that
 * thread. A chat kept before chats were per person goes on while it is with the same person.
 */
async function chatOf(data: Db, parts: Db[], inboxId: string, event: InboundEvent): Promise<InboundEvent> {
  const person = event.sender.id;
  const root = event.threadKey;
  const own = emailChat(person, root);
  if (root === event.eventId) return { ...event, threadKey: own };
  const known = await chats(data, inboxId, inArray(channelThreads.threadKey, [own, root]));
  if (known.some((row) => row.threadKey === own)) return { ...event, threadKey: own };
  if (known.some((row) => personOfChat(row) === person)) return { ...event, threadKey: root };
  return { ...event, threadKey: (await ourThread(data, parts, inboxId, root, person)) ?? own };
}

/**
 * A reply whose client named only the message it answers (In-Reply-To, no References) has that message as its
 * root; when that message is one of our replies, the chat is the one our reply was sent in, so the answer stays in its
 * conversation. Only for the person the chat is with: someone our reply was forwarded to starts their own.
 */
async function ourThread(data: Db, parts: Db[], inboxId: string, root: string, person: string) {
  const conversationId = await ourReplyIn(parts, inboxId, root);
  if (!conversationId) return undefined;
  const [ours] = await chats(data, inboxId, eq(channelThreads.conversationId, conversationId)).limit(1);
  return ours && personOfChat(ours) === person ? ours.threadKey : undefined;
}

/** The conversation of the reply this inbox sent with the Message-ID `messageId`, when it is one of ours. */
async function ourReplyIn(parts: Db[], inboxId: string, messageId: string): Promise<string | undefined> {
  // Our reply is in its conversation's part, the chat in the organization's own shard (services/shards/parts.ts).
  const [sent] = await firstAcrossParts(
    parts,
    (part) => sentReply(part, inboxId, messageId),
    () => 0,
    1,
  );
  return sent?.conversationId;
}

/**
 * A message left out on purpose is kept as an event set aside (`ignored`, with the reason), as the intake keeps
 * those of the other platforms: seen in channel_events, never silently gone; a redelivery is the same row.
 */
async function setAside(data: Db, organizationId: string, inboxId: string, dropped: DroppedEmail, now = Date.now()) {
  await data
    .insert(channelEvents)
    .values({
      inboxId,
      eventId: dropped.eventId,
      organizationId,
      payload: { ...dropped, receivedAt: now },
      at: dropped.at ?? now,
      receivedAt: now,
      status: "ignored",
      error: dropped.reason,
    })
    .onConflictDoNothing();
}

/**
 * The delivery of our reply whose Message-ID is `messageId`, in one part: an e-mail delivery has one platform id, and
 * `channel_deliveries_email_id_idx` holds it by inbox (its terms are the index's, so SQLite uses it).
 */
export const sentReply = (part: Db, inboxId: string, messageId: string) =>
  part
    .select({ conversationId: channelDeliveries.conversationId })
    .from(channelDeliveries)
    .where(
      and(
        eq(channelDeliveries.inboxId, inboxId),
        sql`platform_message_ids LIKE '%@%'`,
        sql`json_extract(platform_message_ids, '$[0]') = ${messageId}`,
      ),
    )
    .limit(1);

export async function receiveEmail(
  message: ForwardableEmailMessage,
  env: Bindings,
  _ctx: ExecutionContext,
): Promise<void> {
  const db = getDb(env.DB);
  const inbox = await emailInboxFor(env, message.to);
  const channel = inbox ? await loadChannel(env, db, inbox.inboxId, "email") : null;
  if (!channel) {
    // Refused at the SMTP level: the sender's server says the address is unknown.
    message.setReject(`${message.to} is not the address of an inbox here.`);
    return;
  }
  // The bytes as they came: a part in an 8-bit charset other than UTF-8 (ISO-8859-1, Shift_JIS...) is decoded by
  // postal-mime in its own charset, which a UTF-8 reading of the whole message would have garbled first.
  const raw = await new Response(message.raw).arrayBuffer();
  let read;
  try {
    read = await readMail(raw, channel.config.credentials.address, message.from);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    message.setReject(err.detail);
    return;
  }
  // No one to answer: refused at the SMTP level, as an unknown address is, so the sending server tells its sender.
  if ("refused" in read) {
    message.setReject(read.refused);
    return;
  }
  // A failure to store is thrown, not swallowed: the delivery fails instead of passing for handled.
  const { organizationId, inboxId } = channel.config;
  const [data, parts] = await Promise.all([dataDb(env, organizationId), dataParts(env, organizationId)]);
  if ("dropped" in read) return setAside(data, organizationId, inboxId, read.dropped);
  // From the inbox's own address with someone in Reply-To is theirs (a website's form), unless it is one of our own
  // replies come back: never answered, whatever its headers say. Asked only then, not of every message.
  if (read.fromInbox && (await ourReplyIn(parts, inboxId, read.event.eventId)))
    return setAside(data, organizationId, inboxId, {
      eventId: read.event.eventId,
      reason: "One of this inbox's own replies: not answered.",
      ...(read.event.at === undefined ? {} : { at: read.event.at }),
    });
  await keep(env, db, data, organizationId, inboxId, [await chatOf(data, parts, inboxId, read.event)]);
}
