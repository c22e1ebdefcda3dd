// Messenger and Instagram: one webhook shape (`entry[].messaging[]`, a page- or Instagram-scoped id
// for the person) and one Send API (`/messages` with recipient and message), told apart by their
// object, their credentials, their text limit and their profile fields.
import { PlatformError, sendInOrder } from "../types";
import type {
  ChannelAdapter,
  ChannelConfig,
  InboundAttachment,
  InboundAttachmentKind,
  InboundEvent,
  OutboundMessage,
  PlatformContext,
} from "../types";
import { readMessagingWebhook, type MessagingAttachment, type MessagingItem } from "./events";
import { fetchMetaFile, graph, mediaType, metaWebhook, type GraphAccount } from "./graph";
import { fileNameOf, pastWindow, quickReplyChoices, tappedText } from "./text";
import { ownValue } from "../../../lib/json";

export interface MessagingPlatform {
  platform: "messenger" | "instagram";
  /** How errors name it: "Messenger answered 400: ...". */
  name: string;
  /** The webhook's `object`. */
  object: "page" | "instagram";
  /** The credential naming the account events are for (`entry[].id`). */
  accountField: "pageId" | "instagramAccountId";
  /** Where replies go: the Page's `/messages` (`me` is the Page a Page token belongs to). */
  sendPath(channel: ChannelConfig): string;
  /** The reply's text as messages within the platform's limit. */
  parts(message: OutboundMessage): string[];
  profileFields: string;
  profile(body: GraphProfile): { name?: string; avatar?: string };
  connect(ctx: PlatformContext, account: GraphAccount): Promise<string>;
}

/** The profile fields the platforms' `profileFields` ask for, as Graph answers them. */
export interface GraphProfile {
  name?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
  profile_pic?: string;
}

const KINDS: Record<string, InboundAttachmentKind> = { image: "image", video: "video", audio: "audio", file: "file" };

export const account = (name: string, channel: ChannelConfig): GraphAccount => ({
  platformName: name,
  token: channel.credentials.pageAccessToken,
  appSecret: channel.credentials.appSecret,
});

/** An attachment Meta gives no file or link for, said in words: a product, a location, or its kind and title. */
function described(attachment: MessagingAttachment) {
  const payload = attachment.payload;
  const products = payload?.product?.elements.map((e) => e.title).filter(Boolean) ?? [];
  if (products.length) return `[product] ${products.join(", ")}`;
  if (payload?.coordinates) return `[location] (${payload.coordinates.lat}, ${payload.coordinates.long})`;
  const title = attachment.title ?? payload?.title;
  return `[${attachment.type ?? "attachment"}]${title ? ` ${title}` : ""}`;
}

/**
 * One `messaging[]` item as an event: a person's message, a tapped button, an edit or a reaction; null for echoes,
 * deliveries, reads, unsends and reactions taken back, which are no one writing. `name` says whose messages they are
 * ("[unsupported Messenger message]").
 */
function toEvent(item: MessagingItem, name: string): InboundEvent | null {
  const sender = item.sender?.id ?? "";
  if (!sender) return null;
  const base = { threadKey: sender, sender: { id: sender }, at: item.timestamp, attachments: [] };
  const { postback, message_edit: edit, reaction } = item;
  if (postback) {
    const payload = typeof postback.payload === "string" ? postback.payload : "";
    return {
      ...base,
      // A postback is documented with its mid; one without (an older client's) is told apart by its time.
      eventId: postback.mid ?? `postback:${sender}:${item.timestamp ?? ""}:${payload}`,
      text: tappedText(postback.payload, postback.title ?? "") || `[postback] ${payload}`,
    };
  }
  // An edit is the new text, kept as a message of its own: the first one stays as it was.
  if (edit?.mid && edit.text)
    return {
      ...base,
      eventId: `${edit.mid}:edit:${String(edit.num_edit ?? item.timestamp)}`,
      text: `[edited] ${edit.text}`,
    };
  if (reaction) {
    if (reaction.action === "unreact") return null;
    const emoji = reaction.emoji || reaction.reaction || "?";
    const eventId = `reaction:${reaction.mid ?? ""}:${sender}:${item.timestamp ?? ""}`;
    return { ...base, eventId, text: `[reaction ${emoji}]`, reaction: emoji };
  }
  const message = item.message;
  if (!message?.mid || message.is_echo || message.is_deleted) return null;
  if (message.is_unsupported) return { ...base, eventId: message.mid, text: `[unsupported ${name} message]` };
  const lines = [tappedText(message.quick_reply?.payload, message.text ?? "")];
  const attachments: InboundAttachment[] = [];
  for (const attachment of message.attachments) {
    const url = attachment.payload?.url ?? attachment.url;
    const kind = attachment.type ? ownValue(KINDS, attachment.type) : undefined;
    if (url && kind) attachments.push({ kind, ref: url, filename: fileNameOf(url) });
    // A shared link (`fallback`) is kept as the text the person sent; a story mention, a shared post or reel names
    // its kind before its link ("[story_mention] https://..."): a bare CDN link said nothing of what it was.
    else if (!url) lines.push(described(attachment));
    else lines.push(attachment.type && attachment.type !== "fallback" ? `[${attachment.type}] ${url}` : url);
  }
  const text = lines.filter(Boolean).join("\n");
  if (!text && !attachments.length) return null;
  return { ...base, eventId: message.mid, text, attachments };
}

export function parseMessaging(raw: string, channel: ChannelConfig, platform: MessagingPlatform): InboundEvent[] {
  const body = readMessagingWebhook(raw);
  if (body.object !== platform.object) return [];
  const accountId = channel.credentials[platform.accountField];
  const events: InboundEvent[] = [];
  for (const entry of body.entry) {
    // One app's callback gets every Page (or Instagram account) subscribed to it: only this channel's are this inbox's.
    if (accountId && entry.id !== undefined && entry.id !== accountId) continue;
    for (const item of entry.messaging) {
      const event = toEvent(item, platform.name);
      if (event) events.push(event);
    }
  }
  return events;
}

/**
 * A reply within 24 hours of the visitor's last message is a RESPONSE; after that Meta takes only
 * tagged messages, and a person of the team (not the assistant) may answer for 7 days with the
 * HUMAN_AGENT tag. Later, Meta refuses it, and the delivery fails with Meta's reason.
 */
export function messagingType(message: Pick<OutboundMessage, "fromPerson" | "lastInboundAt" | "at">) {
  return message.fromPerson && pastWindow(message)
    ? { messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" }
    : { messaging_type: "RESPONSE" };
}

/** Messenger's and Instagram's quick replies: at most 13, titles of 20 characters, payloads of 1000. */
const quickReplies = (starters: string[]) =>
  quickReplyChoices(starters, 13, 20, 1000).map(({ title, payload }) => ({ content_type: "text", title, payload }));

export function messagingAdapter(platform: MessagingPlatform): ChannelAdapter {
  return {
    platform: platform.platform,
    ...metaWebhook,
    parse: (raw, channel) => parseMessaging(raw, channel, platform),

    async profile(ctx, event) {
      // Meta refuses profiles to apps without the profile permission or outside the person's consent: the contact keeps
      // its id.
      const path = `${encodeURIComponent(event.sender.id)}?fields=${platform.profileFields}`;
      const found = await graph<GraphProfile>(ctx, account(platform.name, ctx.channel), "GET", path).catch((err) => {
        if (err instanceof PlatformError && !err.retryable) return null;
        throw err;
      });
      return found ? platform.profile(found) : null;
    },

    download: (ctx, attachment) => fetchMetaFile(ctx, attachment.ref),

    connect: (ctx) => platform.connect(ctx, account(platform.name, ctx.channel)),

    async send(ctx, message) {
      const messages: Record<string, unknown>[] = platform.parts(message).map((text) => ({ text }));
      for (const file of message.attachments) {
        messages.push({ attachment: { type: mediaType(file.contentType, "file"), payload: { url: file.url } } });
      }
      // Quick replies belong to the last message: Messenger shows them under the latest one only.
      const choices = quickReplies(message.quickReplies);
      if (choices.length && messages.length) messages[messages.length - 1].quick_replies = choices;
      const kind = messagingType(message);
      return sendInOrder(message, messages, async (body) => {
        const sent = await graph<{ message_id?: string }>(
          ctx,
          account(platform.name, ctx.channel),
          "POST",
          platform.sendPath(ctx.channel),
          {
            recipient: { id: message.threadKey },
            ...kind,
            message: body,
          },
        );
        return String(sent.message_id);
      });
    },

    async typing(ctx, threadKey) {
      const body = { recipient: { id: threadKey }, sender_action: "typing_on" };
      await graph(ctx, account(platform.name, ctx.channel), "POST", platform.sendPath(ctx.channel), body);
    },
  };
}
