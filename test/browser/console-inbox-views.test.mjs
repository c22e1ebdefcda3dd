// The conversations inbox's filters and transcript in Chromium against `wrangler dev`, with data
// made through the public API (one conversation's creation day moved into the past in the stopped
// server's D1): each filter (assistant, inbox, status, progress, contact, dates) gives the list the
// API gives, and a late answer to an earlier filter does not replace a newer one's; under a filter, live events of
// conversations outside it stay out and those inside come
// in (and leave when they no longer match). The transcript shows a reply with its sources, tool calls
// (a knowledge search and a function tool), a visitor's image inline and file downloadable through a
// signed URL, and the visitor's like and dislike. A test conversation (the try-it's) is tagged in the
// list and the transcript, and the Tests filter hides it or shows it alone. A member who loses `conversation.view`
// while the page is open sees the live stream end with the API's reason (the worker checks every 500 ms here).
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPlaneFile } from "../support/local-d1.mjs";
import {
  axeViolations,
  memberInNewGroup,
  openPage,
  ownerOnInbox,
  signInContext,
  startConsole,
  LOCAL_LLM,
  PNG,
  LOCAL_KB_MODELS,
} from "./console-helpers.mjs";

const OLD_DAY = "2026-01-15";
const INVOICE = "Invoice 1042\nTwo mugs, 24.00 EUR\n";

let app, ava, bob, website, helpCentre, carol, dan;
const conversations = {};
let transcript;

const api = (...args) => app.server.api(...args);

/** A web inbox for `bot` with an anonymous web chat; the inbox record. */
async function webInbox(name, bot) {
  const inbox = await api("/inboxes/", { body: { name, channelType: "web", chatbot: { id: bot.id } } });
  await api(`/web-chats/${inbox.channel.id}/`, { method: "PATCH", body: { enableAnonymous: true } });
  return inbox;
}

/** An empty conversation of a web inbox, as an integration makes one. */
const conversation = (inbox, title, contact) =>
  api("/conversations/", { body: { webChat: inbox.channel.id, title, ...(contact ? { contact: contact.id } : {}) } });

/** Stores a file through the direct upload; its key. */
async function upload(name, type, bytes) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  const res = await fetch(`${app.base}/api/v1/attachments-upload/`, {
    method: "POST",
    headers: app.server.headers,
    body: form,
  });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return res.headers.get("Location");
}

/** A visitor's message through the widget's public API, its streamed reply read to the end; the conversation id. */
async function visitorAsks(webChatId, token, content) {
  const res = await fetch(`${app.base}/api/v1/web-chats/${webChatId}/public/messages/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`widget send: ${res.status} ${text}`);
  const last = text
    .trim()
    .split("\n\n")
    .at(-1)
    .split("\n")
    .find((l) => l.startsWith("data:"));
  return JSON.parse(last.slice(5)).conversationId;
}

/** The conversation with a cited reply, tool calls, a visitor's files and feedback. */
async function seedTranscript() {
  const kb = await api("/knowledge-bases/", {
    body: { name: "Returns policy", ...LOCAL_KB_MODELS },
  });
  const form = new FormData();
  form.append(
    "file",
    new File(["Returns are accepted within 30 days of delivery. Refunds take five business days."], "returns.txt", {
      type: "text/plain",
    }),
  );
  const [file] = await api(`/knowledge-bases/${kb.id}/files/`, { form });
  for (let status = file.status; status !== "done"; await new Promise((r) => setTimeout(r, 200))) {
    status = (await api(`/knowledge-bases/${kb.id}/files/${file.id}/`, { method: "GET" })).status;
    if (status === "failed") throw new Error("returns.txt was not processed");
  }
  const echo = await api("/tools/", {
    body: {
      toolType: "function",
      name: "echo_city",
      displayName: "Echo city",
      description: "Function echo_city",
      functionCode: "function main(a) { return 'echo ' + a.city; }",
      rawParametersSchema: { type: "object", properties: { city: { type: "string" } } },
    },
  });
  const agent = await api("/chatbots/", {
    body: {
      name: "Cleo",
      largeLanguageModel: LOCAL_LLM,
      replyMode: "agent",
      knowledgeBases: [{ id: kb.id }],
      tools: [{ id: echo.id }],
    },
  });
  const inbox = await webInbox("Returns desk", agent);
  const session = await (
    await fetch(`${app.base}/api/v1/web-chats/${inbox.channel.id}/public/session/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    })
  ).json();
  const id = await visitorAsks(inbox.channel.id, session.token, "How many days do I have for returns?");
  await api(`/chatbots/${agent.id}/completions/`, {
    body: { conversation: id, message: { content: "Lyon", toolIds: [echo.id] } },
  });
  const [receipt, invoice] = [
    await upload("receipt.png", "image/png", PNG),
    await upload("invoice.txt", "text/plain", INVOICE),
  ];
  await api("/messages/", {
    body: {
      conversation: id,
      content: "Here are my receipt and invoice",
      attachments: [
        { filename: "receipt.png", file: receipt },
        { filename: "invoice.txt", file: invoice },
      ],
    },
  });
  // The visitor likes the first answer and dislikes the second.
  const answers = (await api(`/messages/?conversation=${id}&pageSize=100`, { method: "GET" })).results
    .filter((m) => m.senderType === "chatbot")
    .reverse();
  for (const [message, feedback] of [
    [answers[0], "like"],
    [answers[1], "dislike"],
  ]) {
    const res = await fetch(
      `${app.base}/api/v1/web-chats/${inbox.channel.id}/public/messages/${message.id}/feedback/`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ feedback }),
      },
    );
    if (res.status !== 200) throw new Error(`feedback: ${res.status} ${await res.text()}`);
  }
  return { id, answers };
}

beforeAll(async () => {
  // Through wrangler's proxy: its port stays over the restart below, and the uploads' URLs name it.
  app = await startConsole({ vars: { INBOX_STREAM_RECHECK_MS: "500" }, direct: false });
  [ava, bob] = [
    await api("/chatbots/", { body: { name: "Ava", largeLanguageModel: LOCAL_LLM } }),
    await api("/chatbots/", { body: { name: "Bob", largeLanguageModel: LOCAL_LLM } }),
  ];
  [website, helpCentre] = [await webInbox("Website", ava), await webInbox("Help centre", bob)];
  carol = await api("/contacts/", { body: { name: "Carol", inboxes: [{ id: website.id }] } });
  dan = await api("/contacts/", { body: { name: "Dan", inboxes: [{ id: helpCentre.id }] } });
  conversations.old = await conversation(website, "Old chat");
  conversations.carol = await conversation(website, "Carol's order", carol);
  conversations.queued = await conversation(website, "Queued question");
  conversations.dan = await conversation(helpCentre, "Dan's refund", dan);
  conversations.served = await conversation(helpCentre, "Taken over");
  await api(`/conversations/${conversations.queued.id}/update-auto-reply/`, {
    method: "PATCH",
    body: { autoReplyEnabled: false },
  });
  await api(`/conversations/${conversations.dan.id}/resolve/`);
  await api(`/conversations/${conversations.served.id}/take-over/`);
  transcript = await seedTranscript();
  // "Old chat" was started on OLD_DAY.
  await app.restart((state) => {
    const db = new DatabaseSync(dataPlaneFile(state, ava.organization));
    db.prepare("UPDATE conversations SET created_at = ? WHERE id = ?").run(
      Date.parse(`${OLD_DAY}T12:00:00Z`),
      conversations.old.id,
    );
    db.close();
  });
}, 240_000);

afterAll(async () => {
  await app?.close();
});

/** The operator on the inbox (or `path`), signed in, its live stream connected. */
const operator = (path) => ownerOnInbox(app, {}, path);

const MINE = ["Old chat", "Carol's order", "Queued question", "Dan's refund", "Taken over"];
/** The titles the list shows, of the conversations this part of the test made. */
const shown = (page) =>
  page
    .locator(".inbox-list li strong")
    .allTextContents()
    .then((titles) => titles.filter((x) => MINE.includes(x)).sort());
/** The same titles from the API, for the list's query. */
const listed = async (query) =>
  (await api(`/conversations/?pageSize=100&${query}`, { method: "GET" })).results
    .map((c) => c.title)
    .filter((x) => MINE.includes(x))
    .sort();

describe("Conversations inbox: filters and transcript in Chromium", () => {
  it("each filter gives the list the API gives", async () => {
    const { context, page, errors } = await operator();
    const filters = page.getByRole("form", { name: "Filters" });
    await expect.poll(() => shown(page)).toEqual([...MINE].sort());
    const cases = [
      ["Assistant", "Bob", `chatbot=${bob.id}`, ["Dan's refund", "Taken over"]],
      ["Inbox", "Website", `inbox=${website.id}`, ["Carol's order", "Old chat", "Queued question"]],
      ["Status", "Queued", "status=queued", ["Queued question"]],
      ["Status", "Resolved", "status=resolved", ["Dan's refund"]],
      ["Progress", "With a team member", "progressStatus=human_serving", ["Taken over"]],
      ["Contact", "Carol", `contact=${carol.id}`, ["Carol's order"]],
    ];
    for (const [label, option, query, expected] of cases) {
      await filters.getByLabel(label).selectOption({ label: option });
      await expect.poll(() => shown(page), { message: `${label}: ${option}` }).toEqual(expected.sort());
      expect(await listed(query)).toEqual(expected.sort());
      await filters.getByRole("button", { name: "Clear filters" }).click();
    }
    // Dates (the browser's days; this one's timezone is UTC): the old day alone, then from today on.
    await filters.getByLabel("From").fill(OLD_DAY);
    await filters.getByLabel("To").fill(OLD_DAY);
    await expect.poll(() => shown(page)).toEqual(["Old chat"]);
    expect(await listed(`startDate=${OLD_DAY}&endDate=${OLD_DAY}`)).toEqual(["Old chat"]);
    const today = new Date().toISOString().slice(0, 10);
    await filters.getByLabel("From").fill(today);
    await filters.getByLabel("To").fill("");
    await expect.poll(() => shown(page)).toEqual(MINE.filter((x) => x !== "Old chat").sort());
    // Two at once: Ava's conversations that wait for a human.
    await filters.getByRole("button", { name: "Clear filters" }).click();
    await filters.getByLabel("Assistant").selectOption({ label: "Ava" });
    await filters.getByLabel("Progress").selectOption({ label: "Waiting for a human" });
    await expect.poll(() => shown(page)).toEqual(["Queued question"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("From and To are the member's own days (the browser's timezone), as the list's times are", async () => {
    // A zone whose day is not UTC's now: UTC-11 before 11:00 UTC (its tomorrow is UTC's today), else UTC+14 (its today
    // is UTC's tomorrow). Read as UTC days, one of the two checks below would fail.
    const zone = new Date().getUTCHours() < 11 ? "Pacific/Pago_Pago" : "Pacific/Kiritimati";
    const { context, page, errors } = await ownerOnInbox(app, { timezoneId: zone });
    const filters = page.getByRole("form", { name: "Filters" });
    const [today, tomorrow] = await page.evaluate(() =>
      [0, 86_400_000].map((ahead) => new Date(Date.now() + ahead).toLocaleDateString("en-CA")),
    );
    const recent = MINE.filter((x) => x !== "Old chat").sort();
    await filters.getByLabel("From").fill(tomorrow);
    await expect.poll(() => shown(page)).toEqual([]);
    await filters.getByLabel("From").fill(today);
    await expect.poll(() => shown(page)).toEqual(recent);
    expect(await listed(`startDate=${today}&timezone=${encodeURIComponent(zone)}`)).toEqual(recent);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "tags the try-it's test conversations, in the list and the transcript; the Tests filter hides them or shows " +
      "them alone, as the API does",
    async () => {
      // What the try-it panel sends: a conversation started as a test.
      const { conversationId: tried } = await api(`/chatbots/${ava.id}/completions/`, {
        body: { message: { content: "Tried from the console" }, test: true },
      });
      const { context, page, errors } = await operator();
      const filters = page.getByRole("form", { name: "Filters" });
      const row = page.locator(`.inbox-list li[data-conversation="${tried}"]`);
      await row.locator(".badge.test", { hasText: "Test" }).waitFor();
      expect(
        await page.locator(`.inbox-list li[data-conversation="${conversations.carol.id}"] .badge.test`).count(),
      ).toBe(0);
      const ids = () =>
        page.locator(".inbox-list li").evaluateAll((items) => items.map((li) => li.dataset.conversation).sort());
      const apiIds = async (query) =>
        (await api(`/conversations/?pageSize=100&${query}`, { method: "GET" })).results.map((c) => c.id).sort();
      await filters.getByLabel("Tests").selectOption({ label: "Only tests" });
      await expect.poll(ids).toEqual([tried]);
      expect(await apiIds("isTest=true")).toEqual([tried]);
      await filters.getByLabel("Tests").selectOption({ label: "Hide tests" });
      const others = await apiIds("isTest=false");
      await expect.poll(ids).toEqual(others);
      expect(others).not.toContain(tried);
      expect(others).toContain(conversations.carol.id);
      // Shown again with the rest, and its transcript's header says it is a test too.
      await filters.getByLabel("Tests").selectOption({ label: "Show tests" });
      await row.locator("a").click();
      await page.locator(".inbox-transcript .section-head .badge.test", { hasText: "Test" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("a late answer to an earlier filter does not replace the newer filter's list", async () => {
    const { context, page, errors } = await operator();
    const filters = page.getByRole("form", { name: "Filters" });
    await new Promise((r) => setTimeout(r, 3_000)); // past the page's catch-up read after `ready`
    await filters.getByLabel("Status").selectOption({ label: "Resolved" });
    await expect.poll(() => shown(page)).toEqual(["Dan's refund"]);
    // From now on the browser gets the unfiltered list 1.5 s late: cleared, then "Queued" at once.
    await page.route(
      (url) => url.pathname === "/api/v1/conversations/" && !url.searchParams.has("status"),
      async (route) => {
        await new Promise((r) => setTimeout(r, 1_500));
        await route.continue();
      },
    );
    const late = page.waitForResponse(
      (res) =>
        new URL(res.url()).pathname === "/api/v1/conversations/" && !new URL(res.url()).searchParams.has("status"),
    );
    await filters.getByRole("button", { name: "Clear filters" }).click();
    await filters.getByLabel("Status").selectOption({ label: "Queued" });
    await expect.poll(() => shown(page)).toEqual(["Queued question"]);
    await late;
    await new Promise((r) => setTimeout(r, 300));
    expect(await shown(page)).toEqual(["Queued question"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "under a filter, live events of conversations outside it stay out; those inside come in, and leave when " +
      "they stop matching",
    async () => {
      const { context, page, errors } = await operator();
      const filters = page.getByRole("form", { name: "Filters" });
      await filters.getByLabel("Assistant").selectOption({ label: "Ava" });
      await expect.poll(() => shown(page)).toEqual(["Carol's order", "Old chat", "Queued question"]);
      // Past the page's catch-up read after `ready`: what changes now comes by events.
      await new Promise((r) => setTimeout(r, 3_000));
      const list = page.locator(".inbox-list");
      // Bob's new conversation first, then Ava's: events of one organization arrive in order.
      await api(`/chatbots/${bob.id}/completions/`, { body: { message: { content: "Outside the filter" } } });
      await api(`/chatbots/${ava.id}/completions/`, { body: { message: { content: "Inside the filter" } } });
      await list.locator("li", { hasText: "Inside the filter" }).waitFor({ timeout: 10_000 });
      await api(`/chatbots/${bob.id}/completions/`, {
        body: { conversation: conversations.served.id, message: { content: "Bob's served one again" } },
      });
      await api(`/chatbots/${ava.id}/completions/`, {
        body: { conversation: conversations.carol.id, message: { content: "Carol writes again" } },
      });
      await list.locator("li", { hasText: "Carol writes again" }).waitFor({ timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await list.textContent()).not.toContain("Outside the filter");
      expect(await list.textContent()).not.toContain("Taken over");

      // Status "Queued": handed back, a conversation leaves the list; one turned over to humans comes in.
      await filters.getByLabel("Assistant").selectOption({ label: "Any" });
      await filters.getByLabel("Status").selectOption({ label: "Queued" });
      await expect.poll(() => shown(page)).toEqual(["Queued question"]);
      await new Promise((r) => setTimeout(r, 3_000));
      await api(`/conversations/${conversations.queued.id}/update-auto-reply/`, {
        method: "PATCH",
        body: { autoReplyEnabled: true },
      });
      await api(`/conversations/${conversations.carol.id}/update-auto-reply/`, {
        method: "PATCH",
        body: { autoReplyEnabled: false },
      });
      await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(["Carol's order"]);
      expect(await listed("status=queued")).toEqual(["Carol's order"]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "a member who loses conversation.view while watching: the stream ends with the API's reason, no " + "reconnecting",
    async () => {
      const email = `watcher-${Date.now()}@example.com`;
      const password = "watcher password 1234";
      const { organization, group: watchers } = await memberInNewGroup(app, {
        email,
        password,
        name: "Wes",
        company: "Wes's",
        group: "Watchers",
        permissions: ["conversation.view"],
      });
      const { context, page, errors } = await openPage(app.browser);
      await context.addInitScript((id) => localStorage.setItem("console.organization", id), organization.id);
      await signInContext(context, app.base, { email, password });
      await page.goto(`${app.base}/console/conversations`);
      const badge = page.locator("main .badge[role=status]");
      await expect.poll(() => badge.textContent()).toBe("Live");
      await api(`/organizations/${organization.id}/groups/${watchers.id}/`, {
        method: "PATCH",
        body: { permissions: [] },
      });
      await page.getByRole("alert").filter({ hasText: "conversation.view" }).waitFor({ timeout: 10_000 });
      expect(await badge.textContent()).toBe("Not live");
      await new Promise((r) => setTimeout(r, 4_000)); // an EventSource would have reconnected by now
      expect(await badge.textContent()).toBe("Not live");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("a transcript: a cited reply, tool calls, an image inline, a file by a signed URL, and feedback", async () => {
    const { context, page, errors } = await operator(`/conversations/${transcript.id}`);
    const log = page.getByRole("log", { name: "Transcript" });
    const replies = log.locator(".msg.sender-chatbot");
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(3);

    // The first answer: from the knowledge base, with its source and the search as a tool call.
    const cited = replies.nth(0);
    expect(await cited.textContent()).toContain("Returns are accepted within 30 days of delivery.");
    await cited.getByText(/^Sources \(\d+\)$/).click();
    expect(await cited.locator("details").first().textContent()).toContain("returns.txt");
    await cited.getByText("Tool calls (1)").click();
    expect(await cited.locator("details").nth(1).textContent()).toContain("search_knowledge_base");
    expect(await cited.textContent()).toContain("Visitor found this helpful");

    // The second: the function tool the message named, its input and output.
    const tooled = replies.nth(1);
    await tooled.getByText("Tool calls (1)").click();
    const call = await tooled.locator("details").textContent();
    expect(call).toContain("echo_city");
    expect(call).toContain('{"city":"Lyon"}');
    expect(call).toContain("echo Lyon");
    expect(await tooled.textContent()).toContain("Visitor found this unhelpful");

    // The visitor's files: the image shown, the file's link a signed URL that serves its bytes.
    const files = log
      .locator(".msg.sender-contact", { hasText: "Here are my receipt and invoice" })
      .getByRole("list", { name: "Attachment" });
    const image = files.getByRole("img", { name: "receipt.png" });
    await expect.poll(() => image.evaluate((img) => img.complete && img.naturalWidth)).toBe(1);
    const link = files.getByRole("link", { name: "Download invoice.txt" });
    const href = await link.getAttribute("href");
    expect(new URL(href).search).toMatch(/sig|Signature/i);
    const download = await fetch(href); // no key, no cookie: the signature is the permission
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(INVOICE);
    const tampered = new URL(href);
    tampered.searchParams.set(
      [...tampered.searchParams.keys()].find((k) => /sig/i.test(k)),
      "0".repeat(64),
    );
    expect((await fetch(tampered)).status).toBe(403);
    // Clicking asks for a freshly signed URL and opens it.
    const [opened] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await opened.waitForLoadState();
    expect(await opened.locator("body").textContent()).toBe(INVOICE);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a label created in another tab is a filter once the operator comes back to the inbox", async () => {
    const { context, page, errors } = await operator();
    const choices = () => page.getByRole("form", { name: "Filters" }).getByLabel("Label").locator("option");
    await expect.poll(() => choices().count()).toBeGreaterThan(0);
    expect(await choices().allTextContents()).not.toContain("Made in another tab");
    await api("/labels/", { body: { name: "Made in another tab", color: "#336699" } });
    // The operator comes back to this tab: the event the browser sends then (headless Chromium keeps every tab
    // visible, so it is sent here by hand).
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await expect.poll(() => choices().allTextContents()).toContain("Made in another tab");
    expect(errors).toEqual([]);
    await context.close();
  });
});
