// The widget when the organization's plan has no words left this month (PLANS `monthlyWords`), in Chromium against
// `wrangler dev`: the visitor's message is taken (never "Not sent"), the widget says the assistant could not answer,
// and the next message goes on in the same conversation, which the team's API shows whole. And a file past the plan's
// upload bytes (`uploadBytes`), or one the storage itself refuses, is said on its chip in the visitor's words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { axeViolations, openVisitor, startConsole, webChatSite, shotsDir } from "./console-helpers.mjs";

const shots = shotsDir("widget");
/** Every organization's plan: five words a month, which the first answered turn uses, and 100 bytes of uploads. */
const PLANS = JSON.stringify({ tiny: { planName: "Tiny", monthlyWords: 5, uploadBytes: 100 } });

let app, host;

beforeAll(async () => {
  app = await startConsole({ vars: { PLANS, DEFAULT_PLAN: "tiny" } });
  ({ host } = await webChatSite(app, { webChat: { enableFileUpload: true } }));
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

  it("says on a file's chip that there is no room for it, or that the storage found it too large", async () => {
    const { context, page } = await openVisitor(app.browser, host.url);
    const chip = (name) => page.locator(".file.bad", { hasText: name });
    // Past the plan's 100 bytes: refused when the upload is asked for (403 permission_denied).
    await page
      .locator("input[type=file]")
      .setInputFiles([{ name: "order-list.txt", mimeType: "text/plain", buffer: Buffer.alloc(200, "a") }]);
    await expect.poll(() => chip("order-list.txt").locator(".st").textContent()).toBe("No room for more files");
    expect(await chip("order-list.txt").getAttribute("title")).toMatch(/^The Tiny plan stores up to 100 bytes/);
    await page.getByRole("button", { name: "Remove order-list.txt" }).click();
    // A small one the storage refuses itself, answering as S3 and R2 do (XML, as a presigned upload to them would).
    await page.route(`${app.base}/api/v1/uploads/`, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/xml",
        body:
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>EntityTooLarge</Code>' +
          "<Message>Your proposed upload exceeds the maximum allowed size.</Message></Error>",
      }),
    );
    await page
      .locator("input[type=file]")
      .setInputFiles([{ name: "note.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
    await expect.poll(() => chip("note.txt").locator(".st").textContent()).toBe("Too large");
    expect(await chip("note.txt").getAttribute("title")).toBe("Your proposed upload exceeds the maximum allowed size.");
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 90_000);
});
