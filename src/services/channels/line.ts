// LINE Messaging API (CONTRACT section 17). Plain requests through ctx.call rather than @line/bot-sdk's
// clients: they call the global fetch themselves and take no fetch of ours (so neither the outbound
// guard nor the deadline would apply), for ~25 KB minified and node:stream/node:buffer imports. The
// SDK's webhook types, generated from LINE's OpenAPI document, are used: they cost nothing at run time.
// https://developers.line.biz/en/reference/messaging-api/
import type { webhook } from "@line/bot-sdk";
import { z } from "zod";
import { badRequest } from "../../lib/errors";
import { logWarn } from "../../lib/log";
import { firstGraphemes } from "../../lib/text";
import { sha256Hex, verifyHmacSha256 } from "../../lib/crypto";
import { fromBase64 } from "../../lib/base64";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { fetchAnswer, refusal } from "./http";
import { splitMessage, toPlainText, withCitations } from "./markdown";
import {
  PlatformError,
  type ChannelAdapter,
  type InboundAttachment,
  type InboundEvent,
  type OutboundMessage,
  type PlatformContext,
} from "./types";

/** LINE's limits: characters of a text message, messages of one request, quick reply items and their labels. */
export const TEXT_LIMIT = 5000;
export const MESSAGES_PER_REQUEST = 5;
export const QUICK_REPLY_ITEMS = 13;
export const QUICK_REPLY_LABEL = 20;
/** A quick reply's message action sends this text (at most 300 characters). */
const QUICK_REPLY_TEXT = 300;

/** What LINE's error bodies say: `message`, then each detail as "property: message". */
const said = (body: unknown) => {
  const error = body as { message?: string; details?: { message?: string; property?: string }[] };
  if (typeof error?.message !== "string") return undefined;
  const details = (error.details ?? []).map((d) => [d.property, d.message].filter(Boolean).join(": ")).filter(Boolean);
  return details.length ? `${error.message} (${details.join("; ")})` : error.message;
};

const token = (ctx: PlatformContext) => ctx.channel.credentials.channelAccessToken ?? "";
const auth = (ctx: PlatformContext, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token(ctx)}`,
  ...extra,
});
const json = (
  ctx: PlatformContext,
  method: string,
  body: unknown,
  extra: Record<string, string> = {},
): RequestInit => ({
  method,
  headers: auth(ctx, { "content-type": "application/json", ...extra }),
  body: JSON.stringify(body),
});

async function answer<T>(response: Response): Promise<T> {
  if (!response.ok) throw await refusal("LINE", response, said);
  return (await response.json().catch(() => ({}))) as T;
}

/** X-Line-Signature: base64 HMAC-SHA256 of the raw body under the channel secret, checked by WebCrypto (constant time).
 * */
async function verify(
  request: Request,
  raw: string,
  channel: { credentials: Record<string, string> },
): Promise<boolean> {
  const signature = request.headers.get("x-line-signature");
  const secret = channel.credentials.channelSecret;
  if (!signature || !secret) return false;
  let mac: Uint8Array;
  try {
    mac = fromBase64(signature);
  } catch {
    return false; // not base64: not LINE's
  }
  return verifyHmacSha256(secret, mac, raw);
}

type Message = webhook.MessageContent;

/** A message's text and files; a kind we do not know yet is a placeholder naming it. */
function content(message: Message): { text: string; attachments: InboundAttachment[] } {
  // An image or video a user sent is LINE's content (by message id); one shared from elsewhere is a URL.
  const media = (
    kind: InboundAttachment["kind"],
    m: { id: string; contentProvider?: webhook.ContentProvider },
    filename?: string,
  ) => {
    const external = m.contentProvider?.type === "external" ? m.contentProvider.originalContentUrl : undefined;
    return { text: "", attachments: [{ kind, ref: external ?? m.id, ...(filename ? { filename } : {}) }] };
  };
  switch (message.type) {
    case "text":
      return { text: message.text, attachments: [] };
    case "image":
    case "video":
    case "audio":
      return media(message.type, message);
    case "file":
      return media("file", message, message.fileName);
    case "sticker": {
      // A message sticker carries its words; others only what LINE says they show.
      const words =
        message.text ??
        (message.keywords?.length ? `[sticker: ${message.keywords.slice(0, 5).join(", ")}]` : "[sticker]");
      return { text: words, attachments: [] };
    }
    case "location": {
      const place = [message.title, message.address].filter(Boolean).join(", ");
      return {
        text: `[location] ${place ? `${place} ` : ""}(${message.latitude}, ${message.longitude})`,
        attachments: [],
      };
    }
    default:
      return { text: `[LINE message: ${String((message as { type?: unknown }).type)}]`, attachments: [] };
  }
}

/**
 * A postback (a rich menu's, a template's or a quick reply's button of the postback kind) as what it sends: its data,
 * and the date, time or rich menu a picker or switch adds.
 */
function postbackText(postback: webhook.PostbackContent): string {
  const params = Object.entries(postback.params ?? {})
    .filter(([, value]) => typeof value === "string" && value)
    .map(([name, value]) => `${name}: ${value}`);
  return `[postback] ${postback.data}${params.length ? ` (${params.join(", ")})` : ""}`;
}

// The fields of a message or postback event that `parse` relies on, with the types LINE documents; every object keeps
// the rest (loose). An event LINE signed but shaped otherwise is left out alone, with a warning naming the field, as
// Meta's odd items are (meta/events.ts): never the events beside it in the delivery.
const WrittenEvent = z
  .looseObject({
    type: z.enum(["message", "postback"]),
    timestamp: z.number(),
    source: z.looseObject({ type: z.string() }),
    message: z.looseObject({ type: z.string(), id: z.string(), text: z.string().optional() }).optional(),
    postback: z.looseObject({ data: z.string() }).optional(),
  })
  .refine((e) => (e.type === "message" ? !!e.message : !!e.postback), {
    message: "A message event carries a message, a postback event a postback.",
  })
  .refine((e) => e.message?.type !== "text" || typeof e.message.text === "string", {
    message: "A text message carries its text.",
    path: ["message", "text"],
  });

function parse(raw: string): InboundEvent[] {
  let body: webhook.CallbackRequest;
  try {
    body = JSON.parse(raw);
  } catch {
    throw badRequest("The LINE webhook body is not JSON.");
  }
  if (!body || !Array.isArray(body.events)) throw badRequest("The LINE webhook body has no events.");
  const events: InboundEvent[] = [];
  for (const [index, event] of (body.events as webhook.Event[]).entries()) {
    // Follow, unfollow, join, unsend, beacon...: no one writing. A channel in standby mode (another module has the
    // chat) leaves the answer to the active channel.
    const written = event?.type === "message" || event?.type === "postback";
    if (!written || event.mode === "standby") continue;
    const read = WrittenEvent.safeParse(event);
    if (!read.success) {
      const issue = read.error.issues[0];
      logWarn("a LINE event left out: not shaped as LINE writes it", {
        index,
        webhookEventId: event.webhookEventId,
        problem: `${issue.path.join(".") || "the event"}: ${issue.message}`,
      });
      continue;
    }
    const taken =
      event.type === "message" ? content(event.message) : { text: postbackText(event.postback), attachments: [] };
    const source = event.source!; // read above
    const chat = source.type === "group" ? source.groupId : source.type === "room" ? source.roomId : undefined;
    const userId = source.userId ?? chat;
    if (!userId) continue;
    events.push({
      eventId: event.webhookEventId || (event.type === "message" ? event.message.id : `${userId}:${event.timestamp}`),
      threadKey: chat ?? userId,
      ...(chat ? { group: { id: chat } } : {}),
      sender: { id: userId },
      ...taken,
      ...(event.replyToken ? { replyToken: event.replyToken } : {}),
      at: event.timestamp,
    });
  }
  return events;
}

async function profile(ctx: PlatformContext, event: InboundEvent) {
  const user = encodeURIComponent(event.sender.id);
  const chat = event.group ? encodeURIComponent(event.group.id) : "";
  // A group's member by the group's endpoint (the member need not be the bot's friend); a room's by the room's.
  const path = !event.group
    ? `/v2/bot/profile/${user}`
    : chat.startsWith("R")
      ? `/v2/bot/room/${chat}/member/${user}`
      : `/v2/bot/group/${chat}/member/${user}`;
  const response = await ctx.call("line", path, { headers: auth(ctx) });
  // 404: LINE keeps the profile to itself (not a friend, left the group): the contact stays nameless.
  if (response.status === 404) return null;
  const found = await answer<{ displayName?: string; pictureUrl?: string }>(response);
  return { name: found.displayName, avatar: found.pictureUrl };
}

/** A group's name from its summary; a room (a chat of several friends) has none. 404: the bot has left the group. */
async function groupName(ctx: PlatformContext, groupId: string): Promise<string | null> {
  if (!groupId.startsWith("C")) return null;
  const response = await ctx.call("line", `/v2/bot/group/${encodeURIComponent(groupId)}/summary`, {
    headers: auth(ctx),
  });
  if (response.status === 404) return null;
  return (await answer<{ groupName?: string }>(response)).groupName ?? null;
}

async function download(ctx: PlatformContext, attachment: InboundAttachment): Promise<Response> {
  if (/^https:\/\//i.test(attachment.ref)) {
    // Shared from elsewhere (contentProvider "external"): LINE holds no copy; the URL's host answers.
    const problem = webhookUrlProblem(attachment.ref, outboundAllowedHosts(ctx.env));
    if (problem) throw new PlatformError(`LINE content ${attachment.ref}: ${problem}`, 400);
    // Its host out of reach is that side failing, as LINE's own would be: tried again, then the file is said not
    // received (fetchAnswer's PlatformError), not held as a bug with the chat's later messages waiting behind it.
    const response = await fetchAnswer(attachment.ref);
    if (!response.ok) throw await refusal(new URL(attachment.ref).host, response);
    return response;
  }
  const response = await ctx.call("lineData", `/v2/bot/message/${encodeURIComponent(attachment.ref)}/content`, {
    headers: auth(ctx),
  });
  // A video or audio LINE is still preparing answers 202: not yet, try again later.
  if (response.status === 202) throw new PlatformError("LINE is still preparing the content (202)", null, 5);
  if (!response.ok) throw await refusal("LINE", response, said);
  return response;
}

async function connect(ctx: PlatformContext): Promise<string> {
  const bot = await answer<{ displayName?: string; basicId?: string }>(
    await ctx.call("line", "/v2/bot/info", { headers: auth(ctx) }),
  );
  const endpoint = ctx.channel.webhookUrl;
  await answer(await ctx.call("line", "/v2/bot/channel/webhook/endpoint", json(ctx, "PUT", { endpoint }))).catch(
    (err) => {
      // LINE takes only https: said with what to do, since the URL is the address this was connected through.
      if (!(err instanceof PlatformError) || err.status !== 400 || !endpoint.startsWith("http:")) throw err;
      throw new PlatformError(
        `${err.message.replace(/\.$/, "")}. LINE takes only an https webhook URL, and this one is ${endpoint}: ` +
          "connect through the https address LINE will reach (your deployment, or a tunnel to this machine).",
        400,
      );
    },
  );
  // Setting the URL does not switch "Use webhook" on: only the LINE Developers Console does.
  const state = await answer<{ active?: boolean }>(
    await ctx.call("line", "/v2/bot/channel/webhook/endpoint", { headers: auth(ctx) }),
  );
  const name = `LINE bot "${bot.displayName ?? "?"}"${bot.basicId ? ` (${bot.basicId})` : ""}`;
  const use =
    state.active === false ? '; turn on "Use webhook" in the LINE Developers Console (Messaging API tab)' : "";
  return `${name}: webhook URL set to ${endpoint}${use}`;
}

type LineMessage =
  | { type: "text"; text: string }
  | { type: "image"; originalContentUrl: string; previewImageUrl: string };

/** The reply as LINE messages: text parts at LINE's limit, images as image messages, other files as links. */
export function lineMessages(message: OutboundMessage): LineMessage[] {
  const images = message.attachments.filter(
    (a) => /^image\/(jpeg|png)$/i.test(a.contentType) && /^https:\/\//i.test(a.url),
  );
  const links = message.attachments
    .filter((a) => !images.includes(a))
    .map((a) => ({ title: a.filename || a.url, url: a.url }));
  const markdown = withCitations(message.text, [...links, ...message.citations]);
  // Split the Markdown, render each part; a part whose plain text still runs over is split again.
  const texts = splitMessage(markdown, TEXT_LIMIT).flatMap((part) => splitMessage(toPlainText(part), TEXT_LIMIT));
  return [
    ...texts.filter(Boolean).map((text) => ({ type: "text" as const, text })),
    ...images.map((a) => ({ type: "image" as const, originalContentUrl: a.url, previewImageUrl: a.url })),
  ];
}

/**
 * Quick reply buttons: each sends its full text (up to LINE's limit), labelled by its first 20 characters. LINE counts
 * an action's label and text in grapheme clusters, not in UTF-16 units as a message's text
 * (https://developers.line.biz/en/docs/messaging-api/text-character-count/): cut so, no emoji is split.
 */
export function quickReply(options: string[]) {
  const items = options
    .map((o) => o.trim())
    .filter(Boolean)
    .slice(0, QUICK_REPLY_ITEMS)
    .map((o) => ({
      type: "action",
      action: {
        type: "message",
        label: firstGraphemes(o, QUICK_REPLY_LABEL),
        text: firstGraphemes(o, QUICK_REPLY_TEXT),
      },
    }));
  return items.length ? { items } : undefined;
}

/**
 * X-Line-Retry-Key: a UUID the same on every try of the same request, so LINE sends it once
 * (https://developers.line.biz/en/docs/messaging-api/retrying-api-request/): our delivery's id and
 * the request's place in the reply (a long reply takes several).
 */
export async function retryKey(message: OutboundMessage, request: number): Promise<string> {
  const seed = `line-retry-key\n${message.deliveryId}\n${request}`;
  const hex = await sha256Hex(seed);
  // Version 8 (custom) and the RFC 4122 variant, so it is a well-formed UUID.
  const variant = ((parseInt(hex[16], 16) & 3) | 8).toString(16);
  const [a, b, c, d] = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(13, 16), hex.slice(17, 20)];
  return `${a}-${b}-8${c}-${variant}${d}-${hex.slice(20, 32)}`;
}

type Sent = { sentMessages?: { id: string }[] };

async function send(ctx: PlatformContext, message: OutboundMessage): Promise<string[]> {
  const all = lineMessages(message);
  if (!all.length) return [];
  const quick = quickReply(message.quickReplies);
  if (quick) Object.assign(all[all.length - 1], { quickReply: quick });
  // LINE names each message it sent: those an earlier attempt got out are not sent again (a reply token is spent
  // with the first request).
  const ids = message.sent.slice(0, all.length);
  const rest = all.slice(ids.length);
  for (let start = 0; start < rest.length; start += MESSAGES_PER_REQUEST) {
    try {
      ids.push(...(await sendBatch(ctx, message, rest.slice(start, start + MESSAGES_PER_REQUEST), ids.length)));
    } catch (err) {
      if (err instanceof PlatformError) err.sent = [...ids];
      throw err;
    }
  }
  return ids;
}

/** One request of at most five messages, the first ones `from` the reply's `from`th: by the reply token when it is
 * the reply's first and the token fresh, else pushed. */
async function sendBatch(
  ctx: PlatformContext,
  message: OutboundMessage,
  batch: LineMessage[],
  from: number,
): Promise<string[]> {
  if (from === 0 && message.replyToken) {
    const replied = await ctx.call(
      "line",
      "/v2/bot/message/reply",
      json(ctx, "POST", { replyToken: message.replyToken, messages: batch }),
    );
    if (replied.ok) return ((await replied.json()) as Sent).sentMessages?.map((m) => m.id) ?? [];
    // A reply token used or expired meanwhile (a try before this one): the push below says it instead.
    const error = await refusal("LINE", replied, said);
    if (replied.status !== 400 || !/reply token/i.test(error.message)) throw error;
  }
  // The request's place in the reply names its retry key, the same on every try.
  const retry = { "x-line-retry-key": await retryKey(message, Math.floor(from / MESSAGES_PER_REQUEST)) };
  const pushed = await ctx.call(
    "line",
    "/v2/bot/message/push",
    json(ctx, "POST", { to: message.threadKey, messages: batch }, retry),
  );
  // 409: an earlier try of this very request was accepted (its answer lost); LINE names what it sent.
  if (pushed.status === 409) {
    const body = (await pushed.json().catch(() => ({}))) as Sent;
    return body.sentMessages?.map((m) => m.id) ?? [];
  }
  return (await answer<Sent>(pushed)).sentMessages?.map((m) => m.id) ?? [];
}

/** LINE's loading animation, for a one-on-one chat only (LINE refuses groups and rooms). */
async function typing(ctx: PlatformContext, threadKey: string): Promise<void> {
  if (!threadKey.startsWith("U")) return;
  await answer(
    await ctx.call("line", "/v2/bot/chat/loading/start", json(ctx, "POST", { chatId: threadKey, loadingSeconds: 20 })),
  );
}

export const line: ChannelAdapter = {
  platform: "line",
  verify,
  parse,
  profile,
  groupName,
  download,
  connect,
  send,
  typing,
};
