// Private notes and canned responses in Chromium against `wrangler dev`, with two browser
// contexts: a visitor in the widget (served widget.js on a page of another origin) and the operator
// in the console. The operator writes a private note while the assistant serves, takes over, types
// `/` in the reply box and picks a canned response by keyboard (its variables filled), sends it,
// and writes another note with the Reply / Private note switch. The visitor sees the canned reply
// and never a note, live or after reloading. The Canned responses page creates, edits and deletes
// one. A reply carries files chosen with Attach files (a refused one says why and is removed); the
// visitor gets them. The reply box sends on Enter (Shift+Enter adds a line, the open `/` list's Enter
// inserts, an input method's Enter confirms its candidate) and its hint says so in both languages.
// axe-core on both pages; screenshots docs/console/inbox-private-note-*.png and
// docs/console/canned-responses-*.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  dialog,
  ownerOn,
  startConsole,
  openVisitor,
  webChatSite,
  ownerScreenshots,
  takeOver,
} from "./console-helpers.mjs";

let app, host, webChat;

beforeAll(async () => {
  app = await startConsole();
  ({ host, webChat } = await webChatSite(app));
  await app.server.api("/canned-responses/", {
    body: {
      shortCode: "thanks",
      content: "Thanks {{contact.name}}, {{agent.name}} here. Your order {{order.id}} ships today.",
    },
  });
  await app.server.api("/canned-responses/", { body: { shortCode: "hours", content: "We open at 9." } });
}, 300_000);

afterAll(async () => {
  await host?.close();
  await app?.close();
});

/** The visitor's widget, open. */
const visitor = () => openVisitor(app.browser, host.url);

/** A visitor who wrote `text` and has the assistant's answer, and their conversation (found by its words). */
async function answered(text) {
  const v = await visitor();
  await v.send(text);
  await v.page.locator(".row.assistant .bubble", { hasText: "You said" }).waitFor({ timeout: 15_000 });
  const { results } = await app.server.api("/conversations/?pageSize=10", { method: "GET" });
  return { v, conversation: results.find((c) => c.lastMessage?.includes(text) || c.title?.includes(text)) };
}

const NOTE = "VIP customer: refund approved by Dana";
const NOTE_2 = "Follow up tomorrow about the parcel";
let conversationId;

describe("Private notes and canned responses in Chromium", () => {
  it("a note while the assistant serves, a canned reply by `/` with its variables filled, a note by the switch; " +
    "the visitor sees only the reply", async () => {
    const { v, conversation } = await answered("Where is my parcel?");
    conversationId = conversation.id;
    const contactName = conversation.contact.name;

    const { context, page, errors } = await ownerOn(app, `/conversations/${conversationId}`);
    await page.locator(".transcript .msg.sender-chatbot").waitFor();

    // While the assistant serves: only a note can be written, and it does not take the conversation over.
    expect(await page.getByRole("radio", { name: "Reply" }).count()).toBe(0);
    await page.getByLabel("Private note for the team").fill(NOTE);
    await page.getByRole("button", { name: "Add note" }).click();
    const note = page.locator(".transcript .msg.private-note", { hasText: NOTE });
    await note.waitFor();
    expect(await note.locator(".badge.private-note").textContent()).toBe("Private note");
    expect(await page.locator(".inbox-transcript .section-head").textContent()).toContain("With the assistant");
    expect(await page.getByRole("button", { name: "Take over" }).count()).toBe(1);

    // Taken over: the reply box has the focus; `/th` offers the matching canned response.
    await takeOver(page);
    const box = page.getByRole("combobox", { name: "Your reply" });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("/");
    const list = page.getByRole("listbox", { name: "Canned responses" });
    await list.waitFor();
    expect(await box.getAttribute("aria-expanded")).toBe("true");
    expect(await list.getByRole("option").count()).toBe(2);
    // Escape closes the list and keeps what was typed.
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "hidden" });
    expect(await box.getAttribute("aria-expanded")).toBe("false");
    expect(await box.inputValue()).toBe("/");
    await page.keyboard.type("th");
    await expect.poll(() => list.getByRole("option").allTextContents()).toEqual([expect.stringContaining("/thanks")]);
    // The active option is the textarea's aria-activedescendant; arrows move it (wrapping), Enter inserts.
    await page.keyboard.press("ArrowDown");
    const active = await box.getAttribute("aria-activedescendant");
    expect(await page.locator(`[id="${active}"]`).getAttribute("aria-selected")).toBe("true");
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await list.waitFor({ state: "hidden" });
    const me = await app.server.api("/users/current/", { method: "GET" });
    const filled = `Thanks ${contactName}, ${me.name} here. Your order {{order.id}} ships today.`;
    expect(await box.inputValue()).toBe(filled);
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".transcript .msg.sender-user:not(.private-note)", { hasText: "ships today" }).waitFor();
    await expect.poll(() => box.inputValue()).toBe("");

    // The switch: a private note while serving.
    await page.getByRole("radio", { name: "Private note" }).check();
    await page.getByLabel("Private note for the team").fill(NOTE_2);
    await page.getByRole("button", { name: "Add note" }).click();
    await page.locator(".transcript .msg.private-note", { hasText: NOTE_2 }).waitFor();
    expect(await page.locator(".transcript .msg.private-note").count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);

    // The visitor sees the canned reply, never a note: live, and after reloading (the history).
    await v.page.locator(".row.agent", { hasText: filled }).waitFor({ timeout: 10_000 });
    expect(await v.page.locator("body").textContent()).not.toContain(NOTE);
    expect(await v.page.locator("body").textContent()).not.toContain(NOTE_2);
    await v.page.reload();
    await v.page.locator("button.launcher").click();
    await v.page.locator(".row.agent", { hasText: "ships today" }).waitFor({ timeout: 10_000 });
    const shown = await v.page.locator("body").textContent();
    expect(shown).not.toContain(NOTE);
    expect(shown).not.toContain(NOTE_2);

    expect(errors).toEqual([]);
    await v.context.close();
    await context.close();
  }, 240_000);

  it("a reply or note begun, with its files, is kept per conversation over moving to another, a take-over and a " +
    "reload; sending or signing out forgets it", async () => {
    const make = (title) => app.server.api("/conversations/", { body: { webChat, title } });
    const first = await make("Drafts: the first");
    const second = await make("Drafts: the second");
    const { context, page, errors } = await ownerOn(app, `/conversations/${first.id}`);
    const open = async (c) => {
      await page.locator(`li[data-conversation="${c.id}"] a`).click();
      await page.getByRole("heading", { name: c.title }).waitFor();
    };
    const noteBox = page.getByLabel("Private note for the team");
    const drafts = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("console.draft:")));
    await page.getByRole("heading", { name: first.title }).waitFor();
    await noteBox.fill("Half a note about the first");
    // With a file uploaded for it.
    const files = page.getByRole("list", { name: "Files to send" }).getByRole("listitem");
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach files" }).click();
    await (await chooser).setFiles([
      { name: "packing-list.txt", mimeType: "text/plain", buffer: Buffer.from("3 boxes") },
    ]);
    await expect.poll(() => files.filter({ hasText: "packing-list.txt" }).locator("progress").count()).toBe(0);
    await open(second);
    expect(await noteBox.inputValue()).toBe("");
    expect(await files.count()).toBe(0);
    await noteBox.fill("A note on the second");
    // The list marks the conversations with a draft.
    const marked = (c) => page.locator(`li[data-conversation="${c.id}"] .badge.draft`).count();
    await expect.poll(() => marked(second)).toBe(1);
    expect(await marked(first)).toBe(1);
    await open(first);
    expect(await noteBox.inputValue()).toBe("Half a note about the first");
    expect(await files.allTextContents()).toEqual(["packing-list.txt×"]);

    // Taken over, the box is drawn anew for replies: what was begun as a note stays a note, never a reply.
    await takeOver(page);
    expect(await page.getByRole("radio", { name: "Private note" }).isChecked()).toBe(true);
    expect(await noteBox.inputValue()).toBe("Half a note about the first");
    expect(await files.allTextContents()).toEqual(["packing-list.txt×"]);
    await page.reload();
    await page.getByRole("heading", { name: first.title }).waitFor();
    expect(await page.getByRole("radio", { name: "Private note" }).isChecked()).toBe(true);
    expect(await noteBox.inputValue()).toBe("Half a note about the first");
    expect(await files.allTextContents()).toEqual(["packing-list.txt×"]);
    expect(await axeViolations(page)).toEqual([]);

    // Sent, it is forgotten: the next visit starts a reply.
    await page.getByRole("button", { name: "Add note" }).click();
    await page
      .locator(".transcript .msg.private-note", { hasText: "Half a note about the first" })
      .filter({ hasText: "packing-list.txt" })
      .waitFor();
    await expect.poll(() => noteBox.inputValue()).toBe("");
    expect(await files.count()).toBe(0);
    await expect.poll(() => marked(first)).toBe(0);
    expect(await marked(second)).toBe(1);
    await page.reload();
    await page.getByRole("heading", { name: first.title }).waitFor();
    expect(await page.getByRole("radio", { name: "Reply" }).isChecked()).toBe(true);
    const replyBox = page.getByRole("combobox", { name: "Your reply" });
    expect(await replyBox.inputValue()).toBe("");
    expect(await files.count()).toBe(0);

    // A reply begun stays a reply over a hand-back (where the box takes notes only) and the next take-over: drawing
    // the box changes nothing kept.
    await replyBox.fill("Half a reply");
    await page.getByRole("button", { name: "Hand back to the assistant" }).click();
    await page.getByRole("button", { name: "Take over" }).waitFor();
    expect(await noteBox.inputValue()).toBe("Half a reply");
    await takeOver(page);
    expect(await page.getByRole("radio", { name: "Reply" }).isChecked()).toBe(true);
    expect(await replyBox.inputValue()).toBe("Half a reply");
    await replyBox.fill("");
    await expect.poll(() => marked(first)).toBe(0);

    // In Chinese and dark, the list's mark reads as such, axe clean.
    const kept = await page.evaluate(() =>
      Object.entries(localStorage).filter(([k]) => k.startsWith("console.draft:")),
    );
    const zh = await ownerOn(app, `/conversations/${second.id}`, { locale: "zh-TW", theme: "dark" });
    await zh.page.evaluate((entries) => {
      for (const [k, v] of entries) localStorage.setItem(k, v);
    }, kept);
    await zh.page.reload();
    const mark = zh.page.locator(`li[data-conversation="${second.id}"] .badge.draft`);
    await mark.waitFor();
    expect(await mark.textContent()).toBe("草稿");
    expect(await zh.page.getByLabel("給團隊的私人備註").inputValue()).toBe("A note on the second");
    expect(await axeViolations(zh.page)).toEqual([]);
    expect(zh.errors).toEqual([]);
    await zh.context.close();

    // Signing out takes the member's drafts out of the browser (the second's was still kept).
    expect(kept).toHaveLength(1);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await drafts()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("a reply with files: each uploads as chosen; a refused one says why; the visitor gets the sent one", async () => {
    const {
      v,
      conversation: { id },
    } = await answered("Can you send me the invoice?");
    const { context, page, errors } = await ownerOn(app, `/conversations/${id}`);
    await takeOver(page);

    // A PNG (an attachment's kind) and a program (not one): chosen with the Attach files button's picker.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC",
      "base64",
    );
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach files" }).click();
    await (await chooser).setFiles([
      { name: "invoice.png", mimeType: "image/png", buffer: png },
      { name: "setup.exe", mimeType: "application/x-msdownload", buffer: Buffer.from("MZ") },
    ]);
    const files = page.getByRole("list", { name: "Files to send" });
    await files.getByRole("listitem").filter({ hasText: "setup.exe" }).locator(".field-error").waitFor();
    await expect
      .poll(() => files.getByRole("listitem").filter({ hasText: "invoice.png" }).locator("progress").count())
      .toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Remove setup.exe" }).click();
    expect(await files.getByRole("listitem").count()).toBe(1);

    // A file alone is a message: Send is on without text.
    await page.getByRole("button", { name: "Send" }).click();
    const sent = page.locator(".transcript .msg.sender-user", { hasText: "invoice.png" });
    await sent.waitFor();
    await expect.poll(() => files.count()).toBe(0);
    const stored = (await app.server.api(`/messages/?conversation=${id}`, { method: "GET" })).results.filter(
      (m) => m.senderType === "user",
    );
    expect(stored.map((m) => m.attachments.map((a) => a.filename))).toEqual([["invoice.png"]]);
    await v.page.locator(".row.agent", { hasText: "invoice.png" }).waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await v.context.close();
    await context.close();
  }, 120_000);

  it("the Canned responses page creates, edits and deletes; axe clean; screenshots", async () => {
    const { context, page, errors } = await ownerOn(app, "/canned-responses");
    await page.getByRole("heading", { level: 1, name: "Canned responses" }).waitFor();
    await page.getByRole("rowheader", { name: "/hours" }).waitFor();
    // In the navigation, near the inbox.
    expect(await page.getByRole("link", { name: "Canned responses" }).count()).toBeGreaterThan(0);

    await page.getByRole("button", { name: "New canned response" }).click();
    await dialog(page).getByLabel("Short code").fill("Bad code");
    await dialog(page).getByLabel("Content").fill("x");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    // The browser's own check (pattern) or the API's 400: the dialog stays open either way.
    await expect.poll(() => dialog(page).count()).toBe(1);
    await dialog(page).getByLabel("Short code").fill("hours");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await dialog(page).getByText('"hours" already exists').waitFor();
    await dialog(page).getByLabel("Short code").fill("bye");
    await dialog(page).getByLabel("Content").fill("Goodbye, {{contact.name}}!");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await page.getByRole("rowheader", { name: "/bye" }).waitFor();

    await page.getByRole("button", { name: "Edit /bye" }).click();
    await dialog(page).getByLabel("Content").fill("Bye for now, {{contact.name}}!");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await page.getByRole("cell", { name: "Bye for now, {{contact.name}}!" }).waitFor();

    // Typed, the search asks once typing stops (not at each key press); Enter asks at once.
    const searched = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === "/api/v1/canned-responses/" && url.searchParams.has("search"))
        searched.push(url.searchParams.get("search"));
    });
    await page.getByLabel("Search").pressSequentially("open at", { delay: 20 });
    await expect.poll(() => page.getByRole("rowheader").allTextContents()).toEqual(["/hours"]);
    // Seven key presses, one search for the whole text; a machine busy enough to stall between two keys for the
    // search's delay may ask once for what was typed by then (a prefix), never once a key.
    expect(searched.at(-1)).toBe("open at");
    expect(searched.length).toBeLessThan(3);
    for (const asked of searched) expect("open at".startsWith(asked)).toBe(true);
    const typed = searched.length;
    await page.getByLabel("Search").fill("bye");
    await page.getByLabel("Search").press("Enter");
    await expect.poll(() => page.getByRole("rowheader").allTextContents()).toEqual(["/bye"]);
    expect(searched.slice(typed)).toEqual(["bye"]);
    await page.getByLabel("Search").fill("");
    await page.getByRole("rowheader", { name: "/bye" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Delete /bye" }).click();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("rowheader", { name: "/bye" }).waitFor({ state: "detached" });
    const left = await app.server.api("/canned-responses/", { method: "GET" });
    expect(left.results.map((c) => c.shortCode)).toEqual(["hours", "thanks"]);
    expect(errors).toEqual([]);
    await context.close();

    await ownerScreenshots(app, "/console/canned-responses", "canned-responses", {
      act: (p) => p.locator("table").waitFor(),
    });
    await ownerScreenshots(app, `/console/conversations/${conversationId}`, "inbox-private-note", {
      act: (p) => p.locator(".transcript .msg.private-note").first().waitFor(),
      idle: false,
    });
  }, 300_000);

  // Last: its conversation is not in the screenshots above.
  it("the reply box: Enter sends, Shift+Enter adds a line, Enter picks from the open `/` list, an input method's " +
    "Enter is its own", async () => {
    const {
      v,
      conversation: { id },
    } = await answered("Can I change my address?");
    const replies = async () =>
      (await app.server.api(`/messages/?conversation=${id}`, { method: "GET" })).results
        .filter((m) => m.senderType === "user")
        .map((m) => m.content);
    const { context, page, errors } = await ownerOn(app, `/conversations/${id}`);
    await takeOver(page);
    const box = page.getByRole("combobox", { name: "Your reply" });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // What the page sends, as it asks (not once stored).
    const sent = [];
    page.on("request", (r) => r.url().endsWith("/api/v1/messages/outgoing/") && sent.push(r.postDataJSON().content));
    // The hint the box is described by says how.
    const hint = page.locator(`[id="${await box.getAttribute("aria-describedby")}"]`);
    expect(await hint.textContent()).toBe("Enter sends; Shift+Enter adds a line. Type / for canned responses.");

    await page.keyboard.type("Yes, of course.");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("Which one");
    // An input method's Enter confirms its candidate (here 地址, "address"), as Chromium gives it while composing
    // (isComposing, keyCode 229) and as Safari gives it once the composition ended (keyCode 229 alone): not sent.
    const cdp = await context.newCDPSession(page);
    const imeEnter = { key: "Enter", code: "Enter", windowsVirtualKeyCode: 229 };
    await cdp.send("Input.imeSetComposition", { text: "dizhi", selectionStart: 5, selectionEnd: 5 });
    await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...imeEnter });
    await cdp.send("Input.insertText", { text: " 地址" });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...imeEnter });
    await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...imeEnter });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...imeEnter });
    await page.keyboard.type("?");
    expect(await box.inputValue()).toBe("Yes, of course.\nWhich one 地址?");
    expect(sent).toEqual([]);
    await page.keyboard.press("Enter");
    await page.locator(".transcript .msg.sender-user", { hasText: "Which one 地址?" }).waitFor();
    await expect.poll(() => box.inputValue()).toBe("");
    expect(await replies()).toEqual(["Yes, of course.\nWhich one 地址?"]);
    // Sent: the focus stays in the box, for the next line.
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);

    // The `/` list open, Enter inserts the active response and sends nothing; the next Enter sends it.
    await page.keyboard.type("/ho");
    const list = page.getByRole("listbox", { name: "Canned responses" });
    await expect.poll(() => list.getByRole("option").allTextContents()).toEqual([expect.stringContaining("/hours")]);
    await page.keyboard.press("Enter");
    await list.waitFor({ state: "hidden" });
    expect(await box.inputValue()).toBe("We open at 9.");
    expect(sent).toHaveLength(1);
    await page.keyboard.press("Enter");
    await page.locator(".transcript .msg.sender-user", { hasText: "We open at 9." }).waitFor();
    expect((await replies()).sort()).toEqual(["We open at 9.", "Yes, of course.\nWhich one 地址?"]);
    // Enter in an empty box sends nothing (and adds no line).
    await page.keyboard.press("Enter");
    expect(await box.inputValue()).toBe("");
    expect(sent).toHaveLength(2);

    // A note says so in its own words; in zh-TW, in Chinese.
    await page.getByRole("radio", { name: "Private note" }).check();
    expect(await hint.textContent()).toContain("Enter adds the note; Shift+Enter adds a line.");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    const zh = await ownerOn(app, `/conversations/${id}`, { locale: "zh-TW" });
    const zhBox = zh.page.getByRole("combobox", { name: "您的回覆" });
    await zhBox.waitFor();
    expect(await zh.page.locator(`[id="${await zhBox.getAttribute("aria-describedby")}"]`).textContent()).toBe(
      "按 Enter 送出；Shift+Enter 換行。 輸入 / 以使用罐頭回覆。",
    );
    await zh.context.close();
    await v.context.close();
  }, 120_000);
});
