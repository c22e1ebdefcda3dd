// Slack's stand-in (stand-in.mjs): the Web API methods the channel uses, answered as Slack documents
// them (HTTP 200 with `ok: true`, or `ok: false` and an `error` code), private file downloads, and
// Events API requests signed the way Slack signs them.
// - The account is the bot token (`Authorization: Bearer xoxb-...`). A token that does not start with
//   `xoxb-` is refused with `invalid_auth` (none at all: `not_authed`); `xoxp-` is a user token
//   (auth.test without bot_id).
// - chat.postMessage checks what Slack checks: a channel, text or blocks, a section's text within
//   3,000 characters, a string thread_ts, text within 40,000 characters.
// - GET /files-pri/{team-file}/download/{name}: the file's bytes with the bot token (a 1x1 PNG for
//   images, text otherwise); without it Slack redirects to its sign-in page, and so does this.
// - files.info: any F... id is a PNG named after it (Slack Connect files come without URLs until asked for), with
//   `shares` (by channel, `private` for DMs and private channels, else `public`: [{ts, thread_ts?}]) where a message
//   event this stand-in signed carried it: Slack knows the messages it sends events for.
// - conversations.replies: the thread of a message (channel and ts), its first message first, each message with the
//   thread's `thread_ts` (docs.slack.dev). The stand-in knows the messages it posted (chat.postMessage, per bot
//   token); a person's message, which the tests post to our webhook and not here, is known by its ts alone: the first
//   message of a thread the stand-in posted replies in, else an ordinary message (no replies, no thread_ts).
// - conversations.info: a channel named `channel-<last 4 characters of its id>` (`general` for
//   C012AB3CD); D ids are DMs (no name); anything else is `channel_not_found`.
// - sign({signingSecret, body, timestamp?, retryNum?, payload?}): X-Slack-Signature "v0=" + hex
//   HMAC-SHA256(signingSecret, "v0:{timestamp}:{raw body}"); `payload` makes an interactivity
//   request (form field `payload` = JSON), `retryNum` adds X-Slack-Retry-Num/-Reason.
// - verification({signingSecret, challenge?, timestamp?}): the `url_verification` event Slack posts when a Request
//   URL is saved under Event Subscriptions, signed as every request (Events API docs): `{token, challenge, type}`,
//   the challenge to be answered back (as the body, `challenge=` form or `{"challenge"}` JSON).
import { createHmac, randomBytes } from "node:crypto";

export const TEAM = { id: "T061EG9R6", name: "Ghostbusters", url: "https://ghostbusters.slack.com/" };
export const BOT = { userId: "U0BOTU5ER", botId: "B0BOT1D00", name: "assistant" };
/** Users with a profile (Slack's documentation examples); any other U... id gets a made-up one. */
const USERS = {
  U2147483697: { name: "spengler", real_name: "Egon Spengler", display_name: "spengler" },
  U061F7AUR: { name: "venkman", real_name: "Peter Venkman", display_name: "" },
};
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const bearer = (req) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? null;
const refused = (error, extra = {}) => ({ body: { ok: false, error, ...extra } });

let sequence = 0;
/** Slack's message ids: the epoch second, a dot and six digits, unique per channel. */
const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++sequence).padStart(6, "0")}`;

/** @param {any} body @param {Record<string, any>} data the account's: the messages posted, by channel */
function postMessage(body, data) {
  if (!body || typeof body !== "object") return refused("invalid_arguments");
  if (typeof body.channel !== "string" || !body.channel) return refused("channel_not_found");
  if (!body.text && !(Array.isArray(body.blocks) && body.blocks.length)) return refused("no_text");
  if (body.thread_ts !== undefined && typeof body.thread_ts !== "string") return refused("invalid_thread_ts");
  if (typeof body.text === "string" && body.text.length > 40_000) return refused("msg_too_long");
  for (const block of body.blocks ?? []) {
    if (block.type === "section" && String(block.text?.text ?? "").length > 3000) {
      return refused("invalid_blocks", {
        errors: ["must be less than 3001 characters [json-pointer:/blocks/0/text/text]"],
      });
    }
    if (block.type === "actions" && !(block.elements?.length > 0 && block.elements.length <= 25))
      return refused("invalid_blocks");
  }
  const ts = nextTs();
  const message = {
    type: "message",
    user: BOT.userId,
    bot_id: BOT.botId,
    text: body.text ?? "",
    ts,
    ...(body.thread_ts ? { thread_ts: body.thread_ts } : {}),
  };
  data.messages ??= {};
  (data.messages[body.channel] ??= []).push(message);
  return { body: { ok: true, channel: body.channel, ts, message } };
}

/** conversations.replies: the thread of the message `ts` of `channel`, its first message first, `limit` of them. */
function replies(query, data) {
  const { channel, ts } = query;
  if (!/^[CGD][A-Z0-9]+$/.test(channel ?? "")) return refused("channel_not_found");
  if (!/^\d+\.\d{6}$/.test(ts ?? "")) return refused("thread_not_found");
  const posted = data.messages?.[channel] ?? [];
  const first = posted.find((m) => m.ts === ts)?.thread_ts ?? ts;
  const answers = posted.filter((m) => m.thread_ts === first && m.ts !== first);
  const head = posted.find((m) => m.ts === first) ?? { type: "message", ts: first, text: "" };
  const thread = answers.length
    ? [
        { ...head, thread_ts: first, reply_count: answers.length, latest_reply: answers.at(-1).ts },
        ...answers.map((m) => ({ ...m, ...(head.user ? { parent_user_id: head.user } : {}) })),
      ]
    : [head];
  const messages = thread.slice(0, Number(query.limit) || 1000);
  return {
    body: {
      ok: true,
      messages,
      has_more: messages.length < thread.length,
      response_metadata: { next_cursor: "" },
    },
  };
}

function userInfo(id) {
  if (!/^[UW][A-Z0-9]+$/.test(id ?? "")) return refused("user_not_found");
  const known = USERS[id] ?? { name: id.toLowerCase(), real_name: `User ${id}`, display_name: "" };
  const image = (size) => `https://avatars.slack-edge.com/2026-01-01/${id}_${size}.png`;
  return {
    body: {
      ok: true,
      user: {
        id,
        team_id: TEAM.id,
        name: known.name,
        deleted: false,
        real_name: known.real_name,
        is_bot: false,
        profile: {
          real_name: known.real_name,
          display_name: known.display_name,
          image_24: image(24),
          image_72: image(72),
          image_192: image(192),
        },
      },
    },
  };
}

/** Channels as conversations.info shows them: `general` for Slack's documentation example, a made-up name for any other
 * C/G id; D ids are DMs. */
export const channelNameOf = (id) => (id === "C012AB3CD" ? "general" : `channel-${id.slice(-4).toLowerCase()}`);

function channelInfo(id) {
  if (!/^[CGD][A-Z0-9]+$/.test(id ?? "")) return refused("channel_not_found");
  const im = id.startsWith("D");
  return {
    body: {
      ok: true,
      channel: {
        id,
        ...(im
          ? { is_im: true, user: "U2147483697" }
          : { name: channelNameOf(id), is_channel: true, is_im: false, is_mpim: false, is_private: false }),
      },
    },
  };
}

/**
 * files.info: any F... id is a PNG named after it, downloadable from this stand-in (`host`) with the bot token, as a
 * Slack Connect file is once asked for (its event carries only `file_access: "check_file_info"`).
 */
function fileInfo(id, host) {
  if (!/^F[A-Z0-9]+$/.test(id ?? "")) return refused("file_not_found");
  const name = `${id.toLowerCase()}.png`;
  const url = `http://${host}/files-pri/${TEAM.id}-${id}/download/${name}`;
  const file = { id, name, title: name, mimetype: "image/png", filetype: "png", size: PNG.length, mode: "hosted" };
  const shares = SHARES.get(id) ?? {};
  return { body: { ok: true, file: { ...file, url_private: url, url_private_download: url, shares } } };
}

/** A signed body as JSON; a hostile test signs bodies that are not. */
function jsonOrNothing(raw) {
  try {
    return JSON.parse(raw);
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Where each file was shared, by the message events signed here: files.info's `shares`. */
const SHARES = new Map();

/** Remembers the shares of the files a message event carries (its channel, ts and thread). */
function rememberShares(body) {
  const event = body && typeof body === "object" ? body.event : undefined;
  if (event?.type !== "message" || !Array.isArray(event.files) || !event.channel || !event.ts) return;
  const kind = /^[DG]/.test(event.channel) ? "private" : "public";
  for (const file of event.files) {
    if (typeof file?.id !== "string") continue;
    const shares = SHARES.get(file.id) ?? {};
    const share = { ts: event.ts, ...(event.thread_ts ? { thread_ts: event.thread_ts } : {}) };
    (shares[kind] ??= {})[event.channel] = [...(shares[kind]?.[event.channel] ?? []), share];
    SHARES.set(file.id, shares);
  }
}

/** @type {import("./stand-in.mjs").Platform} */
export const platform = {
  key: (req) => bearer(req),
  route(req, account) {
    const token = bearer(req);
    const file = /^\/files-pri\/[^/]+\/download\/([^/]+)$/.exec(req.path);
    if (file && req.method === "GET") {
      if (!token?.startsWith("xoxb-"))
        return { status: 302, headers: { location: `${TEAM.url}?redir=${encodeURIComponent(req.path)}` }, body: "" };
      const name = decodeURIComponent(file[1]);
      if (/\.png$/i.test(name)) return { headers: { "content-type": "image/png" }, body: PNG };
      return { headers: { "content-type": "text/plain" }, body: `contents of ${name}\n` };
    }
    const method = /^\/api\/([\w.]+)$/.exec(req.path)?.[1];
    if (!method) return { status: 404, body: "Not Found" };
    if (!token) return refused("not_authed");
    if (!/^xox[bp]-/.test(token)) return refused("invalid_auth");
    const bot = token.startsWith("xoxb-");
    switch (method) {
      case "auth.test":
        // A bot token's answer names the bot user and carries bot_id; a user token's does not.
        return {
          body: {
            ok: true,
            url: TEAM.url,
            team: TEAM.name,
            user: bot ? BOT.name : "grace",
            team_id: TEAM.id,
            user_id: bot ? BOT.userId : "W12345678",
            ...(bot ? { bot_id: BOT.botId } : {}),
            is_enterprise_install: false,
          },
        };
      case "users.info":
        return userInfo(req.query.user ?? req.body?.user);
      case "conversations.info":
        return channelInfo(req.query.channel ?? req.body?.channel);
      case "files.info":
        return fileInfo(req.query.file ?? req.body?.file, req.headers.host);
      case "conversations.replies":
        return replies({ ...(typeof req.body === "object" ? req.body : {}), ...req.query }, account.data);
      case "chat.postMessage":
        return bot ? postMessage(req.body, account.data) : refused("not_allowed_token_type");
      default:
        return refused("unknown_method");
    }
  },
  verification({ signingSecret, challenge = randomBytes(26).toString("hex"), timestamp }) {
    // `token` is the app's old verification token, which Slack still sends and no one should check.
    const body = { token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", challenge, type: "url_verification" };
    return { method: "POST", query: "", ...platform.sign({ signingSecret, body, timestamp }), challenge };
  },

  sign({ signingSecret, body, timestamp, retryNum, retryReason, payload }) {
    rememberShares(typeof body === "string" ? jsonOrNothing(body) : body);
    const ts = String(timestamp ?? Math.floor(Date.now() / 1000));
    const form = payload !== undefined;
    const raw = form
      ? new URLSearchParams({ payload: JSON.stringify(payload) }).toString()
      : typeof body === "string"
        ? body
        : JSON.stringify(body);
    const signature = `v0=${createHmac("sha256", signingSecret).update(`v0:${ts}:${raw}`).digest("hex")}`;
    const headers = {
      "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
      "x-slack-request-timestamp": ts,
      "x-slack-signature": signature,
      ...(retryNum
        ? { "x-slack-retry-num": String(retryNum), "x-slack-retry-reason": retryReason ?? "http_timeout" }
        : {}),
    };
    return { headers, body: raw };
  },
};
