// Contacts in Chromium against `wrangler dev`: the Contacts page (list searched and paged by the API, a contact's
// page with its fields, custom fields, knowledge limits and conversations; edit, create, delete, and the API's refusal
// to delete a contact with conversations said in the dialog), and the contact panel of a conversation (e-mail, custom
// fields, channel, their other conversations, the inbox filtered to them; folded on a phone). A member without
// `contact.view` has no Contacts entry and a conversation that works without asking for the contact. axe-core in
// light and dark; the page in zh-TW; screenshots docs/console/contacts-*.png, contact-*.png and
// inbox-contact-*.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  dialog,
  LOCAL_LLM,
  openPage,
  ownerOn,
  PASSWORD,
  PHONE,
  signInContext,
  startConsole,
  memberInNewGroup,
  ownerScreenshots,
  LOCAL_KB_MODELS,
  takeOver,
} from "./console-helpers.mjs";

let app, ada, grace, graceFirst, graceSecond, member, inboxName;

beforeAll(async () => {
  app = await startConsole();
  const api = app.server.api;
  const bot = await api("/chatbots/", { body: { name: "Ava", largeLanguageModel: LOCAL_LLM } });
  // Its default inbox, an API one ("Ava API").
  const inbox = (await api(`/chatbots/${bot.id}/`, { method: "GET" })).defaultInbox;
  inboxName = inbox.name;
  const kb = await api("/knowledge-bases/", {
    body: { name: "Help centre", ...LOCAL_KB_MODELS },
  });
  /** A contact of the assistant's inbox with `fields`. */
  const contactOfInbox = (fields) => api("/contacts/", { body: { ...fields, inboxes: [{ id: inbox.id }] } });
  // Enough contacts for a second page (20 a page), made first so the two that matter are the newest.
  for (let i = 1; i <= 21; i++) await contactOfInbox({ name: `Customer ${String(i).padStart(2, "0")}` });
  ada = await contactOfInbox({
    name: "Ada Lovelace",
    email: "ada@example.com",
    phoneNumber: "+44 20 7946 0000",
    metadata: { plan: "gold", orders: 3 },
    tags: ["vip"],
    queryMetadata: { knowledgeBases: [{ knowledgeBaseId: kb.id, hasUserSelectedAll: true }] },
  });
  grace = await contactOfInbox({
    name: "Grace Hopper",
    email: "grace@example.com",
    phoneNumber: "+1 555 0100",
    metadata: { company: "Navy", plan: "silver" },
  });
  const ask = async (content) =>
    (await api(`/chatbots/${bot.id}/completions/`, { body: { message: { content, sender: grace.id } } }))
      .conversationId;
  graceFirst = await ask("Where is my compiler?");
  graceSecond = await ask("Can I change my delivery address?");
  // Someone else's conversation: never among Grace's.
  await api(`/chatbots/${bot.id}/completions/`, { body: { message: { content: "Hello", sender: ada.id } } });
  // A member who works conversations but may not read contacts.
  const email = `agent-${Date.now()}@example.com`;
  const { organization } = await memberInNewGroup(app, {
    email,
    name: "Sam Agent",
    company: "Sam's shop",
    group: "Agents",
    permissions: ["conversation.view", "conversation.manage"],
  });
  member = { email, password: PASSWORD, organization: organization.id };
}, 300_000);

afterAll(async () => {
  await app?.close();
});

const rows = (page) => page.locator("table tbody tr");
const contactOf = (id) => app.server.api(`/contacts/${id}/`, { method: "GET" });
/** Waits for the toast saying `text`. */
/** A toast saying `text` shows (the newest, where an earlier one says the same). */
const toastSays = (page, text) => page.getByRole("region", { name: "Notifications" }).getByText(text).last().waitFor();
/** Whether the page is wider than its window (something overflows sideways). */
const overflows = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("Contacts in Chromium", () => {
  it("lists contacts newest first, paged and searched by the API; a contact's page shows its fields", async () => {
    const { page, context, errors } = await ownerOn(app, "/contacts");
    const nav = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contacts" });
    expect(await nav.getAttribute("aria-current")).toBe("page");
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(20);
    expect(await rows(page).first().locator("th").textContent()).toContain("Grace Hopper");
    const gracesRow = rows(page).first();
    expect(await gracesRow.textContent()).toContain("grace@example.com");
    expect(await gracesRow.textContent()).toContain("+1 555 0100");
    expect(await gracesRow.textContent()).toContain(inboxName);
    await page.getByText("Page 1 of 2").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await rows(page).first().textContent()).toContain("Customer 03");
    expect(await axeViolations(page)).toEqual([]);

    // Search: a name, then a custom field's value (the API's full text).
    await page.getByLabel("Search contacts").fill("grace");
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain("Grace Hopper");
    await page.getByLabel("Search contacts").fill("gold");
    await expect.poll(() => rows(page).first().textContent()).toContain("Ada Lovelace");
    expect(await rows(page).count()).toBe(1);
    await page.getByLabel("Search contacts").fill("nobody like this");
    await page.getByText("No contact matches.").waitFor();
    await page.getByLabel("Search contacts").fill("ada");
    await expect.poll(() => rows(page).count()).toBe(1);

    // Ada's page: her fields, custom fields, tags, what she may query, her conversation.
    await page.getByRole("link", { name: "Ada Lovelace" }).click();
    await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    const facts = page.locator(".contact-card .contact-facts");
    await expect.poll(() => facts.textContent()).toContain("ada@example.com");
    expect(await page.getByRole("link", { name: "ada@example.com" }).getAttribute("href")).toBe(
      "mailto:ada@example.com",
    );
    expect(await facts.textContent()).toContain("+44 20 7946 0000");
    expect(await facts.textContent()).toContain("vip");
    const fields = page.locator(".contact-fields");
    expect(await fields.locator("dt").allTextContents()).toEqual(["plan", "orders"]);
    expect(await fields.locator("dd").allTextContents()).toEqual(["gold", "3"]);
    await expect.poll(() => page.locator(".contact-knowledge").textContent()).toBe("Help centre: everything");
    await page.locator("[data-contact-conversation]").first().waitFor();
    expect(await page.locator("[data-contact-conversation]").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("edits a contact's phone, picture, tags and custom fields; creates a contact and deletes it", async () => {
    const { page, context, errors } = await ownerOn(app, `/contacts/${ada.id}`);
    await page.getByRole("button", { name: "Edit" }).click();
    const form = dialog(page);
    await form.getByLabel("Phone").fill("+44 20 7946 0999");
    await form.getByLabel("Picture").fill("https://cdn.example.com/ada.png");
    expect(await form.getByLabel("Tags").inputValue()).toBe("vip");
    await form.getByLabel("Tags").fill("vip, wholesale,  vip");
    await form.getByLabel("Field 1: value").fill("platinum");
    // A new field's name takes the focus; typed from the keyboard.
    await form.getByRole("button", { name: "Add a field" }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe(await form.getByLabel("Field 3: name").getAttribute("id"));
    await page.keyboard.type("city");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Taipei");
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole("button", { name: "Save" }).click();
    await toastSays(page, "Contact Ada Lovelace saved.");
    await expect.poll(() => page.locator(".contact-fields dd").allTextContents()).toEqual(["platinum", "3", "Taipei"]);
    expect(await page.locator(".contact-facts .chip-row li").allTextContents()).toEqual(["vip", "wholesale"]);
    const saved = await contactOf(ada.id);
    expect(saved.phoneNumber).toBe("+44 20 7946 0999");
    expect(saved.avatar).toBe("https://cdn.example.com/ada.png");
    expect(saved.tags.map((tag) => tag.name).sort()).toEqual(["vip", "wholesale"]);
    // That host does not exist: the picture fails to load, and her initials stand in for it.
    await expect.poll(() => page.locator(".contact-card .contact-avatar").textContent()).toBe("AL");
    // A number stays a number (edited as JSON); the others are the text typed.
    expect(saved.metadata).toEqual({ plan: "platinum", orders: 3, city: "Taipei" });

    // A name given twice is refused in the form, nothing sent.
    await page.getByRole("button", { name: "Edit" }).click();
    await form.getByLabel("Field 3: name").fill("plan");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Two fields are named plan.").first().waitFor();
    await form.getByRole("button", { name: "Cancel" }).click();
    expect((await contactOf(ada.id)).metadata).toEqual(saved.metadata);

    // Her knowledge limits, as the API's JSON under a disclosure: broken JSON is refused in the form, nothing sent;
    // an empty list of knowledge bases is saved, and the page says she is answered without them.
    await page.getByRole("button", { name: "Edit" }).click();
    await form.getByText("Knowledge limits (JSON)", { exact: true }).first().click();
    const limits = form.getByRole("textbox", { name: "Knowledge limits (JSON)" });
    expect(JSON.parse(await limits.inputValue())).toEqual(saved.queryMetadata);
    await limits.fill('{"knowledgeBases": [');
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Knowledge limits: this is not valid JSON.").first().waitFor();
    expect((await contactOf(ada.id)).queryMetadata).toEqual(saved.queryMetadata);
    expect(await axeViolations(page)).toEqual([]);
    await limits.fill('{"knowledgeBases": []}');
    await form.getByRole("button", { name: "Save" }).click();
    await toastSays(page, "Contact Ada Lovelace saved.");
    await page.getByText("Nothing: the assistant answers this person without its knowledge bases.").waitFor();
    expect((await contactOf(ada.id)).queryMetadata).toEqual({ knowledgeBases: [] });
    // Saved again untouched, they stay as they are.
    await page.getByRole("button", { name: "Edit" }).click();
    await form.getByRole("button", { name: "Save" }).click();
    await form.waitFor({ state: "detached" });
    expect((await contactOf(ada.id)).queryMetadata).toEqual({ knowledgeBases: [] });
    await app.server.api(`/contacts/${ada.id}/`, { method: "PATCH", body: { queryMetadata: saved.queryMetadata } });

    // Create, then delete from its page.
    await page.getByRole("link", { name: "All contacts" }).click();
    await page.getByRole("button", { name: "New contact" }).click();
    await form.getByLabel("Name", { exact: true }).fill("Temporary Tester");
    await form.getByLabel("E-mail").fill("temp@example.com");
    await form.getByLabel("Field 1: name").fill("source");
    await form.getByLabel("Field 1: value").fill("fair");
    await form.getByRole("button", { name: "Save" }).click();
    await toastSays(page, "Contact Temporary Tester created.");
    const created = (await app.server.api("/contacts/?search=Temporary", { method: "GET" })).results[0];
    expect(created).toMatchObject({
      name: "Temporary Tester",
      email: "temp@example.com",
      metadata: { source: "fair" },
    });
    await page.getByRole("link", { name: "Temporary Tester" }).click();
    await page.getByRole("heading", { level: 1, name: "Temporary Tester" }).waitFor();
    await page.getByRole("button", { name: "Delete" }).click();
    await dialog(page).getByText("Delete the contact Temporary Tester?").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await toastSays(page, "Contact Temporary Tester deleted.");
    await page.getByRole("heading", { level: 1, name: "Contacts" }).waitFor();
    const gone = await fetch(`${app.base}/api/v1/contacts/${created.id}/`, {
      headers: { Authorization: `Api-Key ${app.owner.key}` },
    });
    expect(gone.status).toBe(404);
    expect(errors.filter((e) => !/ERR_NAME_NOT_RESOLVED/.test(e))).toEqual([]);
    await context.close();
    await app.server.api(`/contacts/${ada.id}/`, { method: "PATCH", body: { avatar: null } });
  }, 180_000);

  it("a contact with conversations is not deleted: the dialog says why", async () => {
    const { page, context, errors } = await ownerOn(app, "/contacts");
    await page.getByLabel("Search contacts").fill("grace");
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByRole("button", { name: "Delete Grace Hopper" }).click();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    const alert = dialog(page).getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("still has conversations, so it cannot be deleted");
    // Still open, still there.
    expect(await dialog(page).count()).toBe(1);
    expect((await contactOf(grace.id)).name).toBe("Grace Hopper");
    expect(await axeViolations(page)).toEqual([]);
    await dialog(page).getByRole("button", { name: "Cancel" }).click();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("a conversation's contact panel: e-mail, custom fields, channel and their other conversations", async () => {
    const { page, context, errors } = await ownerOn(app, `/conversations/${graceFirst}`);
    await page.locator(".transcript .msg").first().waitFor();
    const toggle = page.getByRole("button", { name: "Contact details" });
    // Wide: open from the start.
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const panel = page.getByRole("region", { name: "Contact details" });
    await expect.poll(() => panel.textContent()).toContain("grace@example.com");
    expect(await panel.textContent()).toContain("+1 555 0100");
    expect(await panel.locator(".contact-fields dt").allTextContents()).toEqual(["company", "plan"]);
    expect(await panel.locator(".contact-fields dd").allTextContents()).toEqual(["Navy", "silver"]);
    expect(await panel.textContent()).toContain(`${inboxName} (API)`);
    await panel.locator(`[data-contact-conversation="${graceSecond}"]`).waitFor();
    expect(await panel.locator("[data-contact-conversation]").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // Closed and opened from the keyboard.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await panel.isVisible()).toBe(false);
    await page.keyboard.press("Space");
    await expect.poll(() => panel.textContent()).toContain("grace@example.com");

    // Their conversations, in the inbox filtered to them.
    await panel.getByRole("link", { name: "All their conversations in the inbox" }).click();
    await expect.poll(() => page.locator(".inbox-list > li").count()).toBe(2);
    expect(
      (await page.locator(".inbox-list > li").evaluateAll((l) => l.map((li) => li.dataset.conversation))).sort(),
    ).toEqual([graceFirst, graceSecond].sort());
    expect(await page.getByLabel("Contact", { exact: true }).inputValue()).toBe(grace.id);

    // To the contact's page from the panel.
    await page.locator(`.inbox-list li[data-conversation="${graceSecond}"] a`).click();
    await panel.getByRole("link", { name: "Open the contact's page" }).click();
    await page.getByRole("heading", { level: 1, name: "Grace Hopper" }).waitFor();
    await expect.poll(() => page.locator("[data-contact-conversation]").count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("on a phone the panel is folded behind its button and nothing overflows", async () => {
    const { page, context, errors } = await ownerOn(app, `/conversations/${graceFirst}`, { viewport: PHONE });
    await page.locator(".transcript .msg").first().waitFor();
    const toggle = page.getByRole("button", { name: "Contact details" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByText("grace@example.com").count()).toBe(0);
    // The transcript starts within the first screen.
    const top = await page.locator(".transcript").evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(PHONE.height);
    expect(await overflows(page)).toBe(false);
    await toggle.click();
    await page.getByText("grace@example.com").waitFor();
    expect(await overflows(page)).toBe(false);
    // The contacts list and a contact's page fit too.
    await page.goto(`${app.base}/console/contacts`);
    await rows(page).first().waitFor();
    expect(await overflows(page)).toBe(false);
    await page.goto(`${app.base}/console/contacts/${grace.id}`);
    await page.locator("[data-contact-conversation]").first().waitFor();
    expect(await overflows(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("a member without contact.view: no Contacts entry, no contact request, the conversation still works", async () => {
    const { page, context, errors } = await openPage(app.browser);
    await signInContext(context, app.base, { email: member.email, password: member.password });
    // Working in the shop's organization (their own, made at sign-up, is older).
    await context.addInitScript((id) => localStorage.setItem("console.organization", id), member.organization);
    const contactRequests = [];
    page.on(
      "request",
      (r) => new URL(r.url()).pathname.startsWith("/api/v1/contacts") && contactRequests.push(r.url()),
    );
    await page.goto(`${app.base}/console/conversations/${graceFirst}`);
    await page.locator(".transcript .msg").first().waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Conversations" }).waitFor();
    expect(await nav.getByRole("link", { name: "Contacts" }).count()).toBe(0);
    // The panel: what the conversation carries (name, channel) and their other conversations; no e-mail.
    const panel = page.getByRole("region", { name: "Contact details" });
    await panel.locator(`[data-contact-conversation="${graceSecond}"]`).waitFor();
    expect(await panel.textContent()).toContain("Grace Hopper");
    expect(await panel.textContent()).toContain(`${inboxName} (API)`);
    expect(await panel.textContent()).not.toContain("grace@example.com");
    expect(await panel.getByRole("link", { name: "Open the contact's page" }).count()).toBe(0);
    // The conversation works: taken over and answered.
    await takeOver(page);
    await page.getByRole("combobox", { name: "Your reply" }).fill("Sam here, I will check.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".transcript .msg.sender-user", { hasText: "Sam here, I will check." }).waitFor();
    // The inbox filtered to Grace's conversations names her, though the member may not list contacts.
    await panel.getByRole("link", { name: "All their conversations in the inbox" }).click();
    await expect.poll(() => page.locator(".inbox-list > li").count()).toBe(2);
    const choice = page.getByLabel("Contact", { exact: true });
    expect(await choice.inputValue()).toBe(grace.id);
    expect(await choice.locator("option:checked").textContent()).toBe("Grace Hopper");
    // The page itself is refused.
    await page.goto(`${app.base}/console/contacts`);
    await page.getByRole("heading", { level: 1, name: "Not available" }).waitFor();
    expect(contactRequests).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("axe in dark on the list, a contact and the panel; the page in Traditional Chinese", async () => {
    const dark = await ownerOn(app, "/contacts", { theme: "dark" });
    await rows(dark.page).first().waitFor();
    expect(await axeViolations(dark.page)).toEqual([]);
    await dark.page.getByRole("link", { name: "Grace Hopper" }).click();
    await dark.page.locator("[data-contact-conversation]").first().waitFor();
    expect(await axeViolations(dark.page)).toEqual([]);
    await dark.page.getByRole("button", { name: "Edit" }).click();
    await dialog(dark.page).getByLabel("Field 1: name").waitFor();
    expect(await axeViolations(dark.page)).toEqual([]);
    await dialog(dark.page).getByRole("button", { name: "Cancel" }).click();
    await dark.page.goto(`${app.base}/console/conversations/${graceFirst}`);
    await dark.page.getByText("grace@example.com").waitFor();
    expect(await axeViolations(dark.page)).toEqual([]);
    expect(dark.errors).toEqual([]);
    await dark.context.close();

    const zh = await ownerOn(app, "/contacts", { locale: "zh-TW" });
    await zh.page.getByRole("heading", { level: 1, name: "聯絡人" }).waitFor();
    await rows(zh.page).first().waitFor();
    expect(await zh.page.getByRole("navigation", { name: "主要" }).getByRole("link", { name: "聯絡人" }).count()).toBe(
      1,
    );
    expect(await zh.page.locator("table thead th").allTextContents()).toEqual(
      expect.arrayContaining(["名稱", "電子郵件", "電話", "收件匣", "建立時間"]),
    );
    await zh.page.getByLabel("搜尋聯絡人").fill("grace");
    await expect.poll(() => rows(zh.page).count()).toBe(1);
    await zh.page.getByRole("button", { name: "刪除 Grace Hopper" }).click();
    await dialog(zh.page).getByRole("button", { name: "刪除" }).click();
    await expect.poll(() => dialog(zh.page).getByRole("alert").textContent()).toContain("此聯絡人仍有對話");
    await dialog(zh.page).getByRole("button", { name: "取消" }).click();
    await zh.page.getByRole("link", { name: "Grace Hopper" }).click();
    await zh.page.getByRole("heading", { level: 2, name: "自訂欄位" }).waitFor();
    await zh.page.getByRole("heading", { level: 2, name: "對話" }).waitFor();
    expect(await axeViolations(zh.page)).toEqual([]);
    await zh.page.goto(`${app.base}/console/conversations/${graceFirst}`);
    await zh.page.getByRole("button", { name: "聯絡人資料" }).waitFor();
    await zh.page.getByText("此人的其他對話").waitFor();
    expect(zh.errors).toEqual([]);
    // A refusal of the API is led by what its code means in Chinese; its English detail stays beneath, marked English.
    await zh.page.goto(`${app.base}/console/contacts/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d`);
    const alert = zh.page.getByRole("alert");
    await expect.poll(() => alert.locator("p").allTextContents()).toEqual(["找不到，或不屬於此組織。", "Not found."]);
    expect(await alert.locator("p[lang=en]").textContent()).toBe("Not found.");
    expect(await axeViolations(zh.page)).toEqual([]);
    await zh.context.close();
  }, 180_000);

  it("screenshots of the contacts list, a contact and a conversation's contact panel", async () => {
    await ownerScreenshots(app, "/console/contacts", "contacts", {
      act: (page) => page.locator("table tbody tr").first().waitFor(),
    });
    await ownerScreenshots(app, `/console/contacts/${grace.id}`, "contact", {
      act: (page) => page.locator("[data-contact-conversation]").first().waitFor(),
    });
    await ownerScreenshots(app, `/console/conversations/${graceFirst}`, "inbox-contact", {
      idle: false,
      act: async (page) => {
        await page.locator(".transcript .msg").first().waitFor();
        const toggle = page.locator(".contact-panel-toggle");
        if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
        await page.locator("[data-contact-conversation]").first().waitFor();
        await page.locator(".contact-panel .contact-fields").waitFor();
      },
    });
  }, 240_000);
});
