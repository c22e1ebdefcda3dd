// The widget when the organization's plan has no words left this month (PLANS `monthlyWords`), in Chromium against
// `wrangler dev`: the visitor's message is taken (never "Not sent"), the widget says the assistant could not answer,
// and the next message goes on in the same conversation, which the team's API shows whole.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { axeViolations, openVisitor, startConsole, webChatSite } from "./console-helpers.mjs";

const shots = path.resolve(import.meta.dirname, "../../docs/widget");
/** Every organization's plan: five words a month, which the first answered turn uses. */
const PLANS = JSON.stringify({ tiny: { planName: "Tiny", monthlyWords: 5 } });

let app, host;

beforeAll(async () => {
  app = await startConsole({ vars: { PLANS, DEFAULT_PLAN: "tiny" } });
  ({ host } = await webChatSite(app));
}, 120_000);

afterAll(async () => {
  await host?.close();
  await app?.close();
});

describe("the widget once the plan's words of the month are used", () => {
  it("takes the visitor's messages, says the assistant could not answer, and keeps one conversation", async () => {
    const { context, page, send } = await openVisitor(app.browser, host.url);
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await send("Where is my parcel today?");
    await page.locator(".row.assistant .bubble").filter({ hasText: "Where is my parcel today?" }).waitFor();
    const notice = page.getByRole("alert").filter({ hasText: "The assistant could not answer this time." });
    for (const [n, text] of [
      [1, "And tomorrow?"],
      [2, "Is anyone there?"],
    ]) {
      await send(text);
      await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(n);
    }
    expect(await page.getByText("Not sent").count()).toBe(0);
    expect(await page.locator(".row.assistant .typing").count()).toBe(0);
    await page.screenshot({ path: path.join(shots, "words-used.png") });
    expect(await axeViolations(page)).toEqual([]);

    const conversationId = await page.evaluate(
      () => JSON.parse(Object.values({ ...localStorage }).find((v) => v.includes("conversationId"))).conversationId,
    );
    const { results } = await app.server.api(`/messages/?conversation=${conversationId}`, { method: "GET" });
    // Newest first: both refused messages are in the conversation, after the one answer.
    expect(results.map((m) => [m.type, m.content])).toEqual([
      ["incoming", "Is anyone there?"],
      ["incoming", "And tomorrow?"],
      ["outgoing", 'You said: "Where is my parcel today?".'],
      ["incoming", "Where is my parcel today?"],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
