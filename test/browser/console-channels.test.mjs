// The console's Channels page and the transcript's channel parts in Chromium against `wrangler dev`,
// with the Telegram Bot API stand-in (test/support/platforms/telegram.mjs) started here and named to
// the worker by TELEGRAM_API_ORIGIN: a Telegram inbox created from the page, its token saved (the
// field empty again, the mask as its placeholder), Connect shows Telegram's answer and "Connected",
// the webhook URL shown is the one the worker gave setWebhook; an update signed the stand-in's way
// (the secret token setWebhook was given) makes a conversation whose transcript tags the message
// "Telegram" and shows the reply sent; a reply Telegram refuses shows "Failed" with its reason and
// Retry sends it. A refused token, Meta's check of the webhook URL (refused, then passed) as the page says it, a type
// not connectable yet, zh-TW, axe-core in both themes; Disconnect asked first (the platform named, the conversations
// said to stay), then the page not connected and Telegram's webhook removed, or Telegram's refusal said;
// the screenshots docs/console/channel-telegram-*.png, channel-transcript-*.png and channel-disconnect-*.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandIn } from "../support/platforms/stand-in.mjs";
import { platform as telegram } from "../support/platforms/telegram.mjs";
import { platform as graph } from "../support/platforms/graph.mjs";
import { axeViolations, dialog, ownerOn, startConsole, LOCAL_LLM, ownerScreenshots } from "./console-helpers.mjs";

let app, standIn, inboxId, conversationId;
const token = `${Math.floor(Math.random() * 1e9)}:AAH-console-${Date.now()}`;

beforeAll(async () => {
  standIn = await startStandIn(telegram);
  app = await startConsole({
    vars: { TELEGRAM_API_ORIGIN: standIn.url, OUTBOUND_ALLOWED_HOSTS: new URL(standIn.url).host },
  });
  await app.server.api("/chatbots/", { body: { name: "Ava", largeLanguageModel: LOCAL_LLM } });
}, 400_000);

afterAll(async () => {
  await app?.close();
  await standIn?.close();
});

/** What our worker sent the stand-in for the bot, by Bot API method. */
const sent = async (method) =>
  (await (await fetch(`${standIn.url}/__requests?key=${encodeURIComponent(token)}`)).json()).filter(
    (r) => r.path === `/bot${token}/${method}`,
  );

let updateId = Math.floor(Math.random() * 1e8);
/** A private text message update, shaped as the Bot API documents it. */
const textUpdate = (text) => ({
  update_id: ++updateId,
  message: {
    message_id: updateId % 100000,
    from: { id: 5551234, is_bot: false, first_name: "Olivia", last_name: "Chen", language_code: "en" },
    chat: { id: 5551234, type: "private", first_name: "Olivia" },
    date: Math.floor(Date.now() / 1000),
    text,
  },
});

/** Posts an update to the inbox's webhook as Telegram would (the stand-in adds the secret token our worker set). */
async function deliver(webhookUrl, text) {
  const signed = await telegram.sign({ token, update: textUpdate(text) });
  const res = await fetch(webhookUrl, { method: "POST", headers: signed.headers, body: signed.body });
  expect(res.status).toBe(200);
}

const badge = (page) => page.locator(".badge.channel-status");

describe("Channels in Chromium", () => {
  it("creates a Telegram inbox, saves its token, connects; an update makes a conversation; reply sent", async () => {
    const { context, page, errors } = await ownerOn(app, "/channels");
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.base });
    await page.getByText("No messaging inbox yet.").waitFor();
    await page.getByRole("button", { name: "New channel" }).click();
    const d = dialog(page);
    await d.getByLabel("Name").fill("Acme on Telegram");
    await d.getByLabel("Platform").selectOption("telegram");
    // Not offered: types with nothing to connect to yet.
    expect(await d.locator('option[value="teams"]').isDisabled()).toBe(true);
    await d.getByLabel("Assistant").selectOption({ label: "Ava" });
    await d.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "Acme on Telegram: Telegram" }).waitFor();
    inboxId = new URL(page.url()).pathname.split("/").at(-1);
    expect(await badge(page).textContent()).toBe("Not connected");
    expect(await page.locator("main").textContent()).toContain("Last eventNone yet");

    // Save: the token is sent, the field is empty again with the saved mask as its placeholder.
    const field = page.getByLabel("Bot token");
    expect(await field.getAttribute("type")).toBe("password");
    await field.fill(token);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.locator(".toast", { hasText: "Settings saved." }).waitFor();
    await expect.poll(() => page.getByLabel("Bot token").getAttribute("placeholder")).toMatch(/^….{4}$/);
    expect(await page.getByLabel("Bot token").inputValue()).toBe("");
    expect(await page.locator("main").textContent()).not.toContain(token);

    // Connect: Telegram's answer (getMe's bot) and the status.
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.locator(".channel-outcome", { hasText: /^Telegram answered: .*acme_/ }).waitFor();
    expect(await badge(page).textContent()).toBe("Connected");
    // Connected and silent: what to do to see an event come.
    expect(await page.locator(".channel-waiting").textContent()).toBe(
      "Send the Telegram account a message: it shows here and in the inbox.",
    );
    const webhookUrl = await page.locator('[data-field="webhookUrl"]').textContent();
    expect(webhookUrl).toBe(`${app.base}/channels/telegram/${inboxId}`);
    const [setWebhook] = await sent("setWebhook");
    expect(setWebhook.body.url).toBe(webhookUrl);
    // Telegram needs no verify token; its steps and documentation are there.
    expect(await page.locator('[data-field="verifyToken"]').count()).toBe(0);
    expect(await page.getByRole("link", { name: "Telegram's documentation" }).getAttribute("href")).toBe(
      "https://core.telegram.org/bots#how-do-i-create-a-bot",
    );
    await page.getByRole("button", { name: "Copy the webhook URL" }).click();
    await page.locator(".copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhookUrl);
    // Saved again unchanged: still connected (nothing was sent that changes the credentials).
    const again = page.waitForResponse(
      (r) => r.url().endsWith(`/inboxes/${inboxId}/channel/`) && r.request().method() === "PUT",
    );
    await page.getByRole("button", { name: "Save", exact: true }).click();
    expect((await again).status()).toBe(200);
    expect(await badge(page).textContent()).toBe("Connected");
    expect(await axeViolations(page)).toEqual([]);

    // Telegram posts an update: a conversation, the message tagged Telegram, the reply sent.
    await deliver(webhookUrl, "Where is my parcel?");
    await page.goto(`${app.base}/console/conversations`);
    const row = page.locator(".inbox-list li", { hasText: "Where is my parcel?" });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole("link").click();
    const incoming = page.locator(".transcript .msg.sender-contact", { hasText: "Where is my parcel?" });
    await incoming.waitFor();
    expect(await incoming.locator(".badge.channel-tag").textContent()).toBe("Telegram");
    conversationId = new URL(page.url()).pathname.split("/").at(-1);
    const reply = page.locator(".transcript .msg.sender-chatbot", { hasText: "Where is my parcel?" });
    // Sending, then sent: the transcript reads the delivery again while it is on its way.
    await reply.locator('[data-delivery="sent"]').waitFor({ timeout: 20_000 });
    expect(await reply.locator(".msg-delivery .status").textContent()).toBe("Sent");
    expect((await sent("sendMessage")).map((r) => r.body.text)).toEqual(['You said: "Where is my parcel?".']);

    // The channel page has the event's time now.
    await page.goto(`${app.base}/console/channels/${inboxId}`);
    await badge(page).waitFor();
    expect(await page.locator("main").textContent()).not.toContain("None yet");
    expect(await page.locator(".channel-waiting").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a reply Telegram refuses shows failed with its reason; Retry sends it", async () => {
    const webhookUrl = `${app.base}/channels/telegram/${inboxId}`;
    // The stand-in's next answers for the bot: "typing" accepted, the reply refused.
    await fetch(`${standIn.url}/__script`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        key: token,
        responses: [
          { status: 200, body: { ok: true, result: true } },
          { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } },
        ],
      }),
    });
    await deliver(webhookUrl, "Are you there?");
    const { context, page, errors } = await ownerOn(app, `/conversations/${conversationId}`);
    const reply = page.locator(".transcript .msg.sender-chatbot", { hasText: "Are you there?" });
    const failed = reply.locator('[data-delivery="failed"]');
    await failed.waitFor({ timeout: 20_000 });
    expect(await failed.locator(".status").textContent()).toBe("Failed");
    expect(await failed.locator(".status").getAttribute("title")).toBe(
      "Telegram answered 400: Bad Request: chat not found",
    );
    expect(await failed.textContent()).toContain("Telegram answered 400: Bad Request: chat not found");
    expect(await axeViolations(page)).toEqual([]);

    await ownerScreenshots(app, `/console/conversations/${conversationId}`, "channel-transcript", {
      act: (p) => p.locator('.msg [data-delivery="failed"]').waitFor(),
      idle: false,
    });

    const before = (await sent("sendMessage")).length;
    await failed.getByRole("button", { name: "Retry sending this reply" }).click();
    await page.locator(".toast", { hasText: "Sending the reply again." }).waitFor();
    await reply.locator('[data-delivery="sent"]').waitFor({ timeout: 20_000 });
    expect((await sent("sendMessage")).length).toBe(before + 1);
    expect(await page.locator('[data-delivery="failed"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "a refused token shows Telegram's refusal and Failing; Messenger's verify token; a type not connectable yet " +
      "says so",
    async () => {
      const refused = await app.server.api("/inboxes/", { body: { name: "Old bot", channelType: "telegram" } });
      await app.server.api(`/inboxes/${refused.id}/channel/`, { method: "PUT", body: { botToken: "123:revoked" } });
      const { context, page, errors } = await ownerOn(app, `/channels/${refused.id}`);
      await page.getByRole("button", { name: "Connect", exact: true }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "Telegram refused: Telegram answered 401: Unauthorized. Check botToken: copy it again" })
        .waitFor();
      await expect.poll(() => badge(page).textContent()).toBe("Failing");
      expect(await page.locator(".channel-error").textContent()).toBe(
        "Telegram answered 401: Unauthorized. Check botToken: copy it again from the platform, save, and connect " +
          "again.",
      );
      expect(await axeViolations(page)).toEqual([]);

      const teams = await app.server.api("/inboxes/", { body: { name: "Teams desk", channelType: "teams" } });
      await page.goto(`${app.base}/console/channels/${teams.id}`);
      await page.getByRole("heading", { name: "Teams desk: Microsoft Teams" }).waitFor();
      expect(await page.locator("main").textContent()).toContain("Microsoft Teams inboxes cannot be connected yet");
      expect(await page.getByRole("button", { name: "Connect", exact: true }).count()).toBe(0);

      // A Meta platform: the verify token beside the webhook URL, both to copy, and Meta's webhook guide.
      const messenger = await app.server.api("/inboxes/", { body: { name: "Acme page", channelType: "messenger" } });
      const saved = await app.server.api(`/inboxes/${messenger.id}/channel/`, {
        method: "PUT",
        body: { pageId: "1029384756" },
      });
      await page.goto(`${app.base}/console/channels/${messenger.id}`);
      await page.getByRole("heading", { name: "Acme page: Messenger" }).waitFor();
      expect(await page.getByLabel("Page ID").inputValue()).toBe("1029384756");
      expect(await page.getByLabel("App secret").getAttribute("type")).toBe("password");
      expect(await page.locator('[data-field="verifyToken"]').textContent()).toBe(saved.verifyToken);
      await page.getByRole("button", { name: "Copy the verify token" }).waitFor();
      // Meta's check of the Callback URL, as Meta makes it when it is saved: refused with another token, then passed;
      // the page says which, and when.
      const check = page.locator(".channel-webhook-check");
      expect(await check.textContent()).toMatch(/^Not yet: Meta checks it when the webhook URL and verify token/);
      const metaCheck = async (verifyToken) => {
        const { query, challenge } = graph.verification({ verifyToken });
        const res = await fetch(`${app.base}/channels/messenger/${messenger.id}?${query}`);
        return [res.status, res.status === 200 && (await res.text()) === challenge];
      };
      expect(await metaCheck("meatyhamhock")).toEqual([403, false]);
      await page.reload();
      await check.locator('[data-check="refused"]').waitFor();
      expect(await check.textContent()).toMatch(
        /^Meta's check at .+ was refused: the verify token it sent is not this channel's\. Paste the verify token/,
      );
      expect(await metaCheck(saved.verifyToken)).toEqual([200, true]);
      await page.reload();
      await check.locator('[data-check="verified"]').waitFor();
      expect(await check.textContent()).toMatch(/^Meta verified the webhook at .+\.$/);
      expect(await page.getByRole("link", { name: "Messenger's documentation" }).getAttribute("href")).toBe(
        "https://developers.facebook.com/docs/messenger-platform/webhooks",
      );
      // Connect before every field is set: the API's reason, as it says it.
      await page.getByRole("button", { name: "Connect", exact: true }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "Fill in Page access token and App secret, then Connect." })
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // The list: every messaging inbox with its platform and its status, each linked to its channel page.
      await page.goto(`${app.base}/console/channels`);
      await page.getByRole("link", { name: "Channel settings of Acme on Telegram" }).waitFor();
      expect(await page.locator("table").textContent()).toContain("Microsoft Teams");
      const statusOf = (name) =>
        page
          .locator("tr", { has: page.getByRole("rowheader", { name, exact: true }) })
          .locator("td")
          .nth(1);
      await expect.poll(() => statusOf("Acme on Telegram").textContent()).toBe("Connected");
      expect(await statusOf("Old bot").textContent()).toBe("Failing");
      expect(await statusOf("Acme page").textContent()).toBe("Not connected");
      expect(await statusOf("Teams desk").textContent()).toBe("Not connectable yet");
      expect(await page.locator("thead").textContent()).toContain("Status");
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("Connect saves what was typed first; a field left empty is named in the page's language", async () => {
    const typed = `${Math.floor(Math.random() * 1e9)}:AAH-typed-${Date.now()}`;
    const inbox = await app.server.api("/inboxes/", { body: { name: "Typed bot", channelType: "telegram" } });
    const { context, page, errors } = await ownerOn(app, `/channels/${inbox.id}`);
    // Empty: Connect names the field by its label, and asks the API nothing.
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Fill in Bot token, then Connect." }).waitFor();
    // Typed, not saved: Connect saves it, then checks it with Telegram.
    await page.getByLabel("Bot token").fill(typed);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.locator(".channel-outcome", { hasText: /^Telegram answered: .*acme_/ }).waitFor();
    expect(await badge(page).textContent()).toBe("Connected");
    const asked = await (await fetch(`${standIn.url}/__requests?key=${encodeURIComponent(typed)}`)).json();
    expect(asked.map((r) => r.path.split("/").pop())).toEqual(["getMe", "setWebhook"]);
    expect(await page.getByLabel("Bot token").getAttribute("placeholder")).toMatch(/^….{4}$/);
    expect(await page.getByLabel("Bot token").inputValue()).toBe("");
    // A new token typed over a connected one: that one is checked (and refused), not the one saved before.
    await page.getByLabel("Bot token").fill("123:revoked-typed");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Telegram refused: Telegram answered 401" }).waitFor();
    await expect.poll(() => badge(page).textContent()).toBe("Failing");
    expect(errors).toEqual([]);
    await context.close();

    const messenger = await app.server.api("/inboxes/", { body: { name: "Shop page", channelType: "messenger" } });
    const zh = await ownerOn(app, `/channels/${messenger.id}`, { locale: "zh-TW" });
    expect(await zh.page.locator(".channel-webhook-check").textContent()).toMatch(/^尚未驗證：.+Meta 會進行驗證。$/);
    await zh.page.getByLabel("粉絲專頁 ID").fill("1029384756");
    await zh.page.getByRole("button", { name: "連線", exact: true }).click();
    await zh.page
      .getByRole("alert")
      .filter({ hasText: "請先填寫粉絲專頁存取權杖和應用程式密鑰，再按「連線」。" })
      .waitFor();
    // Nothing was saved, and what was typed is still there.
    expect(await zh.page.getByLabel("粉絲專頁 ID").inputValue()).toBe("1029384756");
    expect((await app.server.api(`/inboxes/${messenger.id}/channel/`, { method: "GET" })).credentials.pageId).toBe(
      null,
    );
    expect(await axeViolations(zh.page)).toEqual([]);
    expect(zh.errors).toEqual([]);
    await zh.context.close();
  });

  it("Disconnect asks first, then the page is not connected; Telegram's refusal is said", async () => {
    /** A Telegram inbox connected through the API, with a bot of its own. */
    const connected = async (name) => {
      const bot = `${Math.floor(Math.random() * 1e9)}:AAH-${name.replace(/\W/g, "")}-${Date.now()}`;
      const inbox = await app.server.api("/inboxes/", { body: { name, channelType: "telegram" } });
      await app.server.api(`/inboxes/${inbox.id}/channel/`, { method: "PUT", body: { botToken: bot } });
      await app.server.api(`/inboxes/${inbox.id}/channel/connect/`, { method: "POST" });
      return { id: inbox.id, bot };
    };
    const leaving = await connected("Leaving bot");
    // The question, in every look: the dialog opened, not confirmed.
    await ownerScreenshots(app, `/console/channels/${leaving.id}`, "channel-disconnect", {
      act: async (p) => {
        await p.locator(".channel-status-section .btn.danger").click();
        await dialog(p).waitFor();
      },
    });
    const zh = await ownerOn(app, `/channels/${leaving.id}`, { locale: "zh-TW" });
    await zh.page.getByRole("button", { name: "中斷連線" }).click();
    await dialog(zh.page).getByRole("heading", { name: "要中斷 Telegram 連線嗎？" }).waitFor();
    expect(await dialog(zh.page).textContent()).toContain("收件匣、聯絡人與對話都會保留");
    expect(await axeViolations(zh.page)).toEqual([]);
    expect(zh.errors).toEqual([]);
    await zh.context.close();

    const { context, page, errors } = await ownerOn(app, `/channels/${leaving.id}`);
    expect(await badge(page).textContent()).toBe("Connected");
    await page.getByRole("button", { name: "Disconnect", exact: true }).click();
    const d = dialog(page);
    await d.getByRole("heading", { name: "Disconnect Telegram?" }).waitFor();
    expect(await d.textContent()).toContain("The inbox, its contacts and conversations stay.");
    expect(await axeViolations(page)).toEqual([]);
    await d.getByRole("button", { name: "Disconnect", exact: true }).click();
    await page.locator(".toast", { hasText: "Telegram disconnected." }).waitFor();
    await expect.poll(() => badge(page).textContent()).toBe("Not connected");
    expect(await page.getByRole("button", { name: "Disconnect", exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Bot token").getAttribute("placeholder")).toBe("");
    const removed = await (await fetch(`${standIn.url}/__requests?key=${encodeURIComponent(leaving.bot)}`)).json();
    expect(removed.map((r) => r.path.split("/").pop())).toEqual([
      "getMe",
      "setWebhook",
      "getWebhookInfo",
      "deleteWebhook",
    ]);
    // What Telegram still sends is refused.
    const signed = await telegram.sign({ token: leaving.bot, update: textUpdate("Hello?") });
    const late = await fetch(`${app.base}/channels/telegram/${leaving.id}`, { method: "POST", ...signed });
    expect(late.status).toBe(404);
    expect(await axeViolations(page)).toEqual([]);

    // Telegram refusing to remove its webhook: disconnected all the same, and the page says what is left to do.
    const stuck = await connected("Stuck bot");
    await fetch(`${standIn.url}/__script`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        key: stuck.bot,
        responses: [{ status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } }],
      }),
    });
    await page.goto(`${app.base}/console/channels/${stuck.id}`);
    await page.getByRole("button", { name: "Disconnect", exact: true }).click();
    await dialog(page).getByRole("button", { name: "Disconnect", exact: true }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Disconnected here, but Telegram did not remove its webhook (Telegram answered 401: Unauth" })
      .waitFor();
    await expect.poll(() => badge(page).textContent()).toBe("Not connected");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("in zh-TW and dark: the channel page and the transcript, axe-clean; screenshots", async () => {
    const zh = await ownerOn(app, `/channels/${inboxId}`, { locale: "zh-TW" });
    await zh.page.getByRole("heading", { name: "Acme on Telegram：Telegram" }).waitFor();
    expect(await badge(zh.page).textContent()).toBe("已連線");
    expect(await zh.page.locator("main").textContent()).toContain("與 @BotFather 對話");
    expect(await axeViolations(zh.page)).toEqual([]);
    await zh.page.goto(`${app.base}/console/conversations/${conversationId}`);
    await zh.page.locator('[data-delivery="sent"] .status', { hasText: "已傳送" }).first().waitFor();
    expect(await axeViolations(zh.page)).toEqual([]);
    expect(zh.errors).toEqual([]);
    await zh.context.close();

    const dark = await ownerOn(app, `/channels/${inboxId}`, { theme: "dark" });
    await badge(dark.page).waitFor();
    expect(await axeViolations(dark.page)).toEqual([]);
    await dark.page.goto(`${app.base}/console/conversations/${conversationId}`);
    await dark.page.locator('[data-delivery="sent"]').first().waitFor();
    expect(await axeViolations(dark.page)).toEqual([]);
    await dark.context.close();

    await ownerScreenshots(app, `/console/channels/${inboxId}`, "channel-telegram", {
      act: (p) => p.locator(".badge.channel-status").waitFor(),
    });
  });
});
