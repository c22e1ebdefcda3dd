// Telegram's side of its end-to-end tests (telegram.test.ts, csat.test.ts): updates shaped as the Bot API
// documents them, signed by its stand-in (test/support/platforms/telegram.mjs) with the webhook's secret token.
import { expect, vi } from "vitest";
import { bindingsWith, fetchWorker, seedOwner, unique, type Settings } from "../harness";
import { bodyOf } from "../support/api";
import { standIn as binding } from "../support/bindings";
import { runQueue } from "../support/queues";
import { channelInbox, post, standIn, type ChannelInbox, type Scripted } from "./support";

export const telegram = standIn("telegram");
export const newToken = () => `${Math.floor(Math.random() * 1e9)}:${unique("AAH").replace(/[^A-Za-z0-9_-]/g, "")}`;

export interface TelegramUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
}
const OLIVIA: TelegramUser = { id: 5551234, first_name: "Olivia", last_name: "Chen", username: "olivia" };

let updateId = Math.floor(Math.random() * 1e8);
/** A private text message update, shaped as the Bot API documents it. */
export function textUpdate(
  text: string,
  from = OLIVIA,
  chat: Record<string, unknown> = { id: from.id, type: "private", first_name: from.first_name },
) {
  return {
    update_id: ++updateId,
    message: {
      message_id: updateId % 100000,
      from: { ...from, is_bot: false, language_code: "en" },
      chat,
      date: Math.floor(Date.now() / 1000),
      text,
    },
  };
}

/** A tap on an inline button, as the Bot API sends it (https://core.telegram.org/bots/api#callbackquery). */
export const callbackQuery = (data: string, from: TelegramUser) => ({
  update_id: ++updateId,
  callback_query: {
    id: String(updateId),
    from: { ...from, is_bot: false },
    chat_instance: "-77",
    data,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: "private" },
      text: "How would you rate…",
    },
  },
});

/** The Bot API's answer to a bot sending too fast (https://core.telegram.org/bots/api#responseparameters). */
export const TOO_MANY_REQUESTS: Scripted = {
  status: 429,
  body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } },
};

/** What the bot `token` asked of the Bot API's `method`. */
export const sent = async (token: string, method: string) =>
  (await telegram.requests(token)).filter((r) => r.path === `/bot${token}/${method}`);

/** A new owner with a Telegram inbox of a new bot, connected unless `connect: false`. */
export async function telegramInbox(options: { connect?: boolean } = {}) {
  const owner = await seedOwner();
  const token = newToken();
  const inbox: ChannelInbox = await channelInbox(owner, "telegram", { botToken: token }, options);
  /** Posts `update` to the inbox's webhook, signed with the bot's secret token. */
  const postUpdate = async (update: unknown) => post(inbox.path, await telegram.sign({ token, update }));
  return { owner, token, inbox, postUpdate };
}

/**
 * `update` in through the webhook of the bot `token`'s inbox (`path`) and then the channel consumer, both with
 * `settings` (a plan the shared worker has not): the webhook's queue work is held and handed to the consumer, as the
 * queue would hand it. Returns that work.
 */
export async function updateThroughConsumer(token: string, path: string, update: unknown, settings: Settings) {
  const work: unknown[] = [];
  const queue = binding("CHANNEL_QUEUE", {
    sendBatch: async (messages: { body: unknown }[]) => void work.push(...messages.map((m) => m.body)),
  });
  const signed = await telegram.sign({ token, update });
  const request = new Request(`https://assistants.example.com${path}`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  });
  expect((await fetchWorker(request, bindingsWith({ ...settings, CHANNEL_QUEUE: queue }))).status).toBe(200);
  await runQueue(
    "channel-work",
    work.map((body, i) => ({ id: `work-${i}`, body })),
    bindingsWith(settings),
  );
  return work;
}

/**
 * Two Telegram inboxes of one organization, the second's bot refusing `deleteWebhook` (401); `expectLeft` runs a
 * delete (organization, inbox) and expects both bots asked to drop their webhook and the refusal logged, not thrown.
 */
export async function botsOneRefusing() {
  const { owner, token, inbox } = await telegramInbox();
  const refusing = newToken();
  const other = await channelInbox(owner, "telegram", { botToken: refusing });
  const { webhookUrl } = await bodyOf<"GET /inboxes/{id}/channel/">(
    await owner.fetch("GET", `/inboxes/${other.inboxId}/channel/`),
  );
  await telegram.script(refusing, [
    { status: 200, body: { ok: true, result: { url: webhookUrl, pending_update_count: 0 } } },
    { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } },
  ]);
  const expectLeft = async (act: () => Promise<void>) => {
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await act();
      expect(await sent(token, "deleteWebhook")).toHaveLength(1);
      expect(await sent(refusing, "deleteWebhook")).toHaveLength(1);
      const logged = warnings.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
      expect(logged).toContainEqual(
        expect.objectContaining({
          organizationId: owner.organizationId,
          inboxId: other.inboxId,
          platformRefusal: "Telegram answered 401: Unauthorized",
        }),
      );
    } finally {
      warnings.mockRestore();
    }
  };
  return { owner, inbox, other, expectLeft };
}
