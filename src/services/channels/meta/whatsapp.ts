// WhatsApp Cloud API: `entry[].changes[].value` with the business number's messages, the person as
// their phone number (wa_id), media by id, replies from the number's `/messages` (4096 characters;
// conversation starters as up to three reply buttons under a body of 1024).
import { splitMessage } from "../markdown";
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
import { readWhatsAppWebhook, type WhatsAppMessage } from "./events";
import { fetchMetaFile, graph, graphRequest, mediaType, metaWebhook, type GraphAccount } from "./graph";
import { pastWindow, plainParts, quickReplyChoices, tappedText } from "./text";

export const WHATSAPP_TEXT_LIMIT = 4096;
/** An interactive message's body, and the buttons it may carry. */
const BUTTON_BODY_LIMIT = 1024;
const MAX_BUTTONS = 3;

const account = (channel: ChannelConfig): GraphAccount => ({
  platformName: "WhatsApp",
  token: channel.credentials.accessToken,
  appSecret: channel.credentials.appSecret,
});

const MEDIA = {
  image: "image",
  sticker: "image",
  video: "video",
  audio: "audio",
  document: "file",
} as const satisfies Record<string, InboundAttachmentKind>;

const isMedia = (type: string | undefined): type is keyof typeof MEDIA => !!type && Object.hasOwn(MEDIA, type);

/** What a message is as text and files when it is no file: its words, or a placeholder naming it. */
function said(message: WhatsAppMessage): string | null {
  switch (message.type) {
    case "text":
      return message.text?.body ?? "";
    case "interactive": {
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      if (reply) return tappedText(reply.id, reply.title ?? "");
      const form = message.interactive?.nfm_reply;
      return form ? `[form] ${form.response_json ?? form.body ?? ""}` : "[interactive]";
    }
    case "button":
      return message.button?.text ?? "";
    case "location": {
      if (!message.location) return "[location]";
      const { latitude, longitude, name, address } = message.location;
      const place = [name, address].filter(Boolean).join(", ");
      return `${place ? `${place}\n` : ""}https://maps.google.com/?q=${latitude},${longitude}`;
    }
    case "contacts":
      return message.contacts
        .map((c) => `[contact] ${[c.name?.formatted_name, ...c.phones.map((p) => p.phone)].filter(Boolean).join(" ")}`)
        .join("\n");
    case "order": {
      const items = (message.order?.product_items ?? []).map((i) =>
        `${i.quantity} × ${i.product_retailer_id} (${i.item_price} ${i.currency ?? ""})`.replace(" )", ")"),
      );
      return [`[order] ${items.join(", ")}`, message.order?.text].filter(Boolean).join("\n");
    }
    case "unsupported":
    case "unknown":
      return `[unsupported WhatsApp message: ${message.unsupported?.type ?? message.errors[0]?.title ?? "unknown"}]`;
    // A number changed, a welcome asked for: no one writing.
    case "system":
    case "request_welcome":
      return null;
    default:
      return `[WhatsApp message: ${message.type ?? "unknown"}]`;
  }
}

/** A message's text and files; null for what is not a person writing (a system notice, a reaction taken back). */
function content(
  message: WhatsAppMessage,
): { text: string; attachments: InboundAttachment[]; reaction?: string } | null {
  const type = message.type;
  const media = isMedia(type) ? message[type] : undefined;
  if (isMedia(type) && media?.id) {
    const attachment: InboundAttachment = {
      kind: MEDIA[type],
      ref: media.id,
      contentType: media.mime_type,
      filename: media.filename,
    };
    return { text: media.caption ?? "", attachments: [attachment] };
  }
  if (type === "reaction") {
    const emoji = message.reaction?.emoji;
    return emoji ? { text: `[reaction ${emoji}]`, attachments: [], reaction: emoji } : null;
  }
  const text = said(message);
  return text === null ? null : { text, attachments: [] };
}

function parseWhatsApp(raw: string, channel: ChannelConfig): InboundEvent[] {
  const body = readWhatsAppWebhook(raw);
  if (body.object !== "whatsapp_business_account") return [];
  const phoneNumberId = channel.credentials.phoneNumberId;
  const events: InboundEvent[] = [];
  for (const change of body.entry.flatMap((entry) => entry.changes)) {
    const value = change.value;
    // Statuses (sent, delivered, read) come in the same field without messages; other numbers of the app's business are
    // other inboxes'.
    if (change.field !== "messages" || !value) continue;
    const numberId = value.metadata?.phone_number_id;
    if (phoneNumberId && numberId !== undefined && numberId !== phoneNumberId) continue;
    const names = new Map(value.contacts.map((c) => [String(c.wa_id), c.profile?.name]));
    for (const message of value.messages) {
      const from = message.from ?? "";
      const found = from && message.id ? content(message) : null;
      if (!found || (!found.text && !found.attachments.length)) continue;
      events.push({
        eventId: String(message.id),
        threadKey: from,
        sender: { id: from, name: names.get(from) || undefined, phoneNumber: `+${from}` },
        text: found.text,
        attachments: found.attachments,
        ...(found.reaction ? { reaction: found.reaction } : {}),
        at: Number(message.timestamp) * 1000 || undefined,
      });
    }
  }
  return events;
}

/** The reply as Cloud API messages: text parts, the last one with the buttons when there are starters, then the files.
 * */
function whatsappMessages(message: OutboundMessage): Record<string, unknown>[] {
  const parts = plainParts(message, WHATSAPP_TEXT_LIMIT);
  // Reply buttons are at most three: the five ratings would lose 4 and 5, so the rating question goes as text ("reply
  // with a number").
  const buttons = message.rating ? [] : quickReplyChoices(message.quickReplies, MAX_BUTTONS, 20, 256);
  let last: string | undefined;
  if (buttons.length && parts.length) {
    parts.push(...splitMessage(parts.pop()!, BUTTON_BODY_LIMIT));
    last = parts.pop();
  }
  const messages: Record<string, unknown>[] = parts.map((body) => ({
    type: "text",
    text: { body, preview_url: true },
  }));
  if (last) {
    const action = { buttons: buttons.map(({ title, payload }) => ({ type: "reply", reply: { id: payload, title } })) };
    messages.push({ type: "interactive", interactive: { type: "button", body: { text: last }, action } });
  }
  for (const file of message.attachments) {
    const type = mediaType(file.contentType, "document");
    messages.push({
      type,
      [type]: type === "document" ? { link: file.url, filename: file.filename } : { link: file.url },
    });
  }
  return messages;
}

export const whatsapp: ChannelAdapter = {
  platform: "whatsapp",
  ...metaWebhook,
  parse: parseWhatsApp,

  /** The media id's URL (valid for minutes), then its bytes, both with the token; Meta's refusal of either is the
   * answer. */
  async download(ctx: PlatformContext, attachment: InboundAttachment) {
    const media = await graphRequest(ctx, account(ctx.channel), "GET", encodeURIComponent(attachment.ref));
    if (!media.ok) return media;
    const { url } = (await media.json()) as { url: string };
    return fetchMetaFile(ctx, url, { authorization: `Bearer ${ctx.channel.credentials.accessToken}` });
  },

  async connect(ctx) {
    const { phoneNumberId, businessAccountId } = ctx.channel.credentials;
    const number = await graph<{ display_phone_number?: string; verified_name?: string }>(
      ctx,
      account(ctx.channel),
      "GET",
      `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`,
    );
    // The business account sends its numbers' messages only to apps subscribed to it.
    await graph(ctx, account(ctx.channel), "POST", `${encodeURIComponent(businessAccountId)}/subscribed_apps`);
    return (
      `Connected to WhatsApp ${number.display_phone_number} (${number.verified_name}); its messages come to ` +
      `this inbox.`
    );
  },

  async send(ctx, message) {
    // Past the window WhatsApp takes only an approved template, which a reply is not. Sent anyway, the Cloud API
    // accepted it and reported it failed later (131047, in a status event): the reply read "sent", never arrived.
    if (pastWindow(message)) {
      const since = new Date(message.lastInboundAt).toISOString().slice(0, 16).replace("T", " ");
      throw new PlatformError(
        `outside WhatsApp's 24-hour customer service window (the person last wrote ${since} UTC): WhatsApp takes ` +
          "a reply again once they write",
        400,
        undefined,
        false,
      );
    }
    return sendInOrder(message, whatsappMessages(message), async (body) => {
      const sent = await graph<{ messages?: { id?: string }[] }>(
        ctx,
        account(ctx.channel),
        "POST",
        `${encodeURIComponent(ctx.channel.credentials.phoneNumberId)}/messages`,
        {
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: message.threadKey,
          ...body,
        },
      );
      return String(sent.messages?.[0]?.id);
    });
  },
};
