// Typing both ways and the satisfaction rating, in Chromium against `wrangler dev`: a visitor on a
// page of another origin and an operator in the console. The operator takes over and types: the
// visitor sees "<name> is typing…"; the visitor types: the operator sees it; the operator resolves:
// the widget asks for a rating (and asks again in another tab until it is given, not after), the
// visitor gives 4 stars and a comment, and the console's transcript shows them. Both screens axe-clean.
// A visitor who writes again instead of rating is asked no more (the conversation is open again).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import {
  axeViolations,
  ownerOn,
  startConsole,
  webChatSite,
  ownerScreenshots,
  shotsDir,
  takeOver,
} from "./console-helpers.mjs";

const widgetShots = shotsDir("widget");
let app, host, webChat;

/** The conversation the widget on `page` stores once a reply's stream names it. */
async function storedConversationId(page) {
  const stored = () =>
    page.evaluate(
      (w) => JSON.parse(localStorage.getItem(`assistant-chat:${w}`) ?? "{}").conversationId ?? null,
      webChat,
    );
  await expect.poll(stored, { timeout: 10_000 }).toBeTruthy();
  return stored();
}

beforeAll(async () => {
  app = await startConsole();
  ({ webChat, host } = await webChatSite(app, { webChat: { displayGreeting: "Hello! How can I help you today?" } }));
}, 600_000);

afterAll(async () => {
  await host?.close();
  await app?.close();
});

describe("typing indicators and the satisfaction rating", () => {
  it("operator typing shows in the widget, visitor typing in the console; resolve asks for a rating that the " +
    "console then shows", async () => {
    const context = await app.browser.newContext({ viewport: { width: 1000, height: 800 } });
    const visitor = await context.newPage();
    const visitorErrors = [];
    visitor.on("pageerror", (e) => visitorErrors.push(String(e)));
    await visitor.goto(host.url);
    await visitor.locator("button.launcher").click();
    const box = visitor.getByRole("textbox", { name: "Message" });
    await box.fill("My parcel has not arrived");
    await visitor.keyboard.press("Enter");
    // The greeting is an assistant row already: wait for a second one (the reply) to finish, and for the
    // conversation's id, which the widget stores when the reply's stream names it.
    const replies = visitor.locator(".row.assistant .bubble");
    await expect.poll(() => replies.count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await expect
      .poll(async () => (await replies.last().getAttribute("class")) ?? "", { timeout: 20_000 })
      .not.toContain("typing");
    const id = await storedConversationId(visitor);

    const { context: consoleContext, page: operator, errors } = await ownerOn(app, `/conversations/${id}`);
    await operator.locator(".transcript .msg.sender-contact").first().waitFor();
    await takeOver(operator);
    // 10 s: the takeover's write and broadcast, on a machine running other browser files beside this one.
    await visitor
      .locator(".event", { hasText: `${app.owner.name} joined the conversation.` })
      .waitFor({ timeout: 10_000 });

    // The operator types (no send): the visitor sees who, in a polite status line.
    await operator.getByLabel("Your reply").pressSequentially("Let me check", { delay: 20 });
    const agentTyping = visitor.locator(".agent-typing[role=status]");
    await expect.poll(() => agentTyping.textContent(), { timeout: 10_000 }).toBe(`${app.owner.name} is typing…`);
    expect(await agentTyping.getAttribute("aria-live")).toBe("polite");
    await visitor.screenshot({ path: path.join(widgetShots, "typing.png") });
    // Leaving the reply box says "stopped": the line goes.
    await operator.getByRole("heading", { name: /parcel/i }).click();
    await expect.poll(() => agentTyping.textContent(), { timeout: 10_000 }).toBe("");

    // The visitor types: the operator sees it under the transcript.
    const contact = (await app.server.api(`/conversations/${id}/`, { method: "GET" })).contact.name;
    await box.pressSequentially("Is it lost", { delay: 20 });
    const visitorTyping = operator.locator(".inbox-typing");
    await expect.poll(() => visitorTyping.textContent(), { timeout: 10_000 }).toBe(`${contact} is typing…`);
    await box.fill("");
    await expect.poll(() => visitorTyping.textContent(), { timeout: 10_000 }).toBe("");

    // Resolved: the widget asks for a rating; 4 stars and a comment.
    await operator.getByRole("button", { name: "Resolve" }).click();
    const rating = visitor.getByRole("form", { name: "Rate this conversation" });
    await rating.waitFor({ timeout: 10_000 });
    // Not only the live `resolved`: shown again (another tab, a later visit) while resolved and not rated, the
    // conversation asks for the rating too (the session's conversations say it is resolved and not rated).
    const shownAgain = async () => {
      const page = await context.newPage();
      page.on("pageerror", (e) => visitorErrors.push(String(e)));
      await page.goto(host.url);
      await page.locator("button.launcher").click();
      await page.locator(".row.visitor", { hasText: "My parcel has not arrived" }).waitFor({ timeout: 10_000 });
      return page;
    };
    const again = await shownAgain();
    await again.getByRole("form", { name: "Rate this conversation" }).waitFor({ timeout: 10_000 });
    // And says it is resolved, above the rating, as it did live (the history holds no such line).
    const resolvedLine = (page) => page.locator(".event", { hasText: "This conversation was marked as resolved." });
    await resolvedLine(again).waitFor({ timeout: 10_000 });
    const last = () =>
      again.evaluate(() =>
        [...document.querySelector("[data-assistant-chat]").shadowRoot.querySelector(".log").children]
          .slice(-2)
          .map((e) => e.className),
      );
    expect(await last()).toEqual(["event", "rate"]);
    await again.close();
    for (let n = 1; n <= 5; n++)
      await rating.getByRole("button", { name: `${n} star${n > 1 ? "s" : ""} out of 5` }).waitFor();
    await rating.getByRole("button", { name: "4 stars out of 5" }).click();
    await rating.getByLabel("Comment (optional)").fill("Quick and friendly, thank you.");
    expect(await axeViolations(visitor)).toEqual([]);
    await visitor.screenshot({ path: path.join(widgetShots, "csat.png") });
    // Sent from the keyboard: the form's button goes with the form, and the focus to the thanks, not lost.
    await rating.getByRole("button", { name: "Send rating" }).focus();
    await visitor.keyboard.press("Enter");
    await visitor.getByText("Thank you for your rating (4 of 5).").waitFor({ timeout: 10_000 });
    expect(
      await visitor.evaluate(
        () => document.querySelector("[data-assistant-chat]").shadowRoot.activeElement?.textContent,
      ),
    ).toBe("Thank you for your rating (4 of 5).");
    // Rated: shown again, it asks no more (the history is shown before the session's answer is acted on).
    const later = await shownAgain();
    await resolvedLine(later).waitFor({ timeout: 10_000 });
    expect(await later.locator(".rate").count()).toBe(0);
    await later.close();

    // The console shows it live (conversation.updated), stars and comment.
    const csat = operator.getByRole("region", { name: "Visitor's rating" });
    await csat.waitFor({ timeout: 10_000 });
    await expect.poll(() => csat.textContent()).toContain("4 out of 5");
    expect(await csat.textContent()).toContain("Quick and friendly, thank you.");
    expect(await axeViolations(operator)).toEqual([]);
    const stored = await app.server.api(`/conversations/${id}/`, { method: "GET" });
    expect(stored.csat).toMatchObject({ rating: 4, comment: "Quick and friendly, thank you." });

    expect(visitorErrors).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    await consoleContext.close();

    await ownerScreenshots(app, `/console/conversations/${id}`, "inbox-csat", {
      act: (page) => page.locator(".inbox-csat").waitFor(),
      idle: false,
    });
  }, 240_000);

  it("a visitor who writes again instead of rating is no longer asked: the question goes, since the conversation " +
    "is open again and a rating would be refused", async () => {
    const context = await app.browser.newContext({ viewport: { width: 1000, height: 800 } });
    const visitor = await context.newPage();
    await visitor.goto(host.url);
    await visitor.locator("button.launcher").click();
    const box = visitor.getByRole("textbox", { name: "Message" });
    const say = async (text) => {
      await box.fill(text);
      await visitor.keyboard.press("Enter");
      await visitor.locator(".row.visitor", { hasText: text }).waitFor();
    };
    // The conversation's live stream, open (its answer's headers came) before anyone changes its state.
    const live = visitor.waitForResponse((r) => r.url().endsWith("/events/"));
    await say("I need to talk to a person");
    await live;
    await visitor.locator(".row.assistant .bubble", { hasText: "member of our team" }).waitFor({ timeout: 20_000 });
    const id = await storedConversationId(visitor);
    // Served, then resolved: the widget's live stream tells both (the joined line shows it is connected).
    await app.server.api(`/conversations/${id}/take-over/`);
    await visitor.locator(".event", { hasText: "joined the conversation." }).waitFor({ timeout: 10_000 });
    await app.server.api(`/conversations/${id}/resolve/`);
    const rating = visitor.getByRole("form", { name: "Rate this conversation" });
    await rating.waitFor({ timeout: 10_000 });

    await say("Sorry, one more question");
    await rating.waitFor({ state: "detached", timeout: 10_000 });
    await expect
      .poll(async () => (await app.server.api(`/conversations/${id}/`, { method: "GET" })).status)
      .not.toBe("resolved");
    // Nothing put back by the stream's news of the reopening (its status is not `resolved`).
    expect(await visitor.locator(".rate").count()).toBe(0);
    await context.close();
  }, 60_000);
});
