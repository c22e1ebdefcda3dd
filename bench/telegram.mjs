// A Telegram inbox of a bench's server, connected to the Bot API stand-in (test/support/platforms/telegram.mjs), and
// the updates Telegram would post to it: bench/channels.mjs and bench/storage.mjs (BENCH_CHANNEL=telegram).
import { platform as telegram } from "../test/support/platforms/telegram.mjs";

/** A Telegram inbox of the assistant `chatbotId`, connected: its id, bot token and our webhook's URL. */
export async function telegramInbox(server, { name, chatbotId }) {
  const inbox = await server.api("/inboxes/", { body: { name, channelType: "telegram", chatbot: { id: chatbotId } } });
  const token = `${100000 + Math.floor(Math.random() * 899999)}:AAH${name.replace(/\W/g, "")}${Date.now()}`;
  await server.api(`/inboxes/${inbox.id}/channel/`, { method: "PUT", body: { botToken: token } });
  const channel = await server.api(`/inboxes/${inbox.id}/channel/connect/`, { body: {} });
  if (channel.status !== "connected") throw new Error(`not connected: ${JSON.stringify(channel)}`);
  return { inboxId: inbox.id, token, url: `${server.base}${new URL(channel.webhookUrl).pathname}` };
}

/** Updates of private text messages, numbered from 1 (a Telegram chat id is the user's id in a private chat). */
export function updates() {
  let updateId = 1;
  return (chat, text) => ({
    update_id: updateId++,
    message: {
      message_id: updateId,
      from: { id: chat, is_bot: false, first_name: `User ${chat}`, language_code: "en" },
      chat: { id: chat, type: "private", first_name: `User ${chat}` },
      date: Math.floor(Date.now() / 1000),
      text,
    },
  });
}

/** Telegram's request to our webhook: the stand-in signs it (with the secret token our connect gave setWebhook). */
export async function deliver(inbox, update) {
  const signed = telegram.sign({ token: inbox.token, update });
  const res = await fetch(inbox.url, { method: "POST", headers: signed.headers, body: signed.body });
  await res.arrayBuffer();
  return res.status;
}
