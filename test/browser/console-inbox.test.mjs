// The console's conversations inbox in Chromium against `wrangler dev`, with two browser contexts:
// a visitor writes in the widget (served widget.js on a page of another origin), the message shows
// in the operator's inbox without a reload (the live event stream); the operator, by keyboard,
// takes over and replies; the visitor sees the human reply at once; while taken over the assistant
// is silent; hand back, and the assistant answers the next question. After each action the focus
// goes to the next step's control, never to the page's body. axe-core in both themes (with a
// try-it conversation tagged "Test" in the list), the screenshots of docs/console/inbox-*.png. On a
// phone the filters other than the search fold behind a "Filters" button and an open conversation
// hides the list's views and filters, so neither is a screen below them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  holdAnswers,
  openPage,
  ownerOnInbox,
  startConsole,
  openVisitor,
  webChatSite,
  DESKTOP,
  PHONE,
  ownerScreenshots,
  signInOwner,
  takeOver,
} from "./console-helpers.mjs";
import { launchChromium } from "../../bench/lib.mjs";

let app, host, bot;

beforeAll(async () => {
  app = await startConsole();
  ({ host, bot } = await webChatSite(app, { webChat: { displayGreeting: "Hello! How can I help you today?" } }));
}, 120_000);

afterAll(async () => {
  await host?.close();
  await app?.close();
});

/** The operator on the inbox page, signed in, its live stream connected. */
const operator = (options, path) => ownerOnInbox(app, options, path);

/** Focus moves after the page re-renders, which a busy machine can hold past expect.poll's default second. */
const FOCUS_WAIT = { timeout: 5_000 };

/**
 * What has the focus, as a person finds it: a field by its label, a button by its text, else its id
 * ("#transcript-title"); "body" when focus fell to the page, which no action may leave it on.
 */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return (
      el.labels?.[0]?.textContent.trim() ||
      el.getAttribute("aria-label") ||
      (el.id ? `#${el.id}` : el.textContent.trim())
    );
  });

/** The organization's conversations' ids, newest first, as the API lists them. */
const ids = async () => (await app.server.api(`/conversations/`, { method: "GET" })).results.map((c) => c.id);

/** The visitor's widget: open, and a helper that sends a message. */
const visitor = () => openVisitor(app.browser, host.url);

/** The id of the one conversation the list has that it had not among `before` (ids()), once the API lists it. */
async function newConversation(before) {
  let id;
  await expect.poll(async () => (id = (await ids()).find((x) => !before.includes(x)))).toBeTruthy();
  return id;
}

/** Until the assistant's latest reply in the visitor's widget `v` is drawn whole. */
const replyDrawn = (v) =>
  expect
    .poll(async () => (await v.page.locator(".row.assistant .bubble").last().getAttribute("class")) ?? "typing", {
      timeout: 15_000,
    })
    .not.toContain("typing");

describe("Conversations inbox in Chromium", () => {
  it(
    "a visitor's message shows live; takeover, a human reply the visitor sees, silence, hand back, the " +
      "assistant again",
    async () => {
      const { context, page, errors } = await operator();
      const v = await visitor();

      await v.send("I need help with my order");
      const row = page.locator(".inbox-list li", { hasText: "I need help with my order" });
      await row.waitFor({ timeout: 10_000 }); // no reload: the event stream brought it
      await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain("With the assistant");

      // Keyboard only: open it, take it over, reply.
      await row.getByRole("link").focus();
      await page.keyboard.press("Enter");
      await page.locator("#transcript-title").waitFor();
      await page.locator(".transcript .msg.sender-chatbot").waitFor();
      await page.getByRole("button", { name: "Take over" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Hand back to the assistant" }).waitFor();
      expect(await page.locator(".inbox-transcript").textContent()).toContain("With a team member");
      // Taken over: the reply box has the focus, so the member types at once.
      await expect.poll(() => focused(page), FOCUS_WAIT).toBe("Your reply");
      await page.keyboard.type("Hi, this is Sam from support.");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.locator(".transcript .msg.sender-user", { hasText: "Hi, this is Sam from support." }).waitFor();
      // Sent: back in the reply box, emptied.
      await expect.poll(() => focused(page), FOCUS_WAIT).toBe("Your reply");
      expect(await page.getByLabel("Your reply").inputValue()).toBe("");

      // The visitor sees the human reply at once, under the agent's name.
      const agentRow = v.page.locator(".row.agent", { hasText: "Hi, this is Sam from support." });
      await agentRow.waitFor({ timeout: 10_000 });
      // While a human serves, the assistant is silent, and the operator sees the message live.
      const assistantRows = await v.page.locator(".row.assistant").count();
      await v.send("Are you a real person?");
      await page
        .locator(".transcript .msg.sender-contact", { hasText: "Are you a real person?" })
        .waitFor({ timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 1000));
      expect(await v.page.locator(".row.assistant").count()).toBe(assistantRows);

      // Hand back: the assistant answers the next question.
      await page.getByRole("button", { name: "Hand back to the assistant" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Take over" }).waitFor();
      // Handed back: the Take over button that replaced Hand back has the focus.
      await expect.poll(() => focused(page), FOCUS_WAIT).toBe("Take over");
      await v.send("What are your opening hours?");
      await expect.poll(() => v.page.locator(".row.assistant").count(), { timeout: 15_000 }).toBe(assistantRows + 1);
      await expect
        .poll(async () => (await v.page.locator(".row.assistant .bubble").last().getAttribute("class")) ?? "", {
          timeout: 15_000,
        })
        .not.toContain("typing");
      expect((await v.page.locator(".row.assistant .bubble").last().textContent()).length).toBeGreaterThan(0);
      await page.locator(".transcript .msg.sender-chatbot").nth(1).waitFor({ timeout: 10_000 });

      // Resolve: the button goes; the conversation's heading has the focus.
      await page.getByRole("button", { name: "Resolve" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator(".inbox-transcript .inbox-badges").textContent()).toContain("Resolved");
      await expect.poll(() => focused(page), FOCUS_WAIT).toBe("#transcript-title");
      expect(errors).toEqual([]);
      await v.context.close();
      await context.close();
    },
  );

  it("an inbox the operator comes back to (Back) is restored from the back/forward cache and stays live: the " +
    "conversation begun while they were away shows, and the next one as it comes", async () => {
    const caching = await launchChromium({ backForwardCache: true });
    const { context, page, errors } = await openPage(caching);
    await page.addInitScript(() => addEventListener("pageshow", (e) => (window.restored = e.persisted)));
    await signInOwner(app, context);
    await page.goto(`${app.base}/console/conversations`);
    await page.locator(".badge.live").waitFor();
    await page.goto(`${host.url}/`);
    const away = await visitor();
    await away.send("Written while the operator was away");
    await page.goBack({ waitUntil: "commit" });
    // Restored, not loaded again: its list came back as it was left, then caught up.
    await expect.poll(() => page.evaluate(() => window.restored)).toBe(true);
    await page.locator(".inbox-list li", { hasText: "Written while the operator was away" }).waitFor();
    await page.locator(".badge.live").waitFor();
    const next = await visitor();
    await next.send("Written once they were back");
    await page.locator(".inbox-list li", { hasText: "Written once they were back" }).waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await Promise.all([away.context.close(), next.context.close(), caching.close()]);
  }, 60_000);

  it("an answer that arrives late never puts an older state or transcript over the newer one shown", async () => {
    const before = await ids();
    const v = await visitor();
    await v.send("Where is my parcel?");
    const id = await newConversation(before);
    const { context, page, errors } = await openPage(app.browser);
    await signInOwner(app, context);
    const answers = await holdAnswers(page);
    // The transcript's first read is answered; the one the page makes once its stream has been ready a while
    // (shell/live-stream.ts) is held; the visitor writes meanwhile, and the live event shows the message. The
    // read's answer, released after, does not take that message off the screen.
    let messageReads = 0;
    answers.hold((request) => new URL(request.url()).pathname === "/api/v1/messages/" && ++messageReads > 1);
    await page.goto(`${app.base}/console/conversations/${id}`);
    await page.locator(".transcript .msg.sender-chatbot").waitFor();
    await expect.poll(() => answers.held(), { timeout: 10_000 }).toBe(1);
    await v.send("It was due yesterday.");
    const late = page.locator(".transcript .msg.sender-contact", { hasText: "It was due yesterday." });
    await late.waitFor({ timeout: 10_000 });
    answers.release();
    await expect.poll(() => answers.held()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await late.count()).toBe(1);

    // Taken over; a visitor's message has the tab mark it read and read the record again (both answers held);
    // the member hands back; the held answers, taken before the hand-back, arrive after it and change nothing.
    await takeOver(page);
    const conversation = `/api/v1/conversations/${id}/`;
    answers.hold((request) => [conversation, `${conversation}read/`].includes(new URL(request.url()).pathname));
    const answered = answers.bodies().length;
    await v.send("Hello?");
    // An answer the API gave before the hand-back is held.
    await expect.poll(() => answers.bodies().length, { timeout: 10_000 }).toBeGreaterThan(answered);
    answers.hold(() => false);
    await page.getByRole("button", { name: "Hand back to the assistant" }).click();
    await page.getByRole("button", { name: "Take over" }).waitFor();
    answers.release();
    await expect.poll(() => answers.held()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.getByRole("button", { name: "Hand back to the assistant" }).count()).toBe(0);
    expect(await page.locator(".inbox-transcript").textContent()).toContain("With the assistant");
    expect(errors).toEqual([]);
    await v.context.close();
    await context.close();
  });

  it("a conversation read again while the visitor writes never takes its row back to an older message", async () => {
    const before = await ids();
    const v = await visitor();
    await v.send("Where is my order?");
    const id = await newConversation(before);
    // A person serves it: the visitor's messages are its only events from now on.
    await replyDrawn(v);
    await app.server.api(`/conversations/${id}/take-over/`, {});
    const { context, page, errors } = await operator();
    const row = page.locator(`li[data-conversation="${id}"]`);
    await row.locator(".badge.unread").waitFor();
    const answers = await holdAnswers(page);
    answers.hold((request) => new URL(request.url()).pathname === `/api/v1/conversations/${id}/`);
    // A label's event has the page read the conversation again; each visitor's message that lands during a read
    // makes it read again, three times at most: the last answer predates the last message.
    const label = await app.server.api("/labels/", { body: { name: "Parcel", color: "#2563EB" } });
    await app.server.api(`/conversations/${id}/labels/`, { method: "PUT", body: { labelIds: [label.id] } });
    for (const [i, text] of ["It was due yesterday.", "Tracking says delivered.", "But it is not here."].entries()) {
      await expect.poll(() => answers.bodies().length, { timeout: 10_000 }).toBe(i + 1);
      await v.send(text);
      await expect.poll(() => row.locator(".inbox-last").textContent(), { timeout: 10_000 }).toBe(text);
      answers.release(() => true);
    }
    answers.hold(() => false); // the reads after (the read's own event has the page read it again) are answered
    const stored = await app.server.api(`/conversations/${id}/`, { method: "GET" });
    expect(answers.bodies().at(-1).unreadCount).toBeLessThan(stored.unreadCount);
    await expect.poll(() => answers.held()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await row.locator(".inbox-last").textContent()).toBe("But it is not here.");
    expect(await row.locator(".badge.unread").textContent()).toBe(`${stored.unreadCount} unread`);
    // The row's time is when the conversation started, the list's order; the last message's is its line's title.
    const [started, last] = await page.evaluate(
      (times) =>
        times.map((ms) => new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(ms)),
      [Number(stored.createdAt), Number(stored.lastMessageCreatedAt)],
    );
    expect(await row.locator(".inbox-row-head time").textContent()).toBe(`Started ${started}`);
    expect(await row.locator(".inbox-last").getAttribute("title")).toBe(`Last message ${last}`);
    expect(errors).toEqual([]);
    // Read, so that the organization's unread counts are as the next test expects them: none.
    await app.server.api(`/conversations/${id}/read/`, {});
    await v.context.close();
    await context.close();
  });

  it("a long conversation opens at its newest message and follows new ones while its end is in view", async () => {
    const api = app.server.api;
    let conversation = null;
    for (let i = 1; i <= 12; i++) {
      const body = { message: { content: `Question ${i}: where is parcel ${i}?` } };
      if (conversation) body.conversation = conversation;
      ({ conversationId: conversation } = await api(`/chatbots/${bot.id}/completions/`, { body }));
    }
    await api(`/conversations/${conversation}/take-over/`, {});
    const { context, page, errors } = await operator({ viewport: DESKTOP }, `/conversations/${conversation}`);
    const messages = page.locator(".inbox-transcript .transcript > li");
    /** Whether the message is within the window, whole: where the member reads it, not in a clipped box. */
    const inView = (message) =>
      message.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight;
      });
    await expect.poll(() => messages.count(), { timeout: 10_000 }).toBe(24);
    // Opened at the top of a box of 60% of the window before: the newest answer out of sight.
    await expect.poll(() => inView(messages.last())).toBe(true);
    const said = async (content) => {
      await api("/messages/", { body: { conversation, content } });
      await page.locator(".inbox-transcript .transcript > li", { hasText: content }).waitFor();
    };
    await said("Are you still there?");
    await expect.poll(() => inView(messages.last())).toBe(true);
    // A member reading older messages keeps their place.
    await page.evaluate(() => scrollTo(0, 0));
    await said("Hello?");
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(await inView(messages.last())).toBe(false);
    expect(errors).toEqual([]);
    await api(`/conversations/${conversation}/read/`, {});
    await context.close();
  });

  it("an unread count answered late never replaces a later one", async () => {
    const { context, page, errors } = await operator();
    const answers = await holdAnswers(page);
    const [organization] = await app.server.api("/organizations/?pagination=false", { method: "GET" });
    const counts = `/api/v1/organizations/${organization.id}/unread-conversations/`;
    answers.hold((request) => new URL(request.url()).pathname === counts);
    const before = await ids();
    const sum = (unread) => unread.count;
    // What earlier tests left unread.
    const unreadBefore = sum(await app.server.api(counts.slice("/api/v1".length), { method: "GET" }));
    const v = await visitor();
    await v.send("Is anyone there?");
    // The visitor's message has the tab count again: the counts' answers are held until one has it unread.
    await expect.poll(() => answers.bodies().some((b) => sum(b) > unreadBefore), { timeout: 10_000 }).toBe(true);
    answers.hold(() => false);
    const id = await newConversation(before);
    // The assistant's reply (an event, so a count) has come and gone: nothing after the read counts again.
    await replyDrawn(v);
    await app.server.api(`/conversations/${id}/read/`, {});
    // Read elsewhere: the tab counts again, and the answers held, older, change nothing after it.
    const total = sum(await app.server.api(counts.slice("/api/v1".length), { method: "GET" }));
    expect(answers.bodies().some((b) => sum(b) !== total)).toBe(true);
    const shown = async () => Number(/^\((\d+)\)/.exec(await page.title())?.[1] ?? 0);
    await expect.poll(shown, { timeout: 10_000 }).toBe(total);
    await new Promise((r) => setTimeout(r, 500));
    answers.release();
    await expect.poll(() => answers.held()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await shown()).toBe(total);
    expect(errors).toEqual([]);
    await v.context.close();
    await context.close();
  });

  it("no serious or critical axe-core violations in either theme; takes the screenshots of docs/console/", async () => {
    const list = await app.server.api(`/conversations/`, { method: "GET" });
    const id = list.results[0].id;
    // A try-it conversation beside it, so the list shows (and axe-core checks) the "Test" tag.
    const bot = list.results[0].chatbot.id;
    await app.server.api(`/chatbots/${bot}/completions/`, {
      body: { message: { content: "Do you ship abroad?" }, test: true },
    });
    for (const theme of ["light", "dark"]) {
      const { context, page } = await operator({ theme }, `/conversations/${id}`);
      await page.locator(".transcript .msg").first().waitFor();
      await page.locator(".inbox-list .badge.test").waitFor();
      expect(await axeViolations(page), theme).toEqual([]);
      await context.close();
    }
    await ownerScreenshots(app, `/console/conversations/${id}`, "inbox", {
      act: (page) => page.locator(".transcript .msg").first().waitFor(),
      idle: false,
    });
  });

  it("on a phone the filters fold behind a button; an open conversation hides them", async () => {
    await app.server.api(`/chatbots/${bot.id}/completions/`, { body: { message: { content: "Phone check" } } });
    const { context, page, errors } = await operator({ viewport: PHONE });
    const first = page.locator(".inbox-list li").first();
    await first.waitFor();
    expect((await first.boundingBox()).y).toBeLessThan(PHONE.height * 0.75);
    // The search stays; the other filters are behind "Filters", which says how many are set.
    await page.getByLabel("Search").waitFor();
    const toggle = page.locator(".inbox-filters-toggle");
    expect([await toggle.textContent(), await toggle.getAttribute("aria-expanded")]).toEqual(["Filters", "false"]);
    expect(await page.getByLabel("Status").isVisible()).toBe(false);
    await toggle.click();
    await page.getByLabel("Status").selectOption("open");
    await expect.poll(() => toggle.textContent()).toBe("Filters (1 set)");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    await toggle.click();
    expect(await page.getByLabel("Status").isVisible()).toBe(false);

    // A conversation open: its heading near the top, the views and filters (of the hidden list) out of the way.
    await first.getByRole("link").click();
    const title = page.locator("#transcript-title");
    await title.waitFor();
    expect((await title.boundingBox()).y).toBeLessThan(PHONE.height / 2);
    expect(await page.locator('[data-view="all"]').isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "All conversations" }).click();
    await page.locator('[data-view="all"]').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // On a desktop every filter shows in its row, with no button.
    const desktop = await operator({ viewport: DESKTOP });
    await desktop.page.getByLabel("Status").waitFor();
    expect(await desktop.page.locator(".inbox-filters-toggle").isVisible()).toBe(false);
    await desktop.context.close();
  });

  it("the list and the transcript fit a phone's width and a desktop's, however long a message", async () => {
    const { conversationId } = await app.server.api(`/chatbots/${bot.id}/completions/`, {
      body: { message: { content: "A question" } },
    });
    const link = `https://example.com/${"a".repeat(150)}`;
    await app.server.api(`/messages/outgoing/`, {
      body: { conversation: conversationId, content: `A long answer, ${"word ".repeat(60)}${link} the end.` },
    });
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await operator({ viewport });
      const card = page.locator(".inbox-list li", { hasText: "A long answer" });
      await card.waitFor();
      // The last message is cut with an ellipsis in its card; the page does not scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
      await card.getByRole("link").click();
      const message = page.locator(".transcript .msg", { hasText: "A long answer" });
      await message.waitFor();
      // The link breaks inside its message, which stays within the page: none of it cut off at either side.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
      const box = await message.boundingBox();
      expect([box.x >= 0, box.x + box.width <= viewport.width]).toEqual([true, true]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("a conversation that cannot be opened says so in its pane; another one opened clears it", async () => {
    const { conversationId } = await app.server.api(`/chatbots/${bot.id}/completions/`, {
      body: { message: { content: "Where is my order?" } },
    });
    // An old link: no such conversation here.
    const { context, page } = await operator({}, "/conversations/01a24371-0000-7000-8000-000000000000");
    const pane = page.locator(".inbox-transcript");
    await pane.getByRole("alert").waitFor();
    expect(await pane.getByRole("alert").textContent()).toMatch(/not found/i);
    expect(await pane.locator("a.inbox-back").textContent()).toBe("All conversations");
    expect(await page.locator(".inbox-layout > .loading").count()).toBe(0);
    await page.locator(`a[href$="/conversations/${conversationId}"]`).first().click();
    await page.locator(".transcript .msg.sender-contact").first().waitFor();
    expect(await page.locator(".alert.error").allTextContents()).toEqual([]);
    await context.close();
  });

  it("a visitor who never said who they are is named an anonymous visitor in the transcript", async () => {
    // Through the API without a contact, as the assistant's try-it panel asks: the message carries a stored name for
    // its sender ("Visitor"), which the console does not show as if it were someone's name.
    const { conversationId } = await app.server.api(`/chatbots/${bot.id}/completions/`, {
      body: { message: { content: "Is anyone there?" } },
    });
    for (const [locale, anonymous] of [
      ["zh-TW", "匿名訪客"],
      ["en", "Anonymous visitor"],
    ]) {
      const { context, page, errors } = await operator({ locale }, `/conversations/${conversationId}`);
      const head = page.locator(".transcript .msg.sender-contact .msg-head");
      await head.waitFor();
      expect(await head.locator("span:not(.badge)").first().textContent()).toBe(anonymous);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
