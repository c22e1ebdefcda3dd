// What a messaging platform's module provides (CONTRACT section 17; docs/decisions.md, "Messaging
// channels"). A platform is one more way in (verify, read events) and one more way out (send): the
// turn itself is the conversation pipeline's, the same as on the web.
import type { Bindings } from "../../env";
import type { JsonObject } from "../../lib/json";
import type { WEBHOOK_REFUSALS } from "../../db/schema";

export const CHANNEL_PLATFORMS = ["line", "telegram", "messenger", "instagram", "whatsapp", "slack", "email"] as const;
export type ChannelPlatform = (typeof CHANNEL_PLATFORMS)[number];

/** A connected inbox as its platform module sees it: the credentials opened. */
export interface ChannelConfig {
  inboxId: string;
  organizationId: string;
  platform: ChannelPlatform;
  /** Every credential field (CONTRACT section 17), secrets included, in the clear. */
  credentials: Record<string, string>;
  /** Meta's `hub.verify_token`. */
  verifyToken: string;
  /** Telegram's `secret_token`. */
  webhookSecret: string;
  /** `{origin}/channels/{platform}/{inboxId}`. */
  webhookUrl: string;
}

/** The platform API origins (settings, CONTRACT section 17): stand-ins in tests and local development. */
export type PlatformApi = "line" | "lineData" | "telegram" | "graph" | "slack";

/** What a platform module is given to call its platform. */
export interface PlatformContext {
  env: Bindings;
  channel: ChannelConfig;
  /**
   * A request to the platform's API: `path` is joined to the origin setting of `api`. The outbound
   * guard applies (a private origin only when OUTBOUND_ALLOWED_HOSTS names it); answers whatever
   * the platform answered (never throws for a status), throws a PlatformError when it cannot be reached.
   */
  call(api: PlatformApi, path: string, init?: RequestInit): Promise<Response>;
}

export type InboundAttachmentKind = "image" | "file" | "audio" | "video" | "sticker";

/** A file in an event: fetched (download) while the event is taken in, stored in R2 as an attachment. */
export interface InboundAttachment {
  kind: InboundAttachmentKind;
  /** The platform's reference: a content id, file id, media id or URL, as `download` understands it. */
  ref: string;
  filename?: string;
  contentType?: string;
  /** Bytes carried by the event itself (e-mail), base64; no download then. */
  inline?: string;
}

/** One message a platform sent, as every platform's module reads it. */
export interface InboundEvent {
  /** The platform's own event id (LINE webhookEventId, Telegram update_id, Meta mid, Slack event_id, e-mail
   * Message-ID): a redelivery has the same. */
  eventId: string;
  /** The chat the conversation is for: the user's own chat, or the group's (then `group` is set). */
  threadKey: string;
  group?: { id: string; name?: string };
  /** The person writing: a contact with this `sourceId`. */
  sender: { id: string; name?: string; avatar?: string; email?: string; phoneNumber?: string };
  /** A tapped button the platform waits to hear was handled (see ChannelAdapter.acknowledge). */
  tapId?: string;
  text: string;
  attachments: InboundAttachment[];
  /** LINE's reply token (free to use for about a minute). */
  replyToken?: string;
  /** When the platform says it happened (ms). */
  at?: number;
  /** Whatever the reply needs that the platform's send API asks for (e-mail: subject, Message-ID, References). */
  thread?: JsonObject;
  /** A satisfaction rating 1-5 given by a button of the rating question (Telegram's callback): never a message of its
   * own. */
  rating?: number;
  /** A reaction to an earlier message (its emoji; `text` says it): kept in the chat's open conversation without an
   * answer, never opening one (docs/decisions.md, "Messaging channels"). */
  reaction?: string;
  /** Why the event is kept set aside (`ignored`) instead of taken in: a Slack event of a workspace other than the
   * connected one. */
  setAside?: string;
}

/** What `connect` learned of the account, kept with the channel's settings (Slack's workspace), beside its line. */
export interface Connected {
  detail: string;
  settings: Record<string, string>;
}

/** A reply on its way to the platform. */
export interface OutboundMessage {
  /** Ours, the same on every attempt of this reply (LINE's X-Line-Retry-Key, a platform's idempotency key). */
  deliveryId: string;
  threadKey: string;
  /** The reply as stored: Markdown. Each module renders what its platform shows (markdown.ts). */
  text: string;
  citations: { title: string; url: string }[];
  /** Buttons the visitor may tap instead of typing (conversation starters), where the platform has them. */
  quickReplies: string[];
  /** Files attached to the reply (a human agent's), as URLs the platform can fetch. */
  attachments: { url: string; filename: string; contentType: string }[];
  replyToken?: string;
  /** The satisfaction question (services/conversation/csat.ts): `quickReplies` are the ratings 1-5; a module with
   * callback buttons sends those instead (InboundEvent.rating). */
  rating?: boolean;
  /** The thread's context (InboundEvent.thread of its latest event). */
  thread?: JsonObject;
  senderName: string;
  /** Written by a member of the team (not the assistant): Meta lets a person answer after its 24-hour window. */
  fromPerson: boolean;
  /** When the visitor last wrote in this chat, and when this attempt is made (ms). */
  lastInboundAt: number;
  at: number;
  /**
   * The platform's ids of the messages of this reply an earlier attempt sent, one a message, in order (a long reply is
   * several): this attempt sends the rest (sendInOrder).
   */
  sent: string[];
}

/**
 * A platform's refusal or absence. `retryAfterSeconds` from a 429's Retry-After; `retryable`:
 * 429, 5xx and unreachable are tried again, any other 4xx is not (CONTRACT section 17).
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterSeconds?: number,
    /**
     * Whether the platform refused the channel's credentials (a revoked token), not this one reply: the channel then
     * shows `failing`. By default a 401 or 403; a platform whose 403 is about one chat (Telegram: the person blocked
     * the bot) or whose refusal of a token has another status (Slack, Meta) says so.
     */
    readonly credentialsRefused = status === 401 || status === 403,
  ) {
    super(message);
  }
  get retryable() {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
  /** The platform's ids of the reply's messages sent before this refusal (sendInOrder): the delivery keeps them. */
  sent?: string[];
}

/**
 * Sends a reply's platform messages one after the other (`one` gives each one's id), from the first one an earlier
 * attempt did not send (`message.sent`): a refusal midway (a 429 on the second part of three) never sends the first
 * again. The refusal carries every id sent so far; the answer is all of them, in order.
 */
export async function sendInOrder<T>(
  message: Pick<OutboundMessage, "sent">,
  parts: T[],
  one: (part: T, index: number) => Promise<string>,
): Promise<string[]> {
  const ids = message.sent.slice(0, parts.length);
  for (let i = ids.length; i < parts.length; i++) {
    try {
      ids.push(await one(parts[i], i));
    } catch (err) {
      if (err instanceof PlatformError) err.sent = [...ids];
      throw err;
    }
  }
  return ids;
}

/** What `parse` gives: the events, or a promise of them where reading is asynchronous (e-mail's MIME). */
export type ParsedEvents = InboundEvent[] | Promise<InboundEvent[]>;

/** Why a platform's check of the webhook URL was refused. */
export type WebhookRefusal = (typeof WEBHOOK_REFUSALS)[number];

/**
 * What a platform's check of the webhook URL came to: passed, with the answer it expects (the challenge echoed), or
 * refused and why, with the answer the platform is given (none: the 401 of any request not signed).
 */
export type Handshake =
  | { passed: true; answer: Response }
  | { passed: false; refusal: WebhookRefusal; answer?: Response };

export interface ChannelAdapter<Parsed extends ParsedEvents = InboundEvent[]> {
  platform: ChannelPlatform;
  /**
   * Whether the request is the platform's own (its signature or token over the raw body): false is
   * 401 and nothing is stored.
   */
  verify(request: Request, raw: string, channel: ChannelConfig): Promise<boolean>;
  /**
   * The platform's check of the webhook URL (Meta's GET subscription, Slack's url_verification), answered here and
   * kept on the channel (verification.ts); null for any other request. `signed`: whether `verify` took the request
   * (false for a GET, which is not signed).
   */
  handshake?(request: Request, raw: string, channel: ChannelConfig, signed: boolean): Handshake | null;
  /** The messages in a verified request (none for a delivery receipt, a read mark, the bot's own message). Throws a 400
   * ApiError for a body it cannot read. */
  parse(raw: string, channel: ChannelConfig): Parsed;
  /** The sender's name and picture from the platform's profile, where it has one. */
  profile?(ctx: PlatformContext, event: InboundEvent): Promise<{ name?: string; avatar?: string } | null>;
  /** A group chat's name (LINE's group summary, Slack's channel): the title of its new conversation; null when it has
   * none. */
  groupName?(ctx: PlatformContext, groupId: string): Promise<string | null>;
  /**
   * The chat of an event that names a message or a file rather than its chat (a Slack reaction in a channel: the
   * thread the message is in; to a file: where it is shared), asked by the intake before the event is taken in; the
   * event's own for any other. Throws PlatformError.
   */
  chatOf?(ctx: PlatformContext, event: InboundEvent): Promise<Pick<InboundEvent, "threadKey" | "group">>;
  /** A file of an event: the platform's answer with its bytes. */
  download?(ctx: PlatformContext, attachment: InboundAttachment): Promise<Response>;
  /** Checks the credentials with the platform (and registers the webhook where the platform lets us); a line saying
   * what it answered, and what it learned to keep where there is some. Throws PlatformError. */
  connect(ctx: PlatformContext): Promise<string | Connected>;
  /** Removes what `connect` registered with the platform (Telegram's webhook), when it points at this inbox; a line
   * saying what it did. Throws PlatformError. Absent where the platform lets only its dashboard do it. */
  disconnect?(ctx: PlatformContext): Promise<string>;
  /** Sends one reply (split at the platform's limit); the platform's message ids. Throws PlatformError. */
  send(ctx: PlatformContext, message: OutboundMessage): Promise<string[]>;
  /** Answers a tapped button (`InboundEvent.tapId`), so the platform stops showing it as pending (Telegram's
   * answerCallbackQuery). */
  acknowledge?(ctx: PlatformContext, tapId: string): Promise<void>;
  /** Shows the visitor that the assistant is writing (LINE's loading animation, Telegram's `typing`). */
  typing?(ctx: PlatformContext, threadKey: string): Promise<void>;
}

/** Any platform's module as the core loads it: e-mail's `parse` is asynchronous (postal-mime), the others' are not. */
export type AnyChannelAdapter = ChannelAdapter<ParsedEvents>;
