// Assignment in the console, in Chromium against `wrangler dev`: two operators and a visitor. The
// owner switches themselves Online in the header; Olga (a member who may manage conversations)
// stays Offline. The web inbox assigns round-robin. The visitor asks the widget for a person: the
// conversation is assigned to the online owner at once and shows, live, in their "Mine" view
// (waiting, with its waiting time), not in Olga's; Olga finds it under "Waiting", and, though she
// may not list the inboxes, sees it unread (navigation, tab title, the inbox's button). The owner
// then assigns it to Olga with the header's Assign control, and it appears in Olga's "Mine" without
// a reload. The Assign control is drawn as the console's other selects, its button beside it, on a
// desktop and at 390 px; after assigning (or unassigning) the focus stays on it. axe-core clean;
// screenshots docs/console/inbox-views-*.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  memberInNewGroup,
  PHONE,
  openPage,
  screenshots,
  signInContext,
  startConsole,
  recordNotifications,
  webChatSite,
  signInOwner,
} from "./console-helpers.mjs";

let app, host, bot, organization, olga;
const OLGA_PASSWORD = "olga password 1234";

beforeAll(async () => {
  app = await startConsole();
  ({ host, bot } = await webChatSite(app, { inbox: { assignment: { mode: "round_robin", capacity: 5 } } }));
  const email = `olga-${Date.now()}@example.com`;
  const agent = await memberInNewGroup(app, {
    email,
    password: OLGA_PASSWORD,
    name: "Olga",
    company: "Olga's",
    group: "Agents",
    permissions: ["conversation.manage"],
  });
  organization = agent.organization;
  olga = { email, id: agent.member.user.id };
}, 300_000);

afterAll(async () => {
  await host?.close();
  await app?.close();
});

/** An operator on the inbox page, signed in, its live stream connected. */
async function operator(body, { notify = false } = {}) {
  const opened = await openPage(app.browser);
  // The API's refusals of the page's own requests: a page asks only for what the member may see.
  opened.refused = [];
  opened.page.on("response", (r) => r.status() === 403 && opened.refused.push(new URL(r.url()).pathname));
  if (notify) await recordNotifications(opened.context, app.base);
  await opened.context.addInitScript((id) => localStorage.setItem("console.organization", id), organization.id);
  await signInContext(opened.context, app.base, body);
  await opened.page.goto(`${app.base}/console/conversations`);
  await opened.page.locator(".shell main h1").waitFor();
  await opened.page.locator(".badge.live").waitFor();
  return opened;
}

/** Chooses the option of the Assign control that starts with `name` (a member's is followed by their availability). */
const chooseAssignee = async (select, name) =>
  select.selectOption(
    await select
      .locator("option", { hasText: new RegExp(`^${name}\\b`) })
      .first()
      .getAttribute("value"),
  );

const rowOf = (page, text) => page.locator(".inbox-list li", { hasText: text });
const view = (page, name) => page.locator(`[data-view="${name}"]`).click();

describe("Assignment in the console", () => {
  it("the visitor asks for a person: assigned to the online agent, in their Mine; the offline one sees it " +
    "waiting; reassigned by hand", async () => {
    const owner = await operator({ apiKey: app.owner.key });
    const other = await operator({ email: olga.email, password: OLGA_PASSWORD }, { notify: true });
    // Olga opts in to notifications (the browser's permission is granted: the click only turns it on).
    await other.page.getByRole("button", { name: "Notify me" }).click();
    await other.page.getByRole("button", { name: "Notifications on" }).waitFor();

    // The owner goes online with the header's switch; Olga stays offline.
    const availability = owner.page.getByLabel("Availability");
    await expect.poll(() => availability.inputValue()).toBe("offline");
    await availability.selectOption("online");
    await expect
      .poll(
        async () =>
          (await app.server.api(`/organizations/${organization.id}/members/current/availability/`, { method: "GET" }))
            .availability,
      )
      .toBe("online");
    expect(await other.page.getByLabel("Availability").inputValue()).toBe("offline");
    await view(owner.page, "mine");
    await view(other.page, "mine");

    const v = await app.browser.newContext({ viewport: { width: 1000, height: 800 } });
    const visitor = await v.newPage();
    await visitor.goto(host.url);
    await visitor.locator("button.launcher").click();
    await visitor.getByRole("textbox", { name: "Message" }).fill("I need to talk to a person");
    await visitor.keyboard.press("Enter");

    // Live, without a reload: in the owner's Mine, waiting for them.
    const mine = rowOf(owner.page, "I need to talk to a person");
    await mine.waitFor({ timeout: 15_000 });
    await expect.poll(() => mine.textContent(), { timeout: 10_000 }).toContain("Waiting 0 min");
    // A badge as wide as its text, like the card's other badges, not a bar across the card.
    const [badge, card] = await Promise.all([mine.locator("[data-waiting]").boundingBox(), mine.boundingBox()]);
    expect(badge.width).toBeLessThan(card.width / 2);
    expect(await mine.textContent()).toContain(`Assignee: ${app.owner.name}`);
    expect(await owner.page.locator('[data-view="mine"]').getAttribute("aria-pressed")).toBe("true");
    expect(await axeViolations(owner.page)).toEqual([]);

    // Not Olga's; she sees it under Waiting.
    expect(await rowOf(other.page, "I need to talk to a person").count()).toBe(0);
    await view(other.page, "waiting");
    await rowOf(other.page, "I need to talk to a person").waitFor({ timeout: 10_000 });
    // Unread, for her too (she may not list the inboxes): in the navigation, the tab's title and the inbox's button.
    await expect.poll(() => other.page.locator(".side-nav .nav-unread").textContent()).toBe("1");
    await expect.poll(() => other.page.title()).toMatch(/^\(1\) /);
    await other.page.getByRole("button", { name: "Website: 1 unread conversation, show them" }).waitFor();

    // The owner hands it to Olga with the Assign control; it comes into Olga's Mine live.
    await view(other.page, "mine");
    await mine.getByRole("link").click();
    await owner.page.locator("#transcript-title").waitFor();
    await chooseAssignee(owner.page.getByLabel("Assign"), "Olga");
    await owner.page.getByRole("button", { name: "Assign", exact: true }).click();
    await expect
      .poll(() => owner.page.locator(".inbox-transcript").textContent(), { timeout: 10_000 })
      .toContain("Assignee: Olga");
    expect(await axeViolations(owner.page)).toEqual([]);
    await rowOf(other.page, "I need to talk to a person").waitFor({ timeout: 10_000 });
    // Assigned to her: a notification, besides the one of the visitor waiting.
    await expect
      .poll(() => other.page.evaluate(() => window.__notifications.map((n) => n.title)), { timeout: 10_000 })
      .toContain("A conversation was assigned to you");
    expect(await axeViolations(other.page)).toEqual([]);
    // Olga opens it too: the inbox and its Assign control load, with no list she may not read asked for. She may not
    // list members, yet may assign: the control offers every member, with their availability.
    await rowOf(other.page, "I need to talk to a person").getByRole("link").click();
    const offered = other.page.getByLabel("Assign").locator("optgroup option");
    await expect
      .poll(() => offered.allTextContents())
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Administrator \((online|busy|offline)\)$/),
          expect.stringMatching(/^Olga \((online|busy|offline)\)$/),
          "Agents",
        ]),
      );
    expect(other.refused).toEqual([]);

    expect(owner.errors).toEqual([]);
    expect(other.errors).toEqual([]);
    await v.close();
    await owner.context.close();
    await other.context.close();
  }, 240_000);

  it("the Assign control is the console's own select beside its button, on a desktop and a phone", async () => {
    const { conversationId } = await app.server.api(`/chatbots/${bot.id}/completions/`, {
      body: { message: { content: "Who looks after my order?" } },
    });
    // A team with a long name: the longest choice must not widen the page.
    await app.server.api(`/organizations/${organization.id}/groups/`, {
      body: { name: "Second-line support for returns, refunds and exchanges", permissions: [] },
    });
    for (const viewport of [{ width: 1366, height: 800 }, PHONE]) {
      const { context, page, errors } = await openPage(app.browser, { viewport });
      await context.addInitScript((id) => localStorage.setItem("console.organization", id), organization.id);
      await signInOwner(app, context);
      await page.goto(`${app.base}/console/conversations/${conversationId}`);
      const select = page.getByLabel("Assign");
      await select.waitFor();
      await page.getByRole("option", { name: "Second-line support" }).waitFor({ state: "attached" });
      // Drawn as the filters' selects are (the kit's field), not as a bare browser control.
      const look = (locator) =>
        locator.evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            font: s.fontSize,
            radius: s.borderRadius,
            border: `${s.borderTopWidth} ${s.borderTopColor}`,
            background: s.backgroundColor,
            padding: s.paddingLeft,
            height: s.minHeight,
          };
        });
      expect(await look(select)).toEqual(await look(page.getByLabel("Status")));
      // Its button beside it, on its line, and nothing past the page's edge.
      const [box, button] = await Promise.all([
        select.boundingBox(),
        page.getByRole("button", { name: "Assign", exact: true }).boundingBox(),
      ]);
      expect(button.x).toBeGreaterThan(box.x + box.width - 1);
      expect(Math.abs(button.y + button.height - (box.y + box.height))).toBeLessThan(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await axeViolations(page)).toEqual([]);

      // Assigned, then unassigned: each time the focus stays on the choice for the next one, not on the page's body
      // (the button is disabled while it works, and again once the choice is cleared).
      const meta = page.locator(".inbox-transcript > p.muted").first();
      for (const [option, shown] of [
        ["Olga", "Assignee: Olga"],
        ["Unassign", null],
      ]) {
        await chooseAssignee(select, option);
        await page.getByRole("button", { name: "Assign", exact: true }).click();
        await expect
          .poll(() => meta.textContent())
          .toSatisfy((text) => (shown ? text.includes(shown) : !/Assignee/.test(text)));
        await expect.poll(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it("screenshots of the Waiting view", async () => {
    await screenshots(app.browser, app.base, "/console/conversations", "inbox-views", {
      idle: false,
      signIn: (context) => signInContext(context, app.base, { apiKey: app.owner.key }),
      act: async (page) => {
        await page.locator(".badge.live").waitFor();
        await page.locator('[data-view="waiting"]').click();
        await page.locator(".inbox-list li").first().waitFor();
      },
    });
  }, 240_000);
});
