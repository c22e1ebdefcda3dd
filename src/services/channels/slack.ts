// Slack: the Events API in (a signed JSON POST per event), the Web API out (chat.postMessage), with
// fetch. @slack/web-api is not used: its WebClient is built on axios, form-data and Node's http,
// querystring, path, stream and tls modules, none of which workerd has.
// Choices (README "Channels"):
// - A direct message (channel_type "im") is one conversation per DM channel. In a channel, group or
//   group DM, each top-level message opens a conversation of its own and the reply goes to its thread
//   (threadKey `channel:thread_ts`), so the bot never answers in the channel's main flow.
// - `app_mention` and `message` events are both read, and a message's identity is `channel:ts` (Slack's
//   id of a message within its channel): an app subscribed to both gets one event for a mention, not
//   two, and a redelivery (X-Slack-Retry-Num, same event_id) has the same id again.
// - Quick replies are Block Kit buttons; a tap reaches the same webhook URL once Interactivity is on
//   (a `block_actions` payload, signed the same way), and is read as the visitor's message.
// - A reaction (`reaction_added`) names its message, not the thread: in a channel, `chatOf` asks
//   conversations.replies which thread the message is in; a reaction to a file names the file alone, and files.info
//   says where it is shared (docs/decisions.md, "Messaging channels").
import { fromHex, verifyHmacSha256 } from "../../lib/crypto";
import { ApiError } from "../../lib/errors";
import { fetchAnswer, platformBase, refusal, retryAfterSeconds } from "./http";
import { shownParts, toSlackMrkdwn, withCitations } from "./markdown";
import {
  PlatformError,
  sendInOrder,
  type ChannelAdapter,
  type ChannelConfig,
  type InboundAttachment,
  type InboundEvent,
  type PlatformContext,
} from "./types";

/** Slack asks for at most 4,000 characters of `text` per message (it truncates past 40,000). */
export const SLACK_TEXT_LIMIT = 4000;
/** A section block's mrkdwn text holds 3,000 characters. */
const SECTION_LIMIT = 3000;
/** Slack's requests carry their time; older or newer than 5 minutes is a replay (Slack's advice). */
const SIGNATURE_WINDOW_S = 5 * 60;
/** Subtypes that are a person writing; the rest (joins, topics, bot messages, ...) are no one writing. Edits
 * (`message_changed`) are read apart. */
const PERSON_SUBTYPES = new Set([undefined, "file_share", "thread_broadcast", "me_message"]);
/** A file of a Slack Connect channel comes without URLs: its `ref` is this and its id, asked of files.info. */
const FILE_INFO = "files.info:";
/** Why Slack gives no file, by its `mode`. */
const WITHHELD: Record<string, string> = {
  hidden_by_limit: "hidden by the workspace's plan limit",
  tombstone: "deleted",
};
/** Web API errors Slack says are worth trying again; any other `error` is a refusal. */
const TRANSIENT = new Set([
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
  "team_added_to_org",
]);

/**
 * Web API errors that refuse the app's token itself (docs.slack.dev, each method's errors), not one reply: the channel
 * shows `failing` until it is connected again. Others (`not_in_channel`, `is_archived`) concern one conversation.
 */
const TOKEN_REFUSED = new Set([
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "missing_scope",
  "not_allowed_token_type",
  "ekm_access_denied",
]);

/**
 * Slack's request signing: `v0=` + hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` with
 * the app's signing secret, the timestamp within 5 minutes of `now` (ms). Compared by WebCrypto's verify.
 */
export async function verifySlackSignature(
  headers: Headers,
  raw: string,
  signingSecret: string,
  now = Date.now(),
): Promise<boolean> {
  const timestamp = headers.get("x-slack-request-timestamp") ?? "";
  const signature = /^v0=([0-9a-f]{64})$/i.exec(headers.get("x-slack-signature") ?? "");
  if (!signingSecret || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_S) return false;
  return verifyHmacSha256(signingSecret, fromHex(signature[1]), `v0:${timestamp}:${raw}`);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

function json(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** An interactivity request is a form with one field, `payload`, holding JSON. */
function interaction(raw: string): Json | undefined {
  if (!raw.startsWith("payload=")) return undefined;
  const payload = json(new URLSearchParams(raw).get("payload") ?? "");
  return isObject(payload) ? payload : undefined;
}

/** Slack's text as a person reads it: `<url|label>` as "label (url)", `<@U1>` as "@U1", entities decoded. */
export function fromSlackText(text: string, botUserId?: string): string {
  return text
    .replace(/<([^<>]*)>/g, (_, inner: string) => {
      const [target, label] = inner.split("|", 2);
      if (target === `@${botUserId}`) return "";
      if (/^[@#]/.test(target)) return label ? `${target[0]}${label.replace(/^[@#]/, "")}` : target;
      if (target.startsWith("!")) return `@${label ?? target.slice(1).split("^")[0]}`;
      if (!label || label === target.replace(/^mailto:/, "")) return target.replace(/^mailto:/, "");
      return `${label} (${target})`;
    })
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

/** A message's files: each one Slack lets us fetch, and a line saying each it does not. */
function filesOf(files: unknown): { attachments: InboundAttachment[]; withheld: string[] } {
  const attachments: InboundAttachment[] = [];
  const withheld: string[] = [];
  for (const file of Array.isArray(files) ? files.filter(isObject) : []) {
    const contentType = str(file.mimetype);
    const top = contentType?.split("/")[0];
    const kind = top === "image" || top === "audio" || top === "video" ? top : "file";
    const url = str(file.url_private_download) ?? str(file.url_private);
    if (url) attachments.push({ kind, ref: url, filename: str(file.name), contentType });
    // Slack Connect: the event names the file only; files.info tells the rest.
    else if (file.file_access === "check_file_info" && str(file.id))
      attachments.push({ kind, ref: `${FILE_INFO}${str(file.id)}`, filename: str(file.name), contentType });
    else {
      const why = WITHHELD[str(file.mode) ?? ""] ?? "Slack gave no link to it";
      withheld.push(`[file not received: ${str(file.name) ?? str(file.title) ?? str(file.id) ?? "a file"} (${why})]`);
    }
  }
  return { attachments, withheld };
}

/** The workspaces (team ids) and Enterprise Grid organizations an event is of, as its envelope and the app's
 * installations it names say. */
type Workspace = { teams: (string | undefined)[]; enterprises: (string | undefined)[] };

function envelopeWorkspace(envelope: Json): Workspace {
  const authorizations = Array.isArray(envelope.authorizations) ? envelope.authorizations.filter(isObject) : [];
  return {
    teams: [str(envelope.team_id), ...authorizations.map((a) => str(a.team_id))],
    enterprises: [str(envelope.enterprise_id), ...authorizations.map((a) => str(a.enterprise_id))],
  };
}

function payloadWorkspace(payload: Json): Workspace {
  const team = isObject(payload.team) ? payload.team : {};
  const enterprise = isObject(payload.enterprise) ? payload.enterprise : {};
  const user = isObject(payload.user) ? payload.user : {};
  return { teams: [str(team.id), str(user.team_id)], enterprises: [str(enterprise.id)] };
}

/**
 * The events of a workspace other than the connected one set aside, saying whose they are. One Slack app serves every
 * workspace that installed it, with one signing secret and one events URL: another workspace's messages were taken in
 * as this inbox's contacts and conversations, and answered through this workspace's bot. A channel connected before the
 * workspace was kept (no `teamId` nor `enterpriseId`) takes every event until it is connected again.
 */
function elsewhere(channel: ChannelConfig, events: InboundEvent[], of: Workspace): InboundEvent[] {
  const { teamId, enterpriseId } = channel.credentials;
  const ours = enterpriseId ? of.enterprises.includes(enterpriseId) : !teamId || of.teams.includes(teamId);
  if (ours) return events;
  const theirs = (enterpriseId ? of.enterprises : of.teams).find(Boolean) ?? "unknown";
  const setAside = `An event of the Slack workspace ${theirs}, not of the one connected (${enterpriseId || teamId}).`;
  return events.map((event) => ({ ...event, setAside }));
}

/** Where a message lives: a DM is one thread; elsewhere each top-level message starts one. */
function place(channel: string, channelType: string | undefined, ts: string, threadTs: string | undefined) {
  // app_mention and block_actions carry no channel_type; DM channel ids start with D.
  const direct = channelType ? channelType === "im" : channel.startsWith("D");
  // A DM's thread context is patched by each event: null forgets a thread the visitor has left.
  if (direct) return { threadKey: channel, thread: { threadTs: threadTs ?? null } };
  return { threadKey: `${channel}:${threadTs ?? ts}`, group: { id: channel }, thread: { threadTs: threadTs ?? ts } };
}

const botUserOf = (envelope: Json) => {
  const authorizations = Array.isArray(envelope.authorizations) ? envelope.authorizations.filter(isObject) : [];
  return str(authorizations.find((a) => a.is_bot)?.user_id);
};

function messageEvent(envelope: Json, event: Json): InboundEvent[] {
  if (event.subtype === "message_changed") return editEvent(envelope, event);
  const channel = str(event.channel);
  const user = str(event.user);
  const ts = str(event.ts);
  // Ours and other apps' messages (bot_id), deletions, joins and the like are not a person writing.
  if (!channel || !user || !ts || event.bot_id || event.hidden || !PERSON_SUBTYPES.has(str(event.subtype))) return [];
  const { attachments, withheld } = filesOf(event.files);
  const text = [fromSlackText(str(event.text) ?? "", botUserOf(envelope)), ...withheld].filter(Boolean).join("\n");
  if (!text && !attachments.length) return [];
  return [
    {
      eventId: `${channel}:${ts}`,
      ...place(channel, str(event.channel_type), ts, str(event.thread_ts)),
      sender: { id: user },
      text,
      attachments,
      at: Math.round(Number(ts) * 1000) || undefined,
    },
  ];
}

/**
 * A person's edit of their message (message_changed with `edited`) as its new text, a message of its own: each edit
 * its own event (`channel:ts:edited:edit ts`). Slack sends message_changed for more than edits (a link unfurled,
 * the language detected, a thread's replies counted): the same text again is no edit; nor is an app's.
 */
function editEvent(envelope: Json, event: Json): InboundEvent[] {
  const channel = str(event.channel);
  const message = isObject(event.message) ? event.message : {};
  const previous = isObject(event.previous_message) ? event.previous_message : {};
  const edited = isObject(message.edited) ? message.edited : {};
  const user = str(message.user);
  const ts = str(message.ts);
  const editedAt = str(edited.ts);
  if (!channel || !user || !ts || !editedAt || message.bot_id || !PERSON_SUBTYPES.has(str(message.subtype))) return [];
  if (str(message.text) === str(previous.text)) return [];
  const text = fromSlackText(str(message.text) ?? "", botUserOf(envelope));
  if (!text) return [];
  return [
    {
      eventId: `${channel}:${ts}:edited:${editedAt}`,
      ...place(channel, str(event.channel_type), ts, str(message.thread_ts)),
      sender: { id: user },
      text: `[edited] ${text}`,
      attachments: [],
      at: Math.round(Number(editedAt) * 1000) || undefined,
    },
  ];
}

/**
 * A reaction added to a message (reaction_added), shown by Slack's name for it, skin tone and all (`:thumbsup:`,
 * `:wave::skin-tone-3:`). In a DM its chat is the DM; in a channel the event names the message only, so its threadKey
 * is that message's `channel:ts` until `chatOf` finds its thread. The bot's own reactions are no one writing, nor is
 * a reaction taken back (reaction_removed, not read); its id is the message's, the user's and the event's time, the
 * same when Slack delivers it again.
 */
function reactionEvent(envelope: Json, event: Json): InboundEvent[] {
  const item = isObject(event.item) ? event.item : {};
  const user = str(event.user);
  const name = str(event.reaction);
  const eventTs = str(event.event_ts);
  if (!user || !name || !eventTs || user === botUserOf(envelope)) return [];
  const reaction = {
    sender: { id: user },
    text: `[reaction :${name}:]`,
    reaction: `:${name}:`,
    attachments: [],
    at: Math.round(Number(eventTs) * 1000) || undefined,
  };
  // A file's own reaction (its viewer; `file_comment` is Slack's older kind) names the file alone: `chatOf` asks
  // files.info where it is shared.
  const file = str(item.file);
  if ((item.type === "file" || item.type === "file_comment") && file)
    return [{ eventId: `${file}:reaction:${user}:${eventTs}`, threadKey: `${FILE_INFO}${file}`, ...reaction }];
  const channel = str(item.channel);
  const ts = str(item.ts);
  if (item.type !== "message" || !channel || !ts) return [];
  const direct = channel.startsWith("D");
  return [
    {
      eventId: `${channel}:${ts}:reaction:${user}:${eventTs}`,
      threadKey: direct ? channel : `${channel}:${ts}`,
      ...(direct ? {} : { group: { id: channel } }),
      ...reaction,
    },
  ];
}

/**
 * Where a reacted-to file is shared (files.info `shares`, files:read): the DM it was sent in, else the thread of its
 * first share in a channel; refused when the app sees it shared nowhere.
 */
async function fileChat(ctx: PlatformContext, fileId: string): Promise<Pick<InboundEvent, "threadKey" | "group">> {
  const answer = await callMethod(ctx, `files.info?file=${encodeURIComponent(fileId)}`);
  const file = isObject(answer.file) ? answer.file : {};
  const shares = isObject(file.shares) ? file.shares : {};
  const places = [shares.private, shares.public]
    .filter(isObject)
    .flatMap((byChannel) => Object.entries(byChannel))
    .map(([channel, list]) => ({ channel, share: Array.isArray(list) ? list.find(isObject) : undefined }))
    .filter((p): p is { channel: string; share: Json } => p.share !== undefined && !!str(p.share.ts));
  const direct = places.find((p) => p.channel.startsWith("D"));
  if (direct) return { threadKey: direct.channel };
  const [first] = places;
  if (!first) throw new PlatformError(`Slack shows the file ${fileId} shared in no conversation of the app`, 404);
  const ts = str(first.share.thread_ts) ?? str(first.share.ts);
  return { threadKey: `${first.channel}:${ts}`, group: { id: first.channel } };
}

function buttonTap(payload: Json): InboundEvent[] {
  const channel = str((payload.channel as Json | undefined)?.id);
  const user = str((payload.user as Json | undefined)?.id);
  const container = isObject(payload.container) ? payload.container : {};
  const message = isObject(payload.message) ? payload.message : {};
  const actions = Array.isArray(payload.actions) ? payload.actions.filter(isObject) : [];
  const action = actions.find((a) => a.type === "button" && str(a.value));
  const actionTs = str(action?.action_ts);
  if (payload.type !== "block_actions" || !channel || !user || !action || !actionTs) return [];
  const messageTs = str(container.message_ts) ?? str(message.ts) ?? actionTs;
  return [
    {
      eventId: `${channel}:action:${actionTs}`,
      ...place(channel, undefined, messageTs, str(container.thread_ts) ?? str(message.thread_ts)),
      sender: { id: user },
      text: str(action.value)!,
      attachments: [],
      at: Math.round(Number(actionTs) * 1000) || undefined,
    },
  ];
}

/**
 * Slack's `ok: false` as a PlatformError: 429 for `ratelimited`, 503 for its own failures, else 400; a refused token
 * marks the channel failing.
 */
export function slackRefusal(body: Json, response: Response): PlatformError {
  const error = str(body.error) ?? "unknown_error";
  const status = error === "ratelimited" ? 429 : TRANSIENT.has(error) ? 503 : 400;
  const needed = str(body.needed) ? ` (the app needs the ${body.needed} scope)` : "";
  return new PlatformError(
    `Slack answered ${error}${needed}`,
    status,
    status === 429 ? retryAfterSeconds(response) : undefined,
    TOKEN_REFUSED.has(error),
  );
}

/** A Web API method with the bot token; its answer when `ok` (or its error is `tolerated`), a PlatformError otherwise.
 * */
async function callMethod(
  ctx: PlatformContext,
  method: string,
  init: RequestInit = {},
  tolerated: string[] = [],
): Promise<Json> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${ctx.channel.credentials.botToken}`);
  const response = await ctx.call("slack", `/api/${method}`, { ...init, headers });
  if (!response.ok) throw await refusal("Slack", response, (body) => (isObject(body) ? str(body.error) : undefined));
  const body = await response.json().catch(() => undefined);
  if (!isObject(body)) throw new PlatformError(`Slack answered ${method} with something that is not JSON`, 502);
  if (body.ok !== true && !tolerated.includes(String(body.error))) throw slackRefusal(body, response);
  return body;
}

const postJson = (body: Json): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify(body),
});

/** Where a reply goes: the DM or channel of its thread key, in the Slack thread when there is one. */
function destination(threadKey: string, thread: Json | undefined) {
  const [channel, fromKey] = threadKey.split(":", 2);
  return { channel, threadTs: fromKey ?? str(thread?.threadTs) };
}

function buttons(quickReplies: string[]) {
  return {
    type: "actions",
    // Slack: at most 25 elements, a label of 75 characters, a value of 2,000.
    elements: quickReplies.slice(0, 25).map((label, i) => ({
      type: "button",
      action_id: `quick_reply_${i}`,
      text: { type: "plain_text", text: label.slice(0, 75), emoji: true },
      value: label.slice(0, 2000),
    })),
  };
}

/**
 * A file's bytes from its private URL with the bot token. A refusal is answered as a response that is not ok (the
 * intake leaves the file out, or tries again for a 429 or 5xx); only an unreachable host throws.
 */
async function privateFile(ctx: PlatformContext, attachment: InboundAttachment): Promise<Response> {
  const url = new URL(attachment.ref);
  const api = platformBase(ctx.env, "slack");
  const headers = { authorization: `Bearer ${ctx.channel.credentials.botToken}` };
  const refused = (status: number, reason: string) =>
    new Response(reason, { status, headers: { "content-type": "text/plain" } });
  let response: Response;
  // The bot token goes to Slack's file host, or to the configured API origin (a stand-in), nowhere else.
  if (url.href.startsWith(`${api}/`)) response = await ctx.call("slack", url.href.slice(api.length), { headers });
  else if (url.protocol === "https:" && url.hostname === "files.slack.com") {
    response = await fetchAnswer(url, { headers }, 30_000);
  } else return refused(400, `Slack file URL on an unexpected host: ${url.host}`);
  // Without files:read Slack answers with its sign-in page (or a redirect to it) instead of the file.
  const signIn =
    response.headers.get("content-type")?.startsWith("text/html") && !attachment.contentType?.startsWith("text/html");
  if ((response.status >= 300 && response.status < 400) || (response.ok && signIn)) {
    await response.body?.cancel();
    return refused(403, "Slack refused the file (the app needs the files:read scope)");
  }
  return response;
}

/** A Slack Connect file, which its event names only: its URL and name from files.info (files:read), then its bytes. */
async function connectFile(ctx: PlatformContext, attachment: InboundAttachment): Promise<Response> {
  const id = attachment.ref.slice(FILE_INFO.length);
  const info = await callMethod(ctx, `files.info?file=${encodeURIComponent(id)}`);
  const file = isObject(info.file) ? info.file : {};
  const url = str(file.url_private_download) ?? str(file.url_private);
  if (!url) return new Response(`Slack gave no link to file ${id}`, { status: 404 });
  const response = await privateFile(ctx, { ...attachment, ref: url, contentType: str(file.mimetype) });
  const name = str(file.name);
  if (!response.ok || !name) return response;
  // The name comes with the bytes, as a download's would (Content-Disposition).
  const headers = new Headers(response.headers);
  headers.set("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
  return new Response(response.body, { status: response.status, headers });
}

export const slack: ChannelAdapter = {
  platform: "slack",

  verify: (request: Request, raw: string, channel: ChannelConfig) =>
    verifySlackSignature(request.headers, raw, channel.credentials.signingSecret ?? ""),

  handshake(request, raw, _channel, signed) {
    if (request.method !== "POST") return null;
    const body = json(raw);
    if (!isObject(body) || body.type !== "url_verification") return null;
    // Not signed with the channel's secret: Slack says only that the URL did not answer, so the reason is kept here.
    if (!signed) return { passed: false, refusal: "bad_signature" };
    return { passed: true, answer: Response.json({ challenge: String(body.challenge ?? "") }) };
  },

  parse(raw, channel) {
    const payload = interaction(raw);
    if (payload) return elsewhere(channel, buttonTap(payload), payloadWorkspace(payload));
    const envelope = json(raw);
    if (!isObject(envelope))
      throw new ApiError(400, "parse_error", "The body is not a Slack event (JSON or an interactivity payload).");
    // app_rate_limited and other envelope types carry no message.
    if (envelope.type !== "event_callback" || !isObject(envelope.event)) return [];
    const event = envelope.event;
    const events =
      event.type === "reaction_added"
        ? reactionEvent(envelope, event)
        : event.type === "message" || event.type === "app_mention"
          ? messageEvent(envelope, event)
          : [];
    return elsewhere(channel, events, envelopeWorkspace(envelope));
  },

  async chatOf(ctx, event) {
    // Only a reaction names a file or, in a channel, a message instead of its chat (reactionEvent).
    if (event.reaction !== undefined && event.threadKey.startsWith(FILE_INFO))
      return fileChat(ctx, event.threadKey.slice(FILE_INFO.length));
    if (event.reaction === undefined || !event.group) return { threadKey: event.threadKey, group: event.group };
    const [channel, ts] = event.threadKey.split(":", 2);
    // Every message of a thread carries the thread's ts (its first message's), the first one included once answered;
    // a message no one answered carries none and is a chat of its own (with no conversation, unless it opened one).
    const query = `channel=${encodeURIComponent(channel)}&ts=${encodeURIComponent(ts)}&limit=1`;
    const answer = await callMethod(ctx, `conversations.replies?${query}`);
    const [message] = Array.isArray(answer.messages) ? answer.messages.filter(isObject) : [];
    return { threadKey: `${channel}:${str(message?.thread_ts) ?? ts}`, group: event.group };
  },

  async profile(ctx, event) {
    // A profile is a nicety: without users:read, or for a user Slack does not show, the contact keeps its id.
    const answer = await callMethod(ctx, `users.info?user=${encodeURIComponent(event.sender.id)}`, {}, [
      "user_not_found",
      "user_not_visible",
      "missing_scope",
    ]);
    const user = isObject(answer.user) ? answer.user : undefined;
    if (!user) return null;
    const profile = isObject(user.profile) ? user.profile : {};
    return {
      name: str(profile.display_name) ?? str(profile.real_name) ?? str(user.real_name) ?? str(user.name),
      avatar: str(profile.image_72),
    };
  },

  async groupName(ctx, channelId) {
    // A channel's name as Slack shows it (`#support`); a group DM's is made of its members' handles, so none.
    const answer = await callMethod(ctx, `conversations.info?channel=${encodeURIComponent(channelId)}`, {}, [
      "channel_not_found",
      "missing_scope",
    ]);
    const channel = isObject(answer.channel) ? answer.channel : undefined;
    return channel && !channel.is_mpim && !channel.is_im && str(channel.name) ? `#${str(channel.name)}` : null;
  },

  download: (ctx, attachment) =>
    attachment.ref.startsWith(FILE_INFO) ? connectFile(ctx, attachment) : privateFile(ctx, attachment),

  async connect(ctx) {
    const who = await callMethod(ctx, "auth.test", { method: "POST" });
    // A user token (xoxp-) would post as that person: the channel needs the app's bot user.
    if (!str(who.bot_id))
      throw new PlatformError("Slack: this token is not a bot token (xoxb-...); use the Bot User OAuth Token", 400);
    const detail = `Connected as @${str(who.user) ?? "?"} in team ${str(who.team) ?? str(who.team_id) ?? "?"}`;
    // The workspace the token is of: its events alone are the inbox's (see elsewhere). An org-wide install of an
    // Enterprise Grid is its organization's.
    const enterprise = who.is_enterprise_install === true ? str(who.enterprise_id) : undefined;
    const workspace = enterprise ? { enterpriseId: enterprise } : { teamId: str(who.team_id) ?? "" };
    return { detail, settings: { teamId: "", enterpriseId: "", ...workspace } };
  },

  async send(ctx, message) {
    const { channel, threadTs } = destination(message.threadKey, message.thread);
    const files = message.attachments.map((a) => `- [${a.filename.replace(/[[\]]/g, "")}](${a.url})`).join("\n");
    const markdown = [withCitations(message.text, message.citations), files].filter(Boolean).join("\n\n");
    const parts = shownParts(markdown, SLACK_TEXT_LIMIT).map(toSlackMrkdwn);
    const posts: Json[] = parts.map((text) => ({ channel, text }));
    if (message.quickReplies.length) {
      const last = posts.at(-1);
      // The buttons go under the reply's last part when it fits a section block, else after it on their own.
      if (last && (last.text as string).length <= SECTION_LIMIT) {
        last.blocks = [{ type: "section", text: { type: "mrkdwn", text: last.text } }, buttons(message.quickReplies)];
      } else posts.push({ channel, text: message.quickReplies.join(" · "), blocks: [buttons(message.quickReplies)] });
    }
    return sendInOrder(message, posts, async (post) => {
      const sent = await callMethod(
        ctx,
        "chat.postMessage",
        postJson({ ...post, ...(threadTs ? { thread_ts: threadTs } : {}), unfurl_links: false }),
      );
      return String(sent.ts);
    });
  },
};
