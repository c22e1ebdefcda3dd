// Handoff to a person as the operator meets it, in Chromium against `wrangler dev`: a visitor in the
// widget (on a page of another origin) and operators in the console (English and zh-TW tabs).
// (a) The visitor asks for a person: the assistant says the handoff message once; without a reload
// the operators' inbox shows the conversation waiting, the navigation's and the tab title's unread
// counts rise, and a browser notification is raised for the operator who opted in (the permission
// granted to the context; an init script wraps window.Notification to see it). Opening the
// conversation reads it: both tabs' counts fall. (b) Business hours are set in the web chat's form
// (an unknown time zone refused at its field first); the worker's clock (CLOCK_OFFSET_MS, two days
// ahead) falls on the holiday entered, so a visitor asking for a person hears the outside-hours
// message, although the real time is within the hours. (c) A conversation waiting for a person is
// taken over from its transcript (Take over is offered while it waits, not only while the assistant
// serves; its heading says how long the visitor has waited), and a resolved one is reopened the same
// way. axe-core on each screen; screenshots docs/console/inbox-waiting-*.png and
// docs/console/business-hours-*.png in both languages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOTS, axeViolations, ownerOn, startConsole, openVisitor, webChatSite } from "./console-helpers.mjs";

const CLOCK_OFFSET_MS = 2 * 86_400_000;
const HANDOFF = "I'll pass you to a member of our team, who will reply here as soon as they can.";
const AWAY = "Our team is away today; a colleague will answer here when we are back.";

let app, host, webChat;

beforeAll(async () => {
  app = await startConsole({ vars: { ENVIRONMENT: "test", CLOCK_OFFSET_MS: String(CLOCK_OFFSET_MS) } });
  ({ webChat, host } = await webChatSite(app, {
    assistant: { handoff: { outsideHoursMessage: AWAY } },
    webChat: { displayGreeting: "Hello! How can I help you today?" },
  }));
}, 300_000);

afterAll(async () => {
  await host?.close();
  await app?.close();
});

/** A visitor on the business's site with the widget open; `send` waits for the visitor's own bubble. */
async function visitor() {
  const opened = await openVisitor(app.browser, host.url);
  const conversationId = () =>
    opened.page.evaluate((id) => JSON.parse(localStorage.getItem(`assistant-chat:${id}`)).conversationId, webChat);
  return { ...opened, conversationId };
}

/** An operator on the console's `path`, signed in, with the browser's notifications granted and recorded. */
const operator = (locale, path = "/conversations") => ownerOn(app, path, { locale, notify: true });

const navUnread = (page) => page.locator(".side-nav .nav-unread");

describe("handoff in the console", () => {
  it(
    "(a) a visitor asking for a person: handoff said once; the inbox shows it waiting, unread counts rise live, " +
      "a notification is raised; opening it reads it",
    async () => {
      const en = await operator("en");
      const zh = await operator("zh-TW");
      for (const { page } of [en, zh]) await page.locator(".badge.live").waitFor();
      // Opting in: the browser's permission was granted, so the click only turns it on (remembered).
      await en.page.getByRole("button", { name: "Notify me" }).click();
      await en.page.getByRole("button", { name: "Notifications on" }).waitFor();
      expect(await en.page.evaluate(() => localStorage.getItem("console.notify"))).toBe("on");
      await expect.poll(() => navUnread(en.page).count()).toBe(0);

      const v = await visitor();
      await v.send("I need to talk to a person about order 4471");
      const handoff = v.page.locator(".row.assistant .bubble", { hasText: HANDOFF });
      await handoff.waitFor();
      const id = await v.conversationId();

      for (const { page } of [en, zh]) {
        const row = page.locator(`li[data-conversation="${id}"]`);
        await row.locator(".badge.progress-waiting_for_human").waitFor();
        await row.locator(".badge.unread").waitFor();
        await expect.poll(() => navUnread(page).textContent()).toBe("1");
        await expect.poll(() => page.title()).toMatch(/^\(1\) /);
      }
      await expect
        .poll(() => en.page.evaluate(() => window.__notifications))
        .toEqual([{ title: "A visitor is waiting for a person", body: "I need to talk to a person about order 4471" }]);
      // zh-TW did not opt in: nothing raised there.
      expect(await zh.page.evaluate(() => window.__notifications)).toEqual([]);
      // Said once, and the assistant is silent after.
      expect(await handoff.count()).toBe(1);
      await v.send("hello?");
      await expect
        .poll(() => en.page.locator(`li[data-conversation="${id}"] .badge.unread`).textContent())
        .toMatch(/^2/);
      expect(await v.page.locator(".row.assistant .bubble", { hasText: HANDOFF }).count()).toBe(1);

      for (const [name, { page }] of [
        ["en", en],
        ["zh-TW", zh],
      ]) {
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/inbox-waiting-${name}.png`, fullPage: true });
      }

      // Opening it reads it: both tabs' counts fall, without a reload.
      await en.page.locator(`li[data-conversation="${id}"] a`).click();
      await en.page.locator(".msg", { hasText: "hello?" }).waitFor();
      for (const { page } of [en, zh]) {
        await expect.poll(() => navUnread(page).count()).toBe(0);
        await expect.poll(() => page.title()).not.toMatch(/^\(/);
        await expect.poll(() => page.locator(`li[data-conversation="${id}"] .badge.unread`).count()).toBe(0);
      }
      expect((await app.server.api(`/conversations/${id}/`, { method: "GET" })).unreadCount).toBe(0);
      for (const o of [en, zh, v]) await o.context.close();
    },
  );

  it(
    "(b) business hours set in the console; with the clock outside them the visitor asking for a person hears " +
      "the outside-hours message",
    async () => {
      const clockDate = new Date(Date.now() + CLOCK_OFFSET_MS).toISOString().slice(0, 10);
      const en = await operator("en", `/web-chats/${webChat}`);
      const page = en.page;
      const form = page.locator("section.business-hours");
      await form.getByLabel("Set business hours").check();
      await form.getByLabel("Time zone").fill("Mars/Olympus");
      await form.getByRole("button", { name: "Save business hours" }).click();
      // The API's 400 detail, at the field.
      await form.locator(".field.invalid", { hasText: "Time zone" }).getByText("not an IANA time zone").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await form.screenshot({ path: `${SHOTS}/business-hours-error-en.png` });

      await form.getByLabel("Time zone").fill("UTC");
      // Open all day, every day: only the holiday (the clock's date, two days ahead) is closed.
      for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]) {
        if (!(await form.getByLabel(`${day} opens (period 1)`).count()))
          await form.getByRole("button", { name: `Add hours on ${day}` }).click();
        await form.getByLabel(`${day} opens (period 1)`).fill("00:00");
        await form.getByLabel(`${day} closes (period 1)`).fill("24:00");
      }
      await form.getByRole("button", { name: "Add hours on Saturday" }).click();
      await form.getByRole("button", { name: "Remove Saturday period 2" }).click();
      await form.getByLabel("Holidays").fill(clockDate);
      await form.getByRole("button", { name: "Save business hours" }).click();
      await page.getByRole("region", { name: "Notifications" }).getByText("Business hours saved.").waitFor();
      const inbox = (await app.server.api(`/web-chats/${webChat}/`, { method: "GET" })).inbox.id;
      const saved = (await app.server.api(`/inboxes/${inbox}/`, { method: "GET" })).businessHours;
      expect(saved).toMatchObject({
        timeZone: "UTC",
        holidays: [clockDate],
        weekly: { mon: [["00:00", "24:00"]], sat: [["00:00", "24:00"]], sun: [["00:00", "24:00"]] },
      });
      expect(await axeViolations(page)).toEqual([]);
      await form.screenshot({ path: `${SHOTS}/business-hours-en.png` });

      const zh = await operator("zh-TW", `/web-chats/${webChat}`);
      const zhForm = zh.page.locator("section.business-hours");
      await zhForm.getByLabel("時區").waitFor();
      expect(await zhForm.getByLabel("時區").inputValue()).toBe("UTC");
      expect(await axeViolations(zh.page)).toEqual([]);
      await zhForm.screenshot({ path: `${SHOTS}/business-hours-zh-TW.png` });

      // The real time is within the hours; the worker's clock is on the holiday.
      const v = await visitor();
      await v.send("I need to talk to a person, please");
      await v.page.locator(".row.assistant .bubble", { hasText: AWAY }).waitFor();
      expect(await v.page.locator(".row.assistant .bubble", { hasText: HANDOFF }).count()).toBe(0);
      for (const o of [en, zh, v]) await o.context.close();
    },
  );

  it(
    "(c) a conversation waiting for a person is taken over from its transcript (the visitor is told); resolved, " +
      "it is taken over again, which reopens it",
    async () => {
      const v = await visitor();
      await v.send("I need to talk to a person about my invoice");
      // Handed off (within business hours or not, after (b)): the assistant's one answer.
      await v.page.locator(".row.assistant .bubble", { hasText: /member of our team|away today/ }).waitFor();
      const id = await v.conversationId();
      const { page, context, errors } = await operator("en", "/conversations");
      await page.locator(".badge.live").waitFor();
      await page.locator(`li[data-conversation="${id}"] .badge.progress-waiting_for_human`).waitFor();
      await page.locator(`li[data-conversation="${id}"] a`).click();
      const head = page.locator(".inbox-transcript .section-head");
      await expect.poll(() => head.textContent()).toContain("Waiting for a human");
      // How long the visitor has waited, beside its state: on a phone the list (which says it too) is hidden.
      expect(await head.locator("[data-waiting]").textContent()).toMatch(/^Waiting \d+ min$/);

      // Waiting: the member's first step is to take it, besides handing it back or resolving it.
      const take = page.getByRole("button", { name: "Take over" });
      await take.waitFor();
      expect(await page.getByRole("button", { name: "Hand back to the assistant" }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await take.click();
      await expect.poll(() => head.textContent()).toContain("With a team member");
      expect(await head.locator("[data-waiting]").count()).toBe(0);
      expect(await page.locator(".inbox-transcript").textContent()).toContain(`Assignee: ${app.owner.name}`);
      // Now theirs: no Take over, and the focus in the reply box; the visitor sees who joined.
      await expect.poll(() => take.count()).toBe(0);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("combobox");
      await v.page.getByText(`${app.owner.name} joined the conversation.`).waitFor();

      // Resolved: Take over reopens it for the member.
      await page.getByRole("button", { name: "Resolve" }).click();
      await expect.poll(() => head.textContent()).toContain("Resolved");
      await take.click();
      await expect.poll(() => head.textContent()).toContain("With a team member");
      expect(await head.textContent()).toContain("Open");
      expect(await app.server.api(`/conversations/${id}/`, { method: "GET" })).toMatchObject({
        status: "open",
        progressStatus: "human_serving",
      });
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      for (const o of [context, v.context]) await o.close();
    },
  );
});
