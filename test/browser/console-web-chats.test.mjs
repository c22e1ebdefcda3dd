// The console's web chat designer in Chromium against `wrangler dev`: the primary colour and the
// greeting change in the form, and the live preview (the served widget.js in a frame) follows at
// once, light and dark; saved, the snippet copied from the page is put on a blank page of another
// origin (a loopback server) and the widget there opens with those settings. Also the identity
// secret (shown once), the custom domain's check, keyboard-only editing, a new web chat from its
// dialog with its avatar and logo uploaded, the codes to paste above the designer (a language chosen
// there goes into each), the pre-chat form (in the preview, and in the widget, which says why an empty
// form or an early message waits), axe in both themes and the screenshots of docs/console/.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebChat } from "../../bench/lib.mjs";
import { givenPort, slot } from "../support/test-ports.mjs";
import {
  ACME_HELP,
  axeViolations,
  ownerOn,
  startConsole,
  CONSOLE_PORTS,
  LOCAL_LLM,
  ownerScreenshots,
  PNG,
} from "./console-helpers.mjs";

let app, site, chat;

/** A blank page on another origin of the loopback: its body is whatever the test puts there. */
function blankSite(port) {
  let body = "";
  const http = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><title>Blank</title><link rel="icon" ` +
        `href="data:,"></head><body>${body}</body></html>`,
    );
  });
  return new Promise((resolve) =>
    http.listen(port, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${port}/`,
        set: (html) => (body = html),
        close: () => new Promise((r) => http.close(r)),
      }),
    ),
  );
}

beforeAll(async () => {
  // A fixed DNS table without the challenge record: the check answers "not verified" offline.
  app = await startConsole({ vars: { DNS_STATIC_TXT: "{}" } });
  // The other port of this run's range (this worker's 50 of the default range): half the range away from the worker's;
  // CONSOLE_TEST_SITE_PORT for a range of one's own.
  const from = CONSOLE_PORTS.from + slot() * CONSOLE_PORTS.size;
  site = await blankSite(
    givenPort("CONSOLE_TEST_SITE_PORT") ?? from + ((app.server.port - from + 25) % CONSOLE_PORTS.size),
  );
  chat = await createWebChat(app.server, {
    assistant: { name: "Ava", largeLanguageModel: LOCAL_LLM },
    webChat: {
      ...ACME_HELP,
      displayGreeting: "Hello! How can I help?",
      displayConversationStarters: ["Opening hours?", "Do you ship abroad?"],
    },
  });
}, 120_000);

afterAll(async () => {
  await site?.close();
  await app?.close();
});

async function designer(options) {
  const opened = await ownerOn(app, `/web-chats/${chat.id}`, options);
  await preview(opened.page).locator(".row.assistant .bubble").first().waitFor();
  return opened;
}

const preview = (page) => page.frameLocator("iframe.widget-preview");
const backgroundOf = (locator) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);

describe("the web chat designer in Chromium", () => {
  it("takes the screenshots of docs/console/", async () => {
    await ownerScreenshots(app, "/console/web-chats", "web-chats");
    await ownerScreenshots(app, `/console/web-chats/${chat.id}`, "web-chat-designer", {
      zhBrowser: true,
      act: (page) => preview(page).locator(".row.assistant .bubble").first().waitFor(),
      // At a phone's width the preview's frame sits far below the codes, and Chromium did not report
      // the page idle within 30 s although no request was open (checked): the act waits for what
      // the picture shows instead.
      idle: false,
    });
  });

  it(
    "shows colour and greeting changes in the live preview; the copied snippet opens the widget with them on a " +
      "blank page",
    async () => {
      const { context, page, errors } = await designer();
      const frame = preview(page);
      // The real widget, served by the worker, with the saved settings first.
      expect(await frame.locator("script").getAttribute("src")).toBe("/widget.js");
      expect(await frame.locator(".row.assistant .bubble").first().textContent()).toBe("Hello! How can I help?");
      expect(await backgroundOf(frame.locator("button.launcher"))).toBe("rgb(79, 70, 229)");

      await page.getByLabel("Primary colour", { exact: true }).fill("#C2410C");
      await expect.poll(() => backgroundOf(frame.locator("button.launcher"))).toBe("rgb(194, 65, 12)");
      await page.getByLabel("Greeting").fill("Welcome to Acme! Ask me anything.");
      await expect
        .poll(() => frame.locator(".row.assistant .bubble").first().textContent())
        .toBe("Welcome to Acme! Ask me anything.");
      expect(await page.getByText(/Unsaved changes/).count()).toBe(1);
      // Nothing is saved yet.
      expect((await app.server.api(`/web-chats/${chat.id}/`, { method: "GET" })).displayGreeting).toBe(
        "Hello! How can I help?",
      );

      // Dark: the dark theme's colour, and its fields are the ones edited.
      await page
        .getByRole("group", { name: "Theme to edit and preview" })
        .first()
        .getByRole("button", { name: "Dark" })
        .click();
      await expect.poll(() => frame.locator("[data-assistant-chat]").getAttribute("class")).toContain("dark");
      expect(await backgroundOf(frame.locator("button.launcher"))).toBe("rgb(165, 180, 252)");
      expect(await page.getByLabel("Primary colour", { exact: true }).inputValue()).toBe("#A5B4FC");
      await page
        .getByRole("group", { name: "Theme to edit and preview" })
        .first()
        .getByRole("button", { name: "Light" })
        .click();
      await expect.poll(() => backgroundOf(frame.locator("button.launcher"))).toBe("rgb(194, 65, 12)");

      // A bad colour is the API's field error at its field; nothing changes.
      await page.getByLabel("Visitor message bubble", { exact: true }).fill("blue");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect
        .poll(() => page.getByLabel("Visitor message bubble", { exact: true }).getAttribute("aria-invalid"))
        .toBe("true");
      expect(await page.locator(".field-error").first().textContent()).toContain("HEX");
      await page.getByLabel("Visitor message bubble", { exact: true }).fill("");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByText(/Unsaved changes/).waitFor({ state: "detached" });
      const saved = await app.server.api(`/web-chats/${chat.id}/`, { method: "GET" });
      expect(saved.displayGreeting).toBe("Welcome to Acme! Ask me anything.");
      expect(saved.theme.primaryColor).toBe("#C2410C");
      expect(saved.darkTheme.primaryColor).toBe("#A5B4FC");
      expect(saved.displayConversationStarters).toEqual(["Opening hours?", "Do you ship abroad?"]);

      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.base });
      await page.getByRole("button", { name: "Copy snippet" }).click();
      const snippet = await page.evaluate(() => navigator.clipboard.readText());
      expect(snippet).toBe(`<script src="${app.base}/widget.js" data-web-chat-id="${chat.id}" async></script>`);
      expect(errors).toEqual([]);
      await context.close();

      site.set(snippet);
      const visitor = await app.browser.newContext();
      const blank = await visitor.newPage();
      await blank.goto(site.url);
      const launcher = blank.locator("button.launcher");
      await launcher.waitFor();
      expect(await backgroundOf(launcher)).toBe("rgb(194, 65, 12)");
      await launcher.click();
      await expect.poll(() => launcher.getAttribute("aria-expanded")).toBe("true");
      expect(await blank.locator(".row.assistant .bubble").first().textContent()).toBe(
        "Welcome to Acme! Ask me anything.",
      );
      expect(await blank.locator("button.chip").allTextContents()).toEqual(["Opening hours?", "Do you ship abroad?"]);
      await visitor.close();
    },
  );

  it(
    "shows the codes to paste above the designer; with anonymous chat off, the preview and the widget show the " +
      "pre-chat form, which says why when sent empty",
    async () => {
      const { context, page, errors } = await designer();
      const embed = page.getByRole("region", { name: "Embed" });
      expect((await embed.boundingBox()).y).toBeLessThan((await page.locator("form.designer-form").boundingBox()).y);
      expect(await embed.getByRole("button", { name: /^Copy / }).allTextContents()).toEqual([
        "Copy snippet",
        "Copy iframe",
        "Copy link",
        "Copy component",
      ]);
      // A language fixed above the codes goes into each of them; a visitor whose browser prefers English gets it.
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.base });
      await embed.getByLabel("Language of the chat").selectOption("zh-TW");
      await embed.getByRole("button", { name: "Copy snippet" }).click();
      const snippet = await page.evaluate(() => navigator.clipboard.readText());
      expect(snippet).toBe(
        `<script src="${app.base}/widget.js" data-web-chat-id="${chat.id}" data-lang="zh-TW" async></script>`,
      );
      expect(await embed.getByRole("link", { name: `${app.base}/chat/${chat.id}?lang=zh-TW` }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      site.set(snippet);
      const reader = await app.browser.newContext({ locale: "en-US" });
      const visit = await reader.newPage();
      await visit.goto(site.url);
      await visit.getByRole("button", { name: "開啟聊天：Acme Help" }).waitFor();
      await reader.close();

      // The preview speaks the language chosen for the codes, and the browser's again once that is chosen.
      const frame = preview(page);
      const placeholder = () => frame.locator(".composer textarea").getAttribute("placeholder");
      await expect.poll(placeholder).toBe("輸入您的訊息…");
      expect(await frame.locator("html").getAttribute("lang")).toBe("zh-TW");
      await embed.getByLabel("Language of the chat").selectOption("");
      await expect.poll(placeholder).toBe("Type your message…");

      // The preview follows the unsaved switch: the form a visitor will meet.
      await page.getByLabel("Visitors may chat without giving a name or e-mail").uncheck();
      const start = frame.getByRole("button", { name: "Start chatting" });
      await start.click();
      await frame.getByText("Please give your name or your e-mail so we can start.").waitFor();
      expect(await frame.locator("#pc-name").getAttribute("aria-invalid")).toBe("true");
      await frame.locator("#pc-name").fill("Vera");
      await start.click();
      await frame.locator(".composer textarea").waitFor();
      expect(errors).toEqual([]);
      await context.close();

      await app.server.api(`/web-chats/${chat.id}/`, { method: "PATCH", body: { enableAnonymous: false } });
      try {
        site.set(`<script src="${app.base}/widget.js" data-web-chat-id="${chat.id}" async></script>`);
        const visitor = await app.browser.newContext();
        const blank = await visitor.newPage();
        await blank.goto(site.url);
        await blank.locator("button.launcher").click();
        const form = blank.locator("form.prechat");
        await form.waitFor();
        // A message sent before the form is filled (here through the page's API) waits, and the form says why.
        await blank.evaluate(() => window.AssistantChat.send("Do you ship abroad?"));
        await form
          .getByText("Tell us your name or your e-mail first: your message is sent as soon as you start.")
          .waitFor();
        await form.getByLabel("E-mail").fill("vera@example.com");
        await form.getByRole("button", { name: "Start chatting" }).click();
        await blank.locator(".row.visitor", { hasText: "Do you ship abroad?" }).waitFor();
        // And answered, below the greeting.
        await expect.poll(() => blank.locator(".row.assistant").count(), { timeout: 20_000 }).toBeGreaterThan(1);
        await visitor.close();
      } finally {
        await app.server.api(`/web-chats/${chat.id}/`, { method: "PATCH", body: { enableAnonymous: true } });
      }
    },
  );

  it("edits from the keyboard alone: greeting typed, saved with Enter", async () => {
    const { context, page } = await designer();
    await page.getByLabel("Description").focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("Typed from the keyboard");
    await expect.poll(() => preview(page).locator("header p").textContent()).toBe("Typed from the keyboard");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => (await app.server.api(`/web-chats/${chat.id}/`, { method: "GET" })).description)
      .toBe("Typed from the keyboard");
    // The focus stayed in the form: the preview takes none.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("INPUT");
    await context.close();
  });

  it("shows the identity secret of a private web chat once and checks the custom domain", async () => {
    const { context, page } = await designer();
    await page.getByLabel("Who may chat").selectOption("private");
    await page.getByLabel("Domain", { exact: true }).fill("chat.example.com");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText(/Unsaved changes/).waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Create or replace the secret" }).click();
    await page.locator("dialog[open]").getByRole("button", { name: "Create new secret" }).click();
    const secret = page.locator("dialog[open]").getByLabel("Identity secret");
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^wcs_[A-Za-z0-9]{40}$/);
    await page.locator("dialog[open]").getByRole("button", { name: "Done" }).click();
    // The confirmation and the secret are two dialogs: the focus goes back to the button that opened the first.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Create or replace the secret");

    const status = page.locator(".domain-check .status");
    expect(await status.textContent()).toBe("Pending");
    await page.getByRole("button", { name: "Check DNS record" }).click();
    await expect.poll(() => status.textContent()).toBe("Not verified");
    expect(await page.locator(".domain-check .facts").textContent()).toContain(
      "_assistant-platform-challenge.chat.example.com",
    );
    await context.close();
  });

  it("creates a web chat with the New web chat dialog, then uploads its avatar and logo", async () => {
    const { context, page, errors } = await ownerOn(app, "/web-chats");
    await page.getByRole("button", { name: "New web chat" }).click();
    const form = page.locator("dialog[open]");
    // The API's error for the name shows at the field (a name of spaces passes the browser's check).
    await form.getByLabel("Name", { exact: true }).fill("   ");
    await form.getByLabel("Assistant").selectOption({ label: "Ava" });
    await form.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => form.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await form.getByLabel("Name", { exact: true }).fill("Shop chat");
    await form.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: /Shop chat/, level: 1 }).waitFor();
    // The new page's heading has the focus (the dialog and its button are gone), not the page's body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Web chat: Shop chat");
    const id = new URL(page.url()).pathname.split("/").pop();
    const created = await app.server.api(`/web-chats/${id}/`, { method: "GET" });
    expect(created).toMatchObject({ name: "Shop chat", accessType: "public", avatar: null });
    const inbox = await app.server.api(`/inboxes/${created.inbox.id}/`, { method: "GET" });
    expect(inbox).toMatchObject({ channelType: "web", chatbot: { name: "Ava" } });

    // An upload the spec refuses: its reason under the button; nothing saved.
    await page
      .getByLabel("Upload Assistant avatar")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
    await page
      .locator(".image-upload .field-error")
      .getByText(/not an allowed file type/)
      .waitFor();
    await page
      .getByLabel("Upload Assistant avatar")
      .setInputFiles({ name: "face.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("img", { name: "Current Assistant avatar" }).waitFor();
    await page.getByLabel("Upload Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("img", { name: "Current Logo" }).waitFor();
    const saved = await app.server.api(`/web-chats/${id}/`, { method: "GET" });
    expect(saved.avatar).toMatch(
      new RegExp(`^${app.base}/api/v1/files/public/web-chats/${id}/[0-9a-f-]{36}-face\\.png$`),
    );
    expect(saved.logo).toMatch(/-logo\.png$/);
    expect(await page.getByLabel("Assistant avatar", { exact: true }).inputValue()).toBe(saved.avatar);
    // Served to anyone (the widget's visitors), and drawn in the page.
    const image = await fetch(saved.avatar);
    expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    expect(await page.getByRole("img", { name: "Current Logo" }).evaluate((img) => img.naturalWidth)).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("has no serious or critical axe violations, light and dark", async () => {
    for (const theme of ["light", "dark"]) {
      const { context, page } = await designer({ theme });
      expect(await axeViolations(page)).toEqual([]);
      await page.goto(`${app.base}/console/web-chats`);
      await page.getByRole("link", { name: "Design Acme Help" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "New web chat" }).click();
      await page.locator("dialog[open]").getByLabel("Assistant").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
