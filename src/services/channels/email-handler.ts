// The Worker's `email` handler (src/index.ts): Cloudflare Email Routing delivers each message sent to
// an address routed to this Worker. The inbox is the one whose address is the envelope recipient; its
// message is read (email.ts) and kept like a webhook's events (inbound.ts `keep`: by Message-ID, so a
// redelivery is the same row; the channel queue makes it a message and the reply goes back by EMAIL).
// Locally, `wrangler dev` (Miniflare 5) hands a raw message to this handler with
// curl -X POST 'http://localhost:8787/cdn-cgi/local/email?from=jane@example.com&to=support@shop.example' --data-binary
// @message.eml
// (the /cdn-cgi/handler/email of older releases reaches the fetch handler now); it answers 400 with the
// reason given to setReject. The local EMAIL binding checks each message sent (From matching the
// envelope sender, a Message-ID, no Received header), gives it a Message-ID of its own, and writes it to
// an .eml file it names in the log ("send_email binding called with the following message").
import { and, eq, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { getDb } from "../../db";
import { channelDeliveries, channelThreads } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { emailInboxFor, readEmail } from "./email";
import { keep } from "./inbound";
import { loadChannel } from "./settings";
import { dataDb } from "../shards";
import { dataParts } from "../shards/parts";
import { firstAcrossParts } from "../shards/parts-merge";
import type { InboundEvent } from "./types";

/**
 * A reply whose client named only the message it answers (In-Reply-To, no References) has that
 * message as its thread; when that message is one of our replies, the thread is the one our reply
 * was sent in, so the answer stays in its conversation.
 */
async function ourThread(data: Db, parts: Db[], inboxId: string, event: InboundEvent): Promise<InboundEvent> {
  if (event.threadKey === event.eventId) return event;
  const [known] = await data
    .select({ threadKey: channelThreads.threadKey })
    .from(channelThreads)
    .where(and(eq(channelThreads.inboxId, inboxId), eq(channelThreads.threadKey, event.threadKey)));
  if (known) return event;
  // Our reply is in its conversation's part, the chat in the organization's own shard (services/shards/parts.ts).
  const sent = await firstAcrossParts(
    parts,
    (part) => sentReply(part, inboxId, event.threadKey),
    () => 0,
    1,
  );
  if (!sent.length) return event;
  const [ours] = await data
    .select({ threadKey: channelThreads.threadKey })
    .from(channelThreads)
    .where(and(eq(channelThreads.inboxId, inboxId), eq(channelThreads.conversationId, sent[0].conversationId)))
    .limit(1);
  return ours ? { ...event, threadKey: ours.threadKey } : event;
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
  let events;
  try {
    events = await readEmail(raw, channel.config.credentials.address);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    message.setReject(err.detail);
    return;
  }
  // A failure to store is thrown, not swallowed: the delivery fails instead of passing for handled.
  const { organizationId, inboxId } = channel.config;
  const [data, parts] = await Promise.all([dataDb(env, organizationId), dataParts(env, organizationId)]);
  const threaded = await Promise.all(events.map((event) => ourThread(data, parts, inboxId, event)));
  await keep(env, db, data, organizationId, inboxId, threaded);
}
