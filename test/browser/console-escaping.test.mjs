// Every user-provided text the console shows is rendered escaped or sanitized (security):
// hostile names, instructions, a knowledge base's name, an uploaded file's name and text, an FAQ, a
// try-it question and a reply carrying a `javascript:` Markdown link and raw <script>, a contact's
// name, phone, tags and custom fields, all written through the API (or the console's own upload),
// then every page that shows them opened in Chromium.
// On each: the text is visible as written, no element or handler was made from it, no `javascript:`
// URL is in the DOM, `window.__xss` stayed undefined and no dialog opened. (The CSP would stop an
// inline handler from running anyway: the DOM checks are what prove the escaping.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PASSWORD,
  ownerOn,
  openPage,
  signInWithPassword,
  startConsole,
  LOCAL_LLM,
  memberInNewGroup,
  LOCAL_KB_MODELS,
} from "./console-helpers.mjs";

const IMG = "<img src=x onerror=window.__xss=1>";
const SCRIPT = "<script>window.__xss=1</script>";
const LINK = "[x](javascript:window.__xss=1)";
const ASSISTANT = `Ava ${IMG}`;
const INSTRUCTIONS = `Be kind. ${LINK} ${SCRIPT}`;
const KNOWLEDGE_BASE = `Help ${SCRIPT} centre`;
const FILE = `${IMG}.txt`;
const FILE_TEXT = `Refunds ${SCRIPT} take [five](javascript:window.__xss=1) working days.`;
const QUESTION = `Reset ${IMG} password?`;
const CONTACT = `Eve ${IMG}`;
const ANSWER = `Click ${LINK} then ${SCRIPT} **done**`;
/** The answer as the Markdown renderer shows it: the link's text without a link, the tag as text. */
const ANSWER_SHOWN = `Click x then ${SCRIPT} done`;

let app, kb, assistant, member;

beforeAll(async () => {
  app = await startConsole();
  const api = app.server.api;
  kb = await api("/knowledge-bases/", {
    body: { name: KNOWLEDGE_BASE, ...LOCAL_KB_MODELS },
  });
  await api(`/knowledge-bases/${kb.id}/faqs/`, { body: { question: QUESTION, answer: ANSWER } });
  // A member who may look (not change): they see the instructions rendered as Markdown.
  const email = `looker-${Date.now()}@example.com`;
  const { organization, group } = await memberInNewGroup(app, {
    email,
    name: "Lou Looker",
    company: "Lou's shop",
    group: "Lookers",
    permissions: ["chatbot.view"],
  });
  assistant = await api("/chatbots/", {
    body: {
      name: ASSISTANT,
      largeLanguageModel: LOCAL_LLM,
      instructions: INSTRUCTIONS,
      knowledgeBases: [{ id: kb.id }],
      groups: [{ id: group.id }],
    },
  });
  member = { email, password: PASSWORD, organization: organization.id };
}, 180_000);

afterAll(async () => {
  await app?.close();
});

/** A page whose dialogs (alert, confirm) are recorded. */
function watchDialogs(page) {
  const dialogs = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  return dialogs;
}

/** Nothing the hostile text could have become: no script, image, frame or handler made from it, no javascript: URL, no
 * dialog. */
async function expectInert(page, dialogs) {
  const found = await page.evaluate(() => ({
    xss: window.__xss ?? null,
    elements: [...document.querySelectorAll("script:not([src]), img[src='x'], iframe, object, embed")].map(
      (el) => el.outerHTML,
    ),
    handlers: [...document.querySelectorAll("*")].flatMap((el) =>
      el
        .getAttributeNames()
        .filter((a) => a.startsWith("on"))
        .map((a) => `${el.tagName} ${a}`),
    ),
    javascriptUrls: [...document.querySelectorAll("*")].flatMap((el) =>
      [...el.attributes].filter((a) => /^\s*javascript:/i.test(a.value)).map((a) => `${el.tagName} ${a.name}`),
    ),
  }));
  expect(found).toEqual({ xss: null, elements: [], handlers: [], javascriptUrls: [] });
  expect(dialogs).toEqual([]);
}

/** `text` shown as written somewhere in the page's main region. */
const shown = (page, text) => page.locator("main").getByText(text, { exact: false }).first().waitFor();

describe("hostile text in the console", () => {
  it("assistants: the list, the detail and the try-it panel's question, reply and source", async () => {
    const { context, page } = await ownerOn(app, "/assistants");
    const dialogs = watchDialogs(page);
    await shown(page, ASSISTANT);
    await expectInert(page, dialogs);

    await page.goto(`${app.base}/console/assistants/${assistant.id}`);
    await page.locator("main h1", { hasText: ASSISTANT }).waitFor();
    expect(await page.locator("main h1").textContent()).toBe(ASSISTANT);
    // The owner edits the instructions: the field holds them as written.
    await expect.poll(() => page.getByLabel("Instructions").inputValue()).toBe(INSTRUCTIONS);
    // The try-it panel: the question as text, the reply (the FAQ's answer) through the Markdown renderer, its source.
    const panel = page.locator(".try-it");
    await panel.locator(".ask textarea").fill(QUESTION);
    await panel.locator(".ask textarea").press("Enter");
    const turn = panel.locator(".turn").first();
    await turn.and(page.locator("[data-state=done]")).waitFor();
    expect(await turn.locator(".bubble.question").textContent()).toContain(QUESTION);
    expect(await turn.locator(".bubble.answer .markdown").textContent()).toBe(ANSWER_SHOWN);
    expect(await turn.locator(".bubble.answer .markdown strong").textContent()).toBe("done");
    const source = turn.locator(".sources li").first();
    await source.locator("summary").click();
    expect(await source.locator("summary").textContent()).toContain(QUESTION);
    expect(await source.locator("summary").textContent()).toContain(KNOWLEDGE_BASE);
    expect(await source.locator(".passage").textContent()).toBe(`${QUESTION}\n${ANSWER}`);
    await expectInert(page, dialogs);
    await context.close();
  });

  it(
    "a member who may only look sees the instructions rendered as Markdown: the link's text without the link, " +
      "the tag as text",
    async () => {
      const { context, page } = await openPage(app.browser);
      const dialogs = watchDialogs(page);
      await signInWithPassword(page, app.base, member, `/console/assistants/${assistant.id}`);
      await page.getByLabel("Organization").selectOption(member.organization);
      const instructions = page.locator(".assistant-summary .markdown");
      await instructions.waitFor();
      expect(await instructions.textContent()).toBe(`Be kind. x ${SCRIPT}`);
      expect(await instructions.locator("a").count()).toBe(0);
      await expectInert(page, dialogs);
      await context.close();
    },
  );

  it(
    "knowledge bases: the list, a file uploaded with a hostile name (its progress and ingestion), FAQs, text " +
      "nodes and the search tester",
    async () => {
      const { context, page } = await ownerOn(app, "/knowledge-bases");
      const dialogs = watchDialogs(page);
      await shown(page, KNOWLEDGE_BASE);
      await expectInert(page, dialogs);

      await page.goto(`${app.base}/console/knowledge-bases/${kb.id}`);
      await page.locator("main h1", { hasText: KNOWLEDGE_BASE }).waitFor();
      await page
        .getByLabel("Files to upload")
        .setInputFiles([{ name: FILE, mimeType: "text/plain", buffer: Buffer.from(FILE_TEXT) }]);
      await page.getByRole("progressbar", { name: `Upload of ${FILE}` }).waitFor();
      expect(await page.locator(".kb-upload-name").textContent()).toBe(FILE);
      await page.getByRole("row", { name: FILE }).getByText("Done", { exact: true }).waitFor({ timeout: 60_000 });
      await expectInert(page, dialogs);

      await page.getByRole("link", { name: "FAQs" }).click();
      const faq = page.getByRole("row", { name: QUESTION });
      await faq.waitFor();
      // An FAQ's answer is shown as the text it is (not rendered as Markdown).
      expect(await faq.textContent()).toContain(ANSWER);
      await expectInert(page, dialogs);

      await page.getByRole("link", { name: "Text nodes" }).click();
      await page.getByLabel("File", { exact: true }).selectOption({ label: FILE });
      await page.getByRole("row", { name: /Refunds/ }).waitFor();
      expect(await page.getByRole("row", { name: /Refunds/ }).textContent()).toContain(FILE_TEXT);
      await expectInert(page, dialogs);

      await page.getByRole("link", { name: "Search tester" }).click();
      await page.getByLabel("Query").fill("refunds working days");
      await page.getByLabel("Method").selectOption("keyword");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const result = page.locator(".kb-result", { hasText: "Refunds" });
      await result.locator("mark").first().waitFor();
      expect(await result.locator(".kb-passage").textContent()).toBe(FILE_TEXT);
      expect(await result.locator(".badge").textContent()).toBe(FILE);
      await expectInert(page, dialogs);
      await context.close();
    },
  );

  it("conversations: a conversation's question and reply in the transcript", async () => {
    const { conversationId } = await app.server.api(`/chatbots/${assistant.id}/completions/`, {
      body: { message: { content: QUESTION } },
    });
    const { context, page } = await ownerOn(app, `/conversations/${conversationId}`);
    const dialogs = watchDialogs(page);
    await page.locator(".transcript").getByText(ANSWER_SHOWN).waitFor();
    await page.locator(".transcript").getByText(QUESTION).first().waitFor();
    await expectInert(page, dialogs);
    await context.close();
  });

  it("contacts: the list, a contact's page with its custom fields, and a conversation's contact panel", async () => {
    const contact = await app.server.api("/contacts/", {
      body: {
        name: CONTACT,
        phoneNumber: SCRIPT,
        tags: [IMG],
        metadata: { [IMG]: SCRIPT, note: LINK },
        queryMetadata: { knowledgeBases: [{ knowledgeBaseId: kb.id, hasUserSelectedAll: true }] },
      },
    });
    const { conversationId } = await app.server.api(`/chatbots/${assistant.id}/completions/`, {
      body: { message: { content: QUESTION, sender: contact.id } },
    });
    const { context, page } = await ownerOn(app, "/contacts");
    const dialogs = watchDialogs(page);
    await shown(page, CONTACT);
    await shown(page, SCRIPT);
    await expectInert(page, dialogs);

    await page.goto(`${app.base}/console/contacts/${contact.id}`);
    await page.locator("main h1", { hasText: CONTACT }).waitFor();
    expect(await page.locator(".contact-fields dt").allTextContents()).toEqual([IMG, "note"]);
    expect(await page.locator(".contact-fields dd").allTextContents()).toEqual([SCRIPT, LINK]);
    await shown(page, `${KNOWLEDGE_BASE}: everything`);
    await page.getByText("As the API stores it").click();
    await expectInert(page, dialogs);

    await page.goto(`${app.base}/console/conversations/${conversationId}`);
    const panel = page.locator(".contact-panel");
    await panel.locator(".contact-fields dd", { hasText: LINK }).waitFor();
    expect(await panel.locator(".contact-panel-name").textContent()).toBe(CONTACT);
    await expectInert(page, dialogs);
    await context.close();
  });
});
