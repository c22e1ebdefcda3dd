// Conversation labels and the inbox's search in Chromium against `wrangler dev`: the owner creates
// a label with a colour on the Labels page, puts it on a conversation from its transcript, filters
// the inbox by it, then finds a conversation by a word of its messages with the search box (what is
// typed while a search is on its way is kept). A refused label's dialog puts the focus on the field
// refused, or on its alert when no field is named. Deleting the only label of the last page shows the page before.
// axe-core on the Labels page (with its form open) and on the inbox; screenshots of
// docs/console/labels-*.png and docs/console/inbox-search-*.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, dialog, ownerOn, startConsole, LOCAL_LLM, ownerScreenshots } from "./console-helpers.mjs";

let app, parcel, password;

beforeAll(async () => {
  app = await startConsole();
  const bot = await app.server.api("/chatbots/", { body: { name: "Ava", largeLanguageModel: LOCAL_LLM } });
  const ask = async (content) =>
    (await app.server.api(`/chatbots/${bot.id}/completions/`, { body: { message: { content } } })).conversationId;
  parcel = await ask("My parcel never arrived");
  password = await ask("How do I reset my password?");
  await app.server.api(`/conversations/${password}/labels/`, {
    method: "PUT",
    body: { labelIds: [(await app.server.api("/labels/", { body: { name: "Account", color: "#2ca02c" } })).id] },
  });
}, 300_000);

afterAll(async () => {
  await app?.close();
});

// The conversations (each row holds a list of its labels too).
const rows = (page) => page.locator(".inbox-list > li");

describe("Conversation labels and search in Chromium", () => {
  it("in zh-TW a refused field is said in zh-TW, at the field and in the form's summary", async () => {
    // The console's language chosen in a browser that speaks English: the console's choice is what the API hears.
    const { page, context, errors } = await ownerOn(app, "/labels", { locale: "zh-TW", browserLocale: "en-US" });
    await page.getByRole("button", { name: "新增標籤" }).click();
    // Spaces pass the browser's `required`; the API trims them and refuses the name in the console's language.
    await dialog(page).getByLabel("名稱").fill("   ");
    await dialog(page).getByRole("button", { name: "儲存" }).click();
    await dialog(page).locator(".form-error").waitFor();
    expect(await dialog(page).locator(".form-error li").allTextContents()).toEqual(["不可空白"]);
    expect(await dialog(page).getByLabel("名稱").getAttribute("aria-invalid")).toBe("true");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a refused dialog puts the focus on the field refused, or on its alert when no field is named", async () => {
    const { page, context, errors } = await ownerOn(app, "/labels");
    await page.getByRole("button", { name: "New label" }).click();
    // The form's first field, where typing begins: on Close, a space typed closed the dialog.
    await expect
      .poll(() =>
        dialog(page)
          .getByLabel("Name")
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await dialog(page).getByLabel("Description").fill("Refused twice");
    // Spaces pass the browser's `required`; the API refuses the name. The Save button (clicked, so focused) is busy
    // meanwhile, which drops the focus to the page.
    await dialog(page).getByLabel("Name").fill("   ");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    const name = dialog(page).getByLabel("Name");
    await expect.poll(() => name.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    // A refusal naming no field (the network lost, here): the form's alert takes the focus.
    await name.fill("Offline");
    await context.setOffline(true);
    await dialog(page).getByRole("button", { name: "Save" }).click();
    const alert = dialog(page).getByRole("alert");
    await alert.waitFor();
    await expect.poll(() => alert.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.setOffline(false);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors.filter((e) => !e.includes("ERR_INTERNET_DISCONNECTED"))).toEqual([]);
    await context.close();
  });

  it("creates a label, puts it on a conversation, filters the inbox by it, finds a conversation by word", async () => {
    // The Labels page: a new label with a colour.
    const { page, context, errors } = await ownerOn(app, "/labels");
    await page.locator("table").waitFor();
    await page.getByRole("button", { name: "New label" }).click();
    await dialog(page).getByLabel("Name").fill("VIP");
    await dialog(page).getByLabel("Colour").fill("#d62728");
    await dialog(page).getByLabel("Description").fill("Our best customers");
    expect(await axeViolations(page)).toEqual([]);
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await page.locator("tr", { hasText: "VIP" }).waitFor();
    await expect.poll(() => page.locator("tr", { hasText: "VIP" }).textContent()).toContain("#d62728");
    // A taken name is refused at the field.
    await page.getByRole("button", { name: "New label" }).click();
    await dialog(page).getByLabel("Name").fill("VIP");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await dialog(page).locator(".form-error, .alert, [role=alert]").first().waitFor();
    await dialog(page).getByRole("button", { name: "Cancel" }).click();
    expect(await axeViolations(page)).toEqual([]);

    // On a conversation, from its transcript.
    await page.goto(`${app.base}/console/conversations/${parcel}`);
    await page.locator("#transcript-title").waitFor();
    await page.getByRole("button", { name: "Labels…" }).click();
    // Titled as what it holds (not the button's "Labels…", whose ellipsis says a dialog opens).
    await dialog(page).getByRole("heading", { name: "Labels of this conversation" }).waitFor();
    await dialog(page).getByLabel("VIP").check();
    await dialog(page).getByRole("button", { name: "Save labels" }).click();
    await page.locator(".inbox-transcript .label-chip", { hasText: "VIP" }).waitFor();
    await rows(page)
      .filter({ has: page.locator(".label-chip", { hasText: "VIP" }) })
      .waitFor();
    expect(await rows(page).count()).toBe(2);

    // The inbox filtered by the label.
    await page.getByLabel("Label", { exact: true }).selectOption({ label: "VIP" });
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().getAttribute("data-conversation")).toBe(parcel);
    await page.getByLabel("Label", { exact: true }).selectOption({ label: "Account" });
    await expect.poll(() => rows(page).first().getAttribute("data-conversation")).toBe(password);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => rows(page).count()).toBe(2);

    // Search: a word of a message, typed (sent once typing pauses).
    await page.locator("input.inbox-search").pressSequentially("parcel");
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().getAttribute("data-conversation")).toBe(parcel);
    await page.locator("input.inbox-search").fill("nothing like this");
    await page.getByText("No conversation matches.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("keeps what is typed while the search sent before it comes back (the page's clock held between)", async () => {
    const { page, context, errors } = await ownerOn(app, "/conversations");
    // The page's timers held by hand, so that the keys that follow a search reach the box before the page has painted
    // that search's keyword coming back (as on a busy machine, here every time). The fake clock's frames fall every
    // 16 ms from its start: a start on a multiple of 16 puts them on multiples of 16.
    const start = Math.floor(Date.now() / 16) * 16;
    await page.clock.install({ time: start });
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.clock.pauseAt(start + 60_000);
    const box = page.locator("input.inbox-search");
    await box.pressSequentially("parcel");
    // The keys' effects run at the next frame (16 ms on) and start the pause (the console's SEARCH_DELAY_MS, 300 ms):
    // at its end the search is sent, and the paint after it (4 ms later, on the next multiple of 16) has not come.
    await page.clock.runFor(16 + 300);
    await box.fill("nothing like this");
    await page.clock.runFor(400);
    expect(await box.inputValue()).toBe("nothing like this");
    await page.clock.resume();
    await page.getByText("No conversation matches.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("screenshots of the Labels page and of the inbox's search", async () => {
    await ownerScreenshots(app, "/console/labels", "labels", {
      act: (page) => page.locator("table").waitFor(),
    });
    await ownerScreenshots(app, "/console/conversations", "inbox-search", {
      idle: false,
      act: async (page) => {
        await page.locator(".inbox-list > li").first().waitFor();
        await page.locator("input.inbox-search").fill("parcel");
        await expect.poll(() => page.locator(".inbox-list > li").count()).toBe(1);
        await page.locator(".inbox-list .label-chip").first().waitFor();
      },
    });
  }, 180_000);

  // After the screenshots, which this test's labels would fill.
  it("deleting the only row of the last page shows the page before, without an error or the deleted row", async () => {
    // 21 labels: page 2 (20 a page) holds one.
    const have = (await app.server.api("/labels/?pageSize=1", { method: "GET" })).count;
    for (let i = have + 1; i <= 21; i++)
      await app.server.api("/labels/", { body: { name: `Label ${String(i).padStart(2, "0")}`, color: "#1f77b4" } });
    const { page, context, errors } = await ownerOn(app, "/labels");
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => page.locator(".pager span").textContent()).toBe("Page 2 of 2");
    const names = page.locator("table tbody tr th");
    await expect.poll(() => names.count()).toBe(1);
    const only = (await names.textContent()).trim();
    await page.getByRole("button", { name: `Delete ${only}` }).click();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await page.locator(".toast", { hasText: `Label ${only} deleted.` }).waitFor();
    // The 20 left, all on page 1 (so no pager).
    await expect.poll(() => names.count()).toBe(20);
    expect(await page.locator(".pager").count()).toBe(0);
    expect(await names.allTextContents()).not.toContain(only);
    expect(await page.locator("main .alert.error").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
