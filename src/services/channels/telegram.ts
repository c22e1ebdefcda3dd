// Telegram Bot API (https://core.telegram.org/bots/api) through grammY's `Api` client (its web
// build runs in workerd; ~45 kB minified, a module of its own: src/vendored.ts), given our guarded
// fetch and TELEGRAM_API_ORIGIN.
import type { Api } from "grammy/web";
import type { Update } from "grammy/types";
import { vendored } from "../../vendored";
import { badRequest } from "../../lib/errors";
import { timingSafeEqual } from "../../lib/crypto";
import { fetchPlatform, platformBase, refusal } from "./http";
import { shownParts, toTelegramHtml, withCitations } from "./markdown";
import { readUpdate, updateProblem } from "./telegram-updates";
import { PlatformError, sendInOrder, type ChannelAdapter, type PlatformContext } from "./types";

/** Telegram's limit on a message's text (after entities are parsed; the Markdown is cut a little shorter). */
const TEXT_LIMIT = 4096;

async function api(ctx: PlatformContext): Promise<Api> {
  const { Api } = await vendored("grammy");
  return new Api(ctx.channel.credentials.botToken ?? "", {
    apiRoot: platformBase(ctx.env, "telegram"),
    fetch: (async (url: string, init: RequestInit) => {
      const response = await fetchPlatform(ctx.env, "telegram", String(url), init);
      if (response.ok) return response;
      // grammY reads only the body: Telegram's own refusals carry their code there; another answer (a gateway's
      // 502 page, an outage's body) would be a refusal without status, never tried again. Its HTTP status is said.
      const body = await response
        .clone()
        .json<{ error_code?: unknown }>()
        .catch(() => null);
      if (typeof body?.error_code === "number") return response;
      throw await refusal("Telegram", response);
    }) as unknown as typeof fetch,
    // grammY's own deadline is longer than ours (http.ts).
    timeoutSeconds: 30,
  });
}

/** grammY's failures as PlatformError: Telegram's own code and words, its retry_after on a 429. */
async function asked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const { GrammyError, HttpError } = await vendored("grammy");
    // A 403 is about one chat ("bot was blocked by the user", "user is deactivated"); a refused token is a 401.
    if (err instanceof GrammyError)
      throw new PlatformError(
        `Telegram answered ${err.error_code}: ${err.description}`,
        err.error_code,
        err.parameters.retry_after,
        err.error_code === 401,
      );
    if (err instanceof HttpError)
      throw err.error instanceof PlatformError
        ? err.error
        : new PlatformError(
            `Telegram could not be reached: ${String((err.error as Error)?.message ?? err.error)}`,
            null,
          );
    throw err;
  }
}

const encoder = new TextEncoder();

/** The satisfaction question's buttons: one row of inline buttons whose callback data is `csat:<rating>`. */
const ratingKeyboard = (choices: string[]) => ({
  reply_markup: { inline_keyboard: [choices.map((text) => ({ text, callback_data: `csat:${text}` }))] },
});

export const telegram: ChannelAdapter = {
  platform: "telegram",

  async verify(request, _raw, channel) {
    const given = request.headers.get("X-Telegram-Bot-Api-Secret-Token");
    return !!given && timingSafeEqual(encoder.encode(given), encoder.encode(channel.webhookSecret));
  },

  parse(raw) {
    let update: Update;
    try {
      update = JSON.parse(raw) as Update;
    } catch {
      throw badRequest("The update is not JSON.");
    }
    if (typeof update?.update_id !== "number") throw badRequest("Not a Telegram update: update_id is missing.");
    const problem = updateProblem(update);
    if (problem) throw badRequest(`Not a Telegram update as the Bot API writes it (${problem}).`);
    return readUpdate(update);
  },

  async download(ctx, attachment) {
    const file = await asked(async () => (await api(ctx)).getFile(attachment.ref));
    if (!file.file_path) throw new PlatformError("Telegram has no file path for this file (larger than 20 MB?)", 400);
    return fetchPlatform(
      ctx.env,
      "telegram",
      `${platformBase(ctx.env, "telegram")}/file/bot${ctx.channel.credentials.botToken}/${file.file_path}`,
    );
  },

  async acknowledge(ctx, tapId) {
    await asked(async () => (await api(ctx)).answerCallbackQuery(tapId));
  },

  async connect(ctx) {
    const client = await api(ctx);
    const me = await asked(() => client.getMe());
    await asked(() =>
      client.setWebhook(ctx.channel.webhookUrl, {
        secret_token: ctx.channel.webhookSecret,
        allowed_updates: ["message", "edited_message", "callback_query", "message_reaction"],
      }),
    );
    return `Connected to @${me.username}; Telegram sends its updates to ${ctx.channel.webhookUrl}.`;
  },

  async disconnect(ctx) {
    const client = await api(ctx);
    // A webhook pointing elsewhere is another service's (the bot moved on): left to it.
    const { url } = await asked(() => client.getWebhookInfo());
    if (url !== ctx.channel.webhookUrl)
      return url
        ? `Telegram's webhook points at ${url}, not at this inbox: left as it is.`
        : "Telegram had no webhook set: nothing to remove.";
    await asked(() => client.deleteWebhook());
    return `Telegram's webhook to ${url} was removed.`;
  },

  async send(ctx, message) {
    const client = await api(ctx);
    const chatId = message.threadKey;
    // Cut shorter than the limit: the HTML's escapes do not count, but a part must never exceed it. A part that renders
    // to nothing is left out (shownParts).
    const texts = message.text.trim()
      ? shownParts(withCitations(message.text, message.citations), TEXT_LIMIT - 200)
      : [];
    const keyboard = !message.quickReplies.length
      ? {}
      : message.rating
        ? ratingKeyboard(message.quickReplies)
        : {
            reply_markup: {
              keyboard: message.quickReplies.map((text) => [{ text }]),
              one_time_keyboard: true,
              resize_keyboard: true,
            },
          };
    const parts = [
      ...texts.map((text, i) => ({ text, last: i === texts.length - 1 })),
      ...message.attachments.map((file) => ({ file })),
    ];
    return sendInOrder(message, parts, async (part) => {
      const sent = await asked<{ message_id: number }>(() =>
        "text" in part
          ? client.sendMessage(chatId, toTelegramHtml(part.text), {
              parse_mode: "HTML",
              link_preview_options: { is_disabled: true },
              ...(part.last ? keyboard : {}),
            })
          : part.file.contentType.startsWith("image/")
            ? client.sendPhoto(chatId, part.file.url)
            : client.sendDocument(chatId, part.file.url),
      );
      return String(sent.message_id);
    });
  },

  async typing(ctx, threadKey) {
    await asked(async () => (await api(ctx)).sendChatAction(threadKey, "typing"));
  },
};
