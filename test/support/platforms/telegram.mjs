// Telegram Bot API stand-in (https://core.telegram.org/bots/api): `POST /bot<token>/<method>` with a
// JSON body, answered `{ok, result}` or `{ok: false, error_code, description}` as Telegram does; files
// at `/file/bot<token>/<path>`. Telegram signs nothing: it sends the `secret_token` given to
// setWebhook back in X-Telegram-Bot-Api-Secret-Token, so `sign` uses the secret our worker set here.
// answerCallbackQuery needs a callback_query_id, as Telegram does. getWebhookInfo answers the URL setWebhook was given
// until deleteWebhook; `sign` keeps the secret token after it (a test posts what Telegram had already sent).

/** A 1x1 PNG: what `getFile` of any photo downloads. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** Tokens the stand-in refuses (401 Unauthorized), as Telegram refuses a revoked one. */
const REVOKED = /revoked|invalid/;

const HTML_TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "a",
  "code",
  "pre",
  "span",
  "tg-spoiler",
  "blockquote",
]);

/** Telegram's HTML parse mode: only its tags, balanced; returns the text as shown, or an error. */
function parseHtml(html) {
  const stack = [];
  for (const m of html.matchAll(/<\/?([a-z-]+)[^>]*>/g)) {
    const [tag, name] = [m[0], m[1]];
    if (!HTML_TAGS.has(name)) return { error: `Bad Request: can't parse entities: Unsupported start tag "${name}"` };
    if (tag.startsWith("</")) {
      if (stack.pop() !== name) return { error: `Bad Request: can't parse entities: Unexpected end tag` };
    } else stack.push(name);
  }
  if (stack.length) return { error: "Bad Request: can't parse entities: Can't find end tag" };
  if (/&(?!(amp|lt|gt|quot|#\d+);)/.test(html))
    return { error: "Bad Request: can't parse entities: Unsupported entity" };
  return {
    text: html
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  };
}

const fail = (error_code, description, parameters) => ({
  status: error_code,
  body: { ok: false, error_code, description, ...(parameters ? { parameters } : {}) },
});
const ok = (result) => ({ status: 200, body: { ok: true, result } });

let messageId = 1000;

/** sendChatAction's actions, as the Bot API lists them. */
const CHAT_ACTIONS = [
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
];

/** An inline keyboard as Telegram checks it: rows of buttons with text, and callback_data of 1-64 bytes. */
function keyboardProblem(markup) {
  if (!markup?.inline_keyboard) return null;
  if (!Array.isArray(markup.inline_keyboard) || !markup.inline_keyboard.every(Array.isArray))
    return 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays';
  for (const button of markup.inline_keyboard.flat()) {
    if (typeof button?.text !== "string" || !button.text)
      return "Bad Request: text buttons are unallowed in the inline keyboard";
    const size = Buffer.byteLength(String(button.callback_data ?? ""));
    if (button.callback_data !== undefined && (size < 1 || size > 64)) return "Bad Request: BUTTON_DATA_INVALID";
  }
  return null;
}

/** Secret tokens set by setWebhook, by bot token (for `sign`). */
const secrets = new Map();
/** Webhook URLs set by setWebhook, by bot token (getWebhookInfo, deleteWebhook). */
const webhooks = new Map();

/** @type {import("./stand-in.mjs").Platform} */
export const platform = {
  key(req) {
    return /^\/(?:file\/)?bot([^/]+)\//.exec(req.path)?.[1] ?? null;
  },
  route(req) {
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.path);
    if (file) return { status: 200, body: PNG, headers: { "content-type": "image/png" } };
    const call = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
    if (!call) return fail(404, "Not Found");
    const [, token, method] = call;
    if (REVOKED.test(token)) return fail(401, "Unauthorized");
    const body = req.body ?? {};
    switch (method) {
      case "getMe":
        return ok({
          id: 777000,
          is_bot: true,
          first_name: "Acme Help",
          username: `acme_${token.slice(0, 6).replace(/\W/g, "")}_bot`,
        });
      case "setWebhook":
        if (!/^https?:\/\//.test(body.url ?? ""))
          return fail(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook");
        if (body.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(body.secret_token))
          return fail(400, "Bad Request: secret token contains unallowed characters");
        secrets.set(token, body.secret_token);
        webhooks.set(token, body.url);
        return ok(true);
      case "getWebhookInfo":
        return ok({ url: webhooks.get(token) ?? "", has_custom_certificate: false, pending_update_count: 0 });
      case "deleteWebhook":
        // Telegram answers true with "Webhook is already deleted" when none is set.
        webhooks.delete(token);
        return ok(true);
      case "answerCallbackQuery":
        if (typeof body.callback_query_id !== "string" || !body.callback_query_id)
          return fail(400, "Bad Request: query is too old and response timeout expired or query ID is invalid");
        return ok(true);
      case "sendChatAction":
        if (!body.chat_id || !body.action) return fail(400, "Bad Request: chat_id and action are required");
        if (!CHAT_ACTIONS.includes(body.action)) return fail(400, "Bad Request: wrong parameter action in request");
        return ok(true);
      case "sendMessage": {
        if (!body.chat_id) return fail(400, "Bad Request: chat not found");
        if (typeof body.text !== "string" || !body.text.trim()) return fail(400, "Bad Request: message text is empty");
        const parsed = body.parse_mode === "HTML" ? parseHtml(body.text) : { text: body.text };
        if (parsed.error) return fail(400, parsed.error);
        // As Telegram: text that is empty once its entities are parsed (`<pre></pre>`) is empty.
        if (!parsed.text.trim()) return fail(400, "Bad Request: message text is empty");
        if (parsed.text.length > 4096) return fail(400, "Bad Request: message is too long");
        const markup = keyboardProblem(body.reply_markup);
        if (markup) return fail(400, markup);
        return ok({
          message_id: ++messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(body.chat_id), type: "private" },
          text: parsed.text,
        });
      }
      case "sendPhoto":
      case "sendDocument":
        if (!body.chat_id) return fail(400, "Bad Request: chat not found");
        return ok({
          message_id: ++messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(body.chat_id), type: "private" },
        });
      case "getFile":
        if (!body.file_id) return fail(400, "Bad Request: file_id is required");
        return ok({
          file_id: body.file_id,
          file_unique_id: `u${body.file_id}`,
          file_size: PNG.length,
          file_path: `photos/${body.file_id}.png`,
        });
      default:
        return fail(404, "Not Found: method not found");
    }
  },
  /** `{token, update, secret?}`: the request Telegram makes to the webhook, with the secret setWebhook was given (or
   * `secret` to forge one). */
  sign({ token, update, secret }) {
    const given = secret ?? secrets.get(token);
    return {
      headers: { "content-type": "application/json", ...(given ? { "x-telegram-bot-api-secret-token": given } : {}) },
      body: JSON.stringify(update),
    };
  },
};
