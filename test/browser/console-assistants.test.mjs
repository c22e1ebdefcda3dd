// The console's Assistants page in Chromium against `wrangler dev`: sign in with a password, create
// an assistant, attach a knowledge base and ask the try-it panel, which streams the built-in local
// model's answer with its citation (the FAQ and its passage), tokens and time to first token, in one
// conversation until "New conversation", started as a test (isTest); every field of the record edited
// (the handoff settings too, saved and read back), and the API's errors shown at their fields, the first of
// them (or the page's own) taking the focus; the
// Workers AI models (no AI binding here) offered disabled with their reason in every model picker;
// search and pages of the list; the keyboard-only create flow; a member without chatbot.manage (no
// edit controls, and the API refuses anyway); the Publish panel (a web chat created, each code
// copied with a visible "Copied"); axe-core in both themes; the screenshots of docs/console/ (list,
// edit, try-it; light, dark, phone, zh-TW).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  openPage,
  sessionCookie,
  signInWithPassword,
  startConsole,
  PASSWORD,
  ownerOn as ownerOnPage,
  dialog,
  LOCAL_LLM,
  LOCAL_EMBEDDING,
  LOCAL_RERANKER,
  memberInNewGroup,
  ownerScreenshots,
  LOCAL_KB_MODELS,
} from "./console-helpers.mjs";

const QUESTION = "What are your opening hours?";
const ANSWER = "Our shop opens at 9 am and closes at 6 pm from Monday to Saturday.";

let app, kb, shown, group, member;

beforeAll(async () => {
  app = await startConsole();
  const api = app.server.api;
  kb = await api("/knowledge-bases/", {
    body: { name: "Help centre", ...LOCAL_KB_MODELS },
  });
  await api(`/knowledge-bases/${kb.id}/faqs/`, { body: { question: QUESTION, answer: ANSWER } });
  await api(`/knowledge-bases/${kb.id}/faqs/`, {
    body: {
      question: "Do you ship abroad?",
      answer: "We ship to every country of the European Union within five days.",
    },
  });
  // A member who may view assistants (and talk to them), but not change them: in a group the shown assistant is given
  // to.
  const email = `member-${Date.now()}@example.com`;
  const made = await memberInNewGroup(app, {
    email,
    name: "Mia Member",
    company: "Mia's shop",
    group: "Support agents",
    permissions: ["chatbot.view", "conversation.manage"],
  });
  group = made.group;
  member = { email, password: PASSWORD, organization: made.organization.id };
  for (const name of ["Billing helper", "Sales agent", "Returns desk"])
    await api("/chatbots/", { body: { name, largeLanguageModel: LOCAL_LLM } });
  shown = await api("/chatbots/", {
    body: {
      name: "Ava",
      largeLanguageModel: LOCAL_LLM,
      instructions: "You answer questions about the **Acme** shop.",
      knowledgeBases: [{ id: kb.id }],
      groups: [{ id: group.id }],
    },
  });
  // Published on a web chat: its page shows the codes to paste (in the screenshots too).
  await api("/inboxes/", { body: { name: "Website", channelType: "web", chatbot: { id: shown.id } } });
}, 180_000);

afterAll(async () => {
  await app?.close();
});

const ownerOn = (path, options) => ownerOnPage(app, path, options);

const tryIt = (page) => page.getByRole("region", { name: "Try it" });

/** Asks the try-it panel, and waits for the reply to finish. */
async function ask(page, question) {
  const panel = page.locator(".try-it");
  const before = await panel.locator(".turn").count();
  await panel.locator(".ask textarea").fill(question);
  await panel.locator(".ask textarea").press("Enter");
  const turn = panel.locator(".turn").nth(before);
  await turn.and(page.locator(":not([data-state=streaming])")).waitFor();
  return turn;
}

describe("Assistants in Chromium", () => {
  // First, while the organization holds only what the pictures should show.
  it("takes the screenshots of docs/console/", async () => {
    await ownerScreenshots(app, "/console/assistants", "assistants", {
      act: (page) => page.locator("table tbody tr").first().waitFor(),
    });
    await ownerScreenshots(app, `/console/assistants/${shown.id}`, "assistant-edit", {
      act: (page) => page.locator(".assistant-form").waitFor(),
    });
    await ownerScreenshots(app, `/console/assistants/${shown.id}`, "assistant-try-it", {
      act: async (page) => {
        const turn = await ask(page, QUESTION);
        await turn.locator(".sources details").first().locator("summary").click();
        await page.locator(".try-it").scrollIntoViewIfNeeded();
      },
    });
  });

  it(
    "signs in with a password, creates an assistant, attaches a knowledge base, and the try-it panel streams " +
      "the answer with its citation",
    async () => {
      const { context, page, errors } = await openPage(app.browser);
      await signInWithPassword(page, app.base, { email: app.owner.email, password: PASSWORD });
      await expect.poll(() => page.url()).toBe(`${app.base}/console/assistants`);
      await page.getByRole("button", { name: "New assistant" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill("Shop helper");
      await dialog(page).getByLabel("Instructions").fill("Answer from the help centre.");
      await dialog(page).getByRole("button", { name: "Create" }).click();
      await page.locator("main h1", { hasText: "Shop helper" }).waitFor();
      const id = page.url().split("/").at(-1);
      const created = await app.server.api(`/chatbots/${id}/`, { method: "GET" });
      expect(created).toMatchObject({
        name: "Shop helper",
        instructions: "Answer from the help centre.",
        largeLanguageModel: { id: LOCAL_LLM },
      });

      await page.getByRole("group", { name: "Knowledge bases" }).getByLabel("Help centre").check();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect
        .poll(async () => (await app.server.api(`/chatbots/${id}/`, { method: "GET" })).knowledgeBases)
        .toEqual([{ id: kb.id, name: "Help centre" }]);

      // The reply arrives as an event stream, and the page shows it growing.
      const streamed = page.waitForResponse((r) => r.url().includes(`/chatbots/${id}/completions/`));
      await page.evaluate(() => {
        window.__lengths = new Set();
        new MutationObserver(() => {
          const answer = document.querySelector(".turn:last-child .bubble.answer .markdown");
          if (answer) window.__lengths.add(answer.textContent.length);
        }).observe(document.querySelector(".try-it"), { subtree: true, childList: true, characterData: true });
      });
      const turn = await ask(page, QUESTION);
      const response = await streamed;
      expect(response.headers()["content-type"]).toContain("text/event-stream");
      // The reply came in pieces (events with text before the last one). The built-in model writes
      // them without a pause, so whether the page could draw each piece depends on the machine's
      // speed: the page is only required to have drawn the text at least once before it was done.
      const pieces = (await response.text())
        .split("\n\n")
        .filter((e) => e.startsWith("data: ") && /"content":"[^"]/.test(e) && /"done":false/.test(e));
      expect(pieces.length).toBeGreaterThan(2);
      expect(await page.evaluate(() => window.__lengths.size)).toBeGreaterThan(0);
      expect(await turn.locator(".bubble.answer .markdown").textContent()).toBe(ANSWER);
      // Its citation: the FAQ, from the knowledge base, with the passage behind it.
      const source = turn.locator(".sources li").first();
      expect(await source.locator("summary").textContent()).toContain(QUESTION);
      expect(await source.locator("summary").textContent()).toContain("Help centre");
      await source.locator("summary").click();
      expect(await source.locator(".passage").textContent()).toContain(ANSWER);
      const meta = await turn.locator(".turn-meta").textContent();
      expect(meta).toMatch(/First token \d+ ms/);
      expect(meta).toMatch(/\d+ prompt \+ \d+ completion tokens/);
      // What was said to a screen reader.
      await expect
        .poll(() => page.locator("[role=status][aria-live=polite]").textContent())
        .toContain(`Shop helper replied: ${ANSWER}`);

      // The conversation goes on, then a new one starts.
      const conversation = (
        await tryIt(page)
          .getByText(/^Conversation /)
          .textContent()
      ).replace("Conversation ", "");
      // The try-it's conversations are tests: listed as such, and left out of the assistant's statistics.
      expect((await app.server.api(`/conversations/${conversation}/`, { method: "GET" })).isTest).toBe(true);
      expect(
        (await app.server.api(`/conversations/?isTest=true&chatbot=${id}`, { method: "GET" })).results.map((c) => c.id),
      ).toEqual([conversation]);
      await ask(page, "Do you ship abroad?");
      expect(
        await tryIt(page)
          .getByText(/^Conversation /)
          .textContent(),
      ).toBe(`Conversation ${conversation}`);
      const messages = await app.server.api(`/messages/?conversation=${conversation}`, { method: "GET" });
      expect(messages.results.map((m) => m.type)).toEqual(["outgoing", "incoming", "outgoing", "incoming"]);
      await tryIt(page).getByRole("button", { name: "New conversation" }).click();
      expect(await page.locator(".turn").count()).toBe(0);
      await ask(page, QUESTION);
      expect(
        await tryIt(page)
          .getByText(/^Conversation /)
          .textContent(),
      ).not.toBe(`Conversation ${conversation}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("shows an agent's tool calls with their inputs and outputs", async () => {
    const tool = await app.server.api("/tools/", {
      body: {
        name: "city_length",
        displayName: "City length",
        description: "Length of a city name",
        toolType: "function",
        functionCode: "function main(args) { return { length: args.city.length }; }",
        rawParametersSchema: { type: "object", properties: { city: { type: "string" } } },
      },
    });
    const bot = await app.server.api("/chatbots/", {
      body: { name: "Agent", largeLanguageModel: LOCAL_LLM, replyMode: "agent", tools: [{ id: tool.id }] },
    });
    const { context, page, errors } = await ownerOn(`/assistants/${bot.id}`);
    const turn = await ask(page, "Paris city length");
    const call = turn.getByRole("list", { name: "Tool calls" }).getByRole("listitem");
    expect(await call.count()).toBe(1);
    expect(await call.locator("summary").textContent()).toMatch(/^Tool City length success · \d+ ms$/);
    await call.locator("summary").click();
    const [input, output] = await call.locator("pre").allTextContents();
    expect(JSON.parse(input)).toEqual({ city: "Paris city length" });
    expect(JSON.parse(output)).toEqual({ length: 17 });
    expect(await turn.locator(".bubble.answer .markdown").textContent()).toContain("length: 17");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a refused save puts the focus on the first field refused, by the page or by the API", async () => {
    const bot = await app.server.api("/chatbots/", { body: { name: "Focus", largeLanguageModel: LOCAL_LLM } });
    const { context, page, errors } = await ownerOn(`/assistants/${bot.id}`);
    const form = page.locator(".assistant-form");
    const focused = (label) => form.getByLabel(label, { exact: true }).evaluate((el) => el === document.activeElement);
    // Refused by the API: a blank name and no passages. The Save button, clicked (so focused), is busy (disabled)
    // meanwhile, which drops the focus to the page; the first field the API named takes it.
    await form.getByLabel("Name", { exact: true }).fill("");
    await form.getByLabel("Passages retrieved per question").fill("0");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => form.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => focused("Name")).toBe(true);
    // Refused by the page (JSON it cannot read), from the keyboard: Enter in a field far above the field to mend.
    await form.getByLabel("Name", { exact: true }).fill("Focus");
    await form.getByLabel("Passages retrieved per question").fill("5");
    await form.getByLabel("Output format").selectOption("json_schema");
    await form.getByLabel("Output schema (JSON Schema)").fill("{ not json");
    await form.getByLabel("Name", { exact: true }).press("Enter");
    await expect.poll(() => focused("Output schema (JSON Schema)")).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("edits every field of the record; bad input shows at its field and changes nothing", async () => {
    const bot = await app.server.api("/chatbots/", { body: { name: "Everything", largeLanguageModel: LOCAL_LLM } });
    const tool = await app.server.api("/tools/", {
      body: {
        name: "order_status",
        displayName: "Order status",
        toolType: "api",
        apiUrl: "https://shop.example.com/orders",
        httpMethod: "get",
        description: "Looks up an order",
      },
    });
    const { context, page, errors } = await ownerOn(`/assistants/${bot.id}`);
    const form = page.locator(".assistant-form");
    await form.getByLabel("Name", { exact: true }).fill("");
    await form.getByLabel("Passages retrieved per question").fill("0");
    await form.getByLabel("Output format").selectOption("json_schema");
    await form.getByLabel("Output schema (JSON Schema)").fill("{ not json");
    await page.getByRole("button", { name: "Save changes" }).click();
    // JSON is checked in the page; the rest by the API.
    await expect.poll(() => form.getByLabel("Output schema (JSON Schema)").getAttribute("aria-invalid")).toBe("true");
    expect(await form.locator(".field-error", { hasText: "This is not valid JSON." }).count()).toBe(1);
    // Said at the top of the form too, and beside the Save button as a toast that stays until closed.
    expect(await form.locator(".form-error").textContent()).toContain("This is not valid JSON.");
    await page.locator(".toast.error", { hasText: "Some fields need attention." }).waitFor();
    await form
      .getByLabel("Output schema (JSON Schema)")
      .fill('{"type": "object", "properties": {"answer": {"type": "string"}}}');
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => form.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByLabel("Passages retrieved per question").getAttribute("aria-invalid")).toBe("true");
    expect(await app.server.api(`/chatbots/${bot.id}/`, { method: "GET" })).toMatchObject({
      name: "Everything",
      numberOfRetrievedChunks: 12,
      outputMode: "text",
    });

    await form.getByLabel("Name", { exact: true }).fill("Everything changed");
    await form.getByLabel("Instructions").fill("Be brief.");
    await form.getByLabel("Embedding model").selectOption(LOCAL_EMBEDDING);
    await form.getByLabel("Reranker").selectOption(LOCAL_RERANKER);
    await form.getByLabel("Reply mode").selectOption("hybrid");
    await form.getByLabel("Reply template").fill("Here is what I found: {{answer}}");
    await form.getByLabel("When nothing answers the question").fill("Please ask our staff.");
    await form.getByLabel("Agent mode").selectOption("canvas");
    await form.getByLabel("Passages retrieved per question").fill("5");
    await form.getByLabel("Mark citations in replies, like [1]").check();
    await page.getByRole("group", { name: "Knowledge bases" }).getByLabel("Help centre").check();
    await page.getByRole("group", { name: "Tools" }).getByLabel("Order status").check();
    await page.getByRole("group", { name: "Groups" }).getByLabel("Support agents").check();
    await form.getByLabel("Evaluate answers").check();
    await form.getByLabel("Database type").selectOption("PostgreSQL");
    await form.getByLabel("Connection string").fill("postgresql://bot:secret@db.example.com/shop");
    await form.getByLabel("Tables it may read (JSON)").fill('{"tables": ["orders"]}');
    await form.getByLabel("Hand the conversation to a person when the visitor asks for one").uncheck();
    await form.getByLabel("After how many replies that could not answer").fill("4");
    await form.getByLabel("Handoff message").fill("A colleague will take it from here.");
    await form.getByLabel("Outside business hours, say instead").fill("We open at nine.");
    await form.getByLabel("RAG pipeline id").fill("0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d");
    await form.getByLabel("Built-in workflow id").fill("0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.locator("main h1", { hasText: "Everything changed" }).waitFor();
    expect(await form.locator("[aria-invalid=true]").count()).toBe(0);
    const saved = await app.server.api(`/chatbots/${bot.id}/`, { method: "GET" });
    expect(saved).toMatchObject({
      name: "Everything changed",
      instructions: "Be brief.",
      embeddingModel: { id: LOCAL_EMBEDDING },
      rerankerModel: { id: LOCAL_RERANKER },
      replyMode: "hybrid",
      template: "Here is what I found: {{answer}}",
      unanswerableTemplate: "Please ask our staff.",
      agentMode: "canvas",
      numberOfRetrievedChunks: 5,
      enableInLineCitations: true,
      outputMode: "json_schema",
      rawOutputFormat: { type: "object", properties: { answer: { type: "string" } } },
      knowledgeBases: [{ id: kb.id, name: "Help centre" }],
      tools: [{ id: tool.id }],
      groups: [{ id: group.id, name: "Support agents" }],
      enableEvaluation: true,
      databaseType: "PostgreSQL",
      includeTables: { tables: ["orders"] },
      rag: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
      builtInWorkflow: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e",
      handoff: {
        enabled: false,
        afterUnanswered: 4,
        message: "A colleague will take it from here.",
        outsideHoursMessage: "We open at nine.",
      },
    });
    expect(saved.databaseUrl).toMatch(/^postgresql:\/\/bot:\*+@db\.example\.com\/shop$/);
    // The form shows what was stored (the password masked), and a reload shows the same.
    expect(await form.getByLabel("Connection string").inputValue()).toBe(saved.databaseUrl);
    await page.reload();
    const reloaded = page.locator(".assistant-form");
    expect(await reloaded.getByLabel("Reply template").inputValue()).toBe("Here is what I found: {{answer}}");
    expect(
      await reloaded.getByLabel("Hand the conversation to a person when the visitor asks for one").isChecked(),
    ).toBe(false);
    expect(await reloaded.getByLabel("After how many replies that could not answer").inputValue()).toBe("4");
    expect(await reloaded.getByLabel("Handoff message").inputValue()).toBe("A colleague will take it from here.");
    // Emptied, the message goes back to the default (null: said in the visitor's language); the rest stays.
    await reloaded.getByLabel("Hand the conversation to a person when the visitor asks for one").check();
    await reloaded.getByLabel("Handoff message").fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(async () => (await app.server.api(`/chatbots/${bot.id}/`, { method: "GET" })).handoff)
      .toEqual({ enabled: true, afterUnanswered: 4, message: null, outsideHoursMessage: "We open at nine." });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("offers a model that cannot answer here disabled, with its reason, in every model picker", async () => {
    // Locally there is no AI binding: the built-in Workers AI models are listed but unavailable.
    const models = await app.server.api("/large-language-models/?pageSize=100", { method: "GET" });
    const workersAi = models.results.find((m) => m.provider === "workers_ai");
    expect(workersAi).toMatchObject({ available: false, unavailableReason: expect.stringContaining("AI binding") });
    const { context, page, errors } = await ownerOn(`/assistants/${shown.id}`);
    const form = page.locator(".assistant-form");
    const option = (label, name) => form.getByLabel(label, { exact: true }).locator("option", { hasText: name });
    for (const [label, name] of [
      ["Language model", "Workers AI Llama"],
      ["Fallback language model", "Workers AI Llama"],
      ["Embedding model", "Workers AI BGE M3"],
      ["Reranker", "Workers AI BGE Reranker"],
    ]) {
      expect(await option(label, name).textContent()).toMatch(
        new RegExp(`^${name}.* — unavailable: Workers AI is not available here`),
      );
      expect(await option(label, name).isDisabled()).toBe(true);
    }
    // The ones that can answer stay choosable.
    expect(
      await form.getByLabel("Language model", { exact: true }).locator(`option[value="${LOCAL_LLM}"]`).isDisabled(),
    ).toBe(false);
    // The create dialog's model too.
    await page.goto(`${app.base}/console/assistants`);
    await page.getByRole("button", { name: "New assistant" }).click();
    const created = dialog(page)
      .getByLabel("Language model", { exact: true })
      .locator("option", { hasText: "Workers AI Llama" });
    expect(await created.isDisabled()).toBe(true);
    expect(await created.textContent()).toContain("— unavailable: ");
    expect(await dialog(page).getByLabel("Language model", { exact: true }).inputValue()).toBe(LOCAL_LLM);
    expect(errors).toEqual([]);
    await context.close();
    // In zh-TW the reason is said in zh-TW (from the record's code), not in the API's English.
    const zh = await ownerOn(`/assistants/${shown.id}`, { locale: "zh-TW" });
    const zhOption = zh.page
      .locator(".assistant-form")
      .getByLabel("語言模型", { exact: true })
      .locator("option", { hasText: "Workers AI Llama" });
    expect(await zhOption.textContent()).toMatch(/ — 無法使用：此部署無法使用 Workers AI：尚未設定 AI 繫結。$/);
    expect(zh.errors).toEqual([]);
    await zh.context.close();
  });

  it(
    "publishes an assistant from its page: a web chat created when it has none, each code copied with a visible " +
      "confirmation",
    async () => {
      const bot = await app.server.api("/chatbots/", { body: { name: "Publisher", largeLanguageModel: LOCAL_LLM } });
      const { context, page, errors } = await ownerOn(`/assistants/${bot.id}`);
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.base });
      // The header's button brings the panel (below the settings) into view, its heading focused.
      await page.getByRole("button", { name: "Publish" }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("publish-title");
      const panel = page.getByRole("region", { name: "Publish" });
      await panel.getByText("This assistant is on no web chat yet.").waitFor();
      await panel.getByRole("button", { name: "Create a web chat" }).click();
      const toast = page.locator(".toast", { hasText: "Web chat Publisher created." });
      await toast.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("publish-title");
      const inboxes = await app.server.api(`/inboxes/?chatbot=${bot.id}&channelType=web`, { method: "GET" });
      expect(inboxes.results.map((i) => i.chatbot.id)).toEqual([bot.id]);
      const id = inboxes.results[0].channel.id;
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      await panel.getByRole("button", { name: "Copy snippet" }).click();
      await expect.poll(clipboard).toBe(`<script src="${app.base}/widget.js" data-web-chat-id="${id}" async></script>`);
      // Seen, not only heard: "Copied" beside the button.
      await panel.locator(".copied").first().waitFor();
      await panel.getByRole("button", { name: "Copy iframe" }).click();
      await expect.poll(clipboard).toContain(`<iframe src="${app.base}/chat/${id}"`);
      await panel.getByRole("button", { name: "Copy link" }).click();
      await expect.poll(clipboard).toBe(`${app.base}/chat/${id}`);
      expect((await fetch(`${app.base}/chat/${id}`)).status).toBe(200);
      await panel.getByRole("button", { name: "Copy component" }).click();
      await expect.poll(clipboard).toContain(`script.dataset.webChatId = "${id}";`);
      // The web chat's designer is one link away.
      expect(await panel.getByRole("link", { name: /^Design / }).getAttribute("href")).toBe(`/console/web-chats/${id}`);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("searches and pages the list on the server", async () => {
    for (let i = 1; i <= 23; i++)
      await app.server.api("/chatbots/", {
        body: { name: `Bulk ${String(i).padStart(2, "0")}`, largeLanguageModel: LOCAL_LLM },
      });
    const { context, page } = await ownerOn("/assistants");
    const total = (await app.server.api("/chatbots/?pageSize=1", { method: "GET" })).count;
    await page.getByText(`${total} assistants`).waitFor();
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await pager.getByText(`Page 1 of ${Math.ceil(total / 20)}`).waitFor();
    const first = await page.locator("tbody tr").first().textContent();
    await pager.getByRole("button", { name: "Next" }).click();
    await pager.getByText("Page 2 of").waitFor();
    await expect.poll(() => page.locator("tbody tr").first().textContent()).not.toBe(first);
    const search = page.getByLabel("Search assistants");
    await search.fill("bulk 1");
    await page.getByText("10 assistants match “bulk 1”").waitFor();
    expect(await page.locator("tbody th a").allTextContents()).toEqual([
      "Bulk 19",
      "Bulk 18",
      "Bulk 17",
      "Bulk 16",
      "Bulk 15",
      "Bulk 14",
      "Bulk 13",
      "Bulk 12",
      "Bulk 11",
      "Bulk 10",
    ]);
    // The list is back where it was after looking at an assistant.
    await page.getByRole("link", { name: "Bulk 12" }).click();
    await page.locator("main h1", { hasText: "Bulk 12" }).waitFor();
    await page.getByRole("link", { name: "← All assistants" }).click();
    await page.getByText("10 assistants match “bulk 1”").waitFor();
    expect(await page.getByLabel("Search assistants").inputValue()).toBe("bulk 1");
    await search.fill("no such assistant");
    await page.getByText("No assistant matches this search.").waitFor();
    await context.close();
  });

  it("creates an assistant and asks it from the keyboard alone", async () => {
    const { context, page } = await ownerOn("/assistants");
    const press = async (key) => page.keyboard.press(key);
    const focused = () =>
      page.evaluate(
        () =>
          document.activeElement?.textContent ||
          document.activeElement?.getAttribute("name") ||
          document.activeElement?.tagName,
      );
    // From the top of the page, Tab reaches "New assistant".
    for (let i = 0; i < 30 && (await focused()) !== "New assistant"; i++) await press("Tab");
    expect(await focused()).toBe("New assistant");
    await press("Enter");
    await dialog(page).waitFor();
    expect(await focused()).toBe("name");
    // The dialog asks for the models when it opens; until they are there, Create is disabled and Tab
    // passes it by (on a busy machine that took longer than typing the name and four Tabs).
    await dialog(page).locator(`option[value="${LOCAL_LLM}"]`).waitFor({ state: "attached" });
    expect(await dialog(page).getByLabel("Language model", { exact: true }).inputValue()).toBe(LOCAL_LLM);
    await page.keyboard.type("Keyboard assistant");
    await press("Tab"); // the model (the built-in one is chosen)
    await press("Tab"); // instructions
    await page.keyboard.type("Be kind.");
    await press("Tab"); // Cancel
    await press("Tab"); // Create
    expect(await focused()).toBe("Create");
    await press("Enter");
    await page.locator("main h1", { hasText: "Keyboard assistant" }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    // The settings form comes with its choices (models, knowledge bases, tools, groups), after the heading.
    await page.locator(".assistant-form").waitFor();
    for (let i = 0; i < 80 && (await page.evaluate(() => document.activeElement?.closest(".ask") === null)); i++)
      await press("Tab");
    await page.keyboard.type("Hello!");
    await press("Enter");
    await page.locator(".turn[data-state=done]").waitFor();
    expect(await page.locator(".turn .bubble.answer .markdown").textContent()).toBe("Hello! How can I help you today?");
    // The focus is back in the message box for the next question.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    await context.close();
  });

  it("a member without chatbot.manage sees the assistant, no edit controls; the API refuses the change", async () => {
    const { context, page } = await openPage(app.browser);
    await signInWithPassword(page, app.base, member, "/console/assistants");
    await page.getByLabel("Organization").selectOption(member.organization);
    await page.getByRole("link", { name: "Ava" }).waitFor();
    // Only the assistants given to their group, newest first.
    const all = await app.server.api("/chatbots/?pageSize=100", { method: "GET" });
    const theirs = all.results.filter((b) => b.groups.some((g) => g.id === group.id)).map((b) => b.name);
    expect(theirs).toContain("Ava");
    expect(await page.locator("tbody th").allTextContents()).toEqual(theirs);
    expect(await page.getByRole("button", { name: "New assistant" }).count()).toBe(0);
    await page.getByRole("link", { name: "Ava" }).click();
    await page.locator("main h1", { hasText: "Ava" }).waitFor();
    await page.getByText("You can see this assistant but not change it.").waitFor();
    expect(await page.locator(".assistant-settings").locator("input, select, textarea, button").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    // Its knowledge base is not theirs to see (no knowledge_base.view): not named to them (docs/decisions.md, "Links to
    // what the caller cannot see"), though the assistant answers from it.
    expect(await page.locator(".facts").textContent()).not.toContain("Help centre");
    // They may still talk to it (conversation.manage).
    const turn = await ask(page, QUESTION);
    expect(await turn.locator(".bubble.answer .markdown").textContent()).toBe(ANSWER);
    const refused = await fetch(`${app.base}/api/v1/chatbots/${shown.id}/`, {
      method: "PATCH",
      headers: {
        Cookie: `console_session=${await sessionCookie(context)}`,
        "Content-Type": "application/json",
        Origin: app.base,
        "X-Organization-Id": member.organization,
      },
      body: JSON.stringify({ name: "Renamed" }),
    });
    expect(refused.status).toBe(403);
    expect((await app.server.api(`/chatbots/${shown.id}/`, { method: "GET" })).name).toBe("Ava");
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation on the list, the create dialog, the form with errors and " +
      "the try-it panel (%s)",
    async (theme) => {
      const { context, page } = await ownerOn("/assistants", { theme });
      await page.locator("tbody tr").first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "New assistant" }).click();
      await dialog(page).getByRole("button", { name: "Create" }).click();
      await dialog(page).locator(".field-error").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.goto(`${app.base}/console/assistants/${shown.id}`);
      await page.locator(".assistant-form").waitFor();
      await page.locator(".assistant-form").getByLabel("Name", { exact: true }).fill("");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.locator(".assistant-form .field-error").first().waitFor();
      const turn = await ask(page, QUESTION);
      await turn.locator(".sources summary").first().click();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
  );
});
