// The console's Webhooks page in Chromium against `wrangler dev`, with a loopback receiver
// (test/support/webhook-receiver.mjs): a webhook added with a generated secret shown once; a test
// send shows the receiver's answer; an assistant's reply is delivered and shows up with its
// status; a delivery failed during an outage is redelivered from its record, and another with
// "redeliver failed events"; a webhook disabled in its form says so; lifecycle events ticked in
// the form reach the receiver. Keyboard-only test send,
// axe-core in both themes with the dialogs open, the screenshots of docs/console/. A member who may manage webhooks
// but not see inboxes is not offered the page (it starts from the inboxes' list); with inbox.view too, they use it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver } from "../support/webhook-receiver.mjs";
import {
  axeViolations,
  ownerOn,
  startConsole,
  dialog,
  LOCAL_LLM,
  ownerScreenshots,
  memberInNewGroup,
  openPage,
  permissionIds,
  signInContext,
} from "./console-helpers.mjs";

let app, receiver, bot, inboxId;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startConsole({ vars: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
  const created = await app.server.api("/chatbots/", { body: { name: "Support", largeLanguageModel: LOCAL_LLM } });
  bot = created.id;
  inboxId = created.defaultInbox.id;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

async function webhooksPage(options) {
  const opened = await ownerOn(app, "/webhooks", options);
  await opened.page.getByRole("heading", { name: /^Webhooks of / }).waitFor();
  return opened;
}

const reply = (content) => app.server.api(`/chatbots/${bot}/completions/`, { body: { message: { content } } });
const received = (key) => receiver.requests.filter((r) => r.path.startsWith(`/switch/${key}/`));

/** The delivery rows as [attempt, status] once `done` holds for them, pressing Refresh meanwhile. */
async function deliveryRows(page, done) {
  const section = page.getByRole("region", { name: /^Deliveries of / });
  let rows = [];
  for (let i = 0; i < 50; i++) {
    rows = await section
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [Number(tr.children[2].textContent), tr.children[3].textContent]));
    if (done(rows)) return rows;
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.waitForTimeout(200);
  }
  return rows;
}

describe("Webhooks in Chromium", () => {
  it(
    "adds a webhook with a secret shown once, sends a test, shows a reply's delivery, and redelivers failed " + "ones",
    async () => {
      const { context, page, errors } = await webhooksPage();
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByRole("button", { name: "Add webhook" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill("CRM sync");
      await dialog(page).getByLabel("URL").fill(`${receiver.url}/switch/crm/hook`);
      await dialog(page).getByLabel("Custom headers").fill("X-Team: support");
      await dialog(page).getByRole("button", { name: "Generate" }).click();
      await dialog(page).getByRole("button", { name: "Add" }).click();
      const secretField = dialog(page).getByLabel("Secret token");
      await dialog(page).getByText("it is not shown again").waitFor();
      const secret = await secretField.inputValue();
      expect(secret).toMatch(/^[0-9A-Za-z]{32}$/);
      await dialog(page).getByRole("button", { name: "Copy" }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await dialog(page).getByRole("button", { name: "Done" }).click();
      const row = page.getByRole("row", { name: /CRM sync/ });
      await row.waitFor();
      // The form and the secret are two dialogs: the focus goes back to the button that opened the first.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Add webhook");
      expect(await row.textContent()).toContain(`…${secret.slice(-4)}`);
      expect(await page.content()).not.toContain(secret);
      const [hook] = (await app.server.api(`/inboxes/${inboxId}/webhooks/`, { method: "GET" })).results;
      expect(hook).toMatchObject({
        name: "CRM sync",
        // Header values are write-only: shown masked.
        headers: { "X-Team": "••••" },
        hasSecretToken: true,
        retryFailedDeliveries: false,
        isEnabled: true,
      });

      // A test send: the receiver gets it with the secret, and the dialog shows its answer.
      await page.getByRole("button", { name: "Send test to CRM sync" }).click();
      await dialog(page).getByText("The receiver answered 200 in").waitFor();
      expect(await dialog(page).textContent()).toContain("Delivered · 200");
      const [test] = received("crm");
      expect(test.headers["x-webhook-secret"]).toBe(secret);
      expect(JSON.parse(test.body).metadata).toEqual({ test: true });
      await page.keyboard.press("Escape");

      // An assistant's reply is delivered, and its record shows the status.
      await reply("Where is my parcel?");
      await page.getByRole("button", { name: "Deliveries of CRM sync" }).click();
      let rows = await deliveryRows(page, (r) => r.length === 1 && r[0][1] === "Delivered · 200");
      expect(rows).toEqual([[1, "Delivered · 200"]]);
      await page.getByRole("button", { name: /^Details of attempt 1 / }).click();
      const details = await dialog(page).textContent();
      expect(details).toContain('"type": "outgoing"');
      expect(details).toContain('"message": "ok"');
      await page.keyboard.press("Escape");

      // An outage: the next reply's delivery fails with 503; redelivered from its record once the receiver is back.
      receiver.setMode("crm", "down");
      await reply("And my refund?");
      rows = await deliveryRows(page, (r) => r.length === 2 && r[0][1] === "Failed · 503");
      expect(rows[0]).toEqual([1, "Failed · 503"]);
      receiver.setMode("crm", "ok");
      await page
        .getByRole("button", { name: /^Redeliver attempt 1 / })
        .first()
        .click();
      rows = await deliveryRows(page, (r) => r.length === 3 && r[0][1] === "Delivered · 200");
      expect(rows.slice(0, 2)).toEqual([
        [2, "Delivered · 200"],
        [1, "Failed · 503"],
      ]);
      const events = await app.server.api(`/inboxes/${inboxId}/webhooks/${hook.id}/records/`, { method: "GET" });
      expect(events.results[0].eventId).toBe(events.results[1].eventId);

      // Another outage, and "Redeliver failed events" sends it again.
      receiver.setMode("crm", "down");
      await reply("Can I change the address?");
      await deliveryRows(page, (r) => r.length === 4 && r[0][1] === "Failed · 503");
      receiver.setMode("crm", "ok");
      await page.getByRole("button", { name: "Redeliver failed events" }).click();
      await dialog(page).getByRole("button", { name: "Redeliver" }).click();
      rows = await deliveryRows(page, (r) => r.length === 5 && r[0][1] === "Delivered · 200");
      expect(rows[0]).toEqual([2, "Delivered · 200"]);
      // Filtered by status: the two failures of the outages stay on record.
      await page.getByLabel("Status", { exact: true }).selectOption({ label: "Failed" });
      await expect
        .poll(() =>
          page
            .getByRole("region", { name: /^Deliveries of / })
            .locator("tbody tr")
            .count(),
        )
        .toBe(2);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("a webhook's form shows its header values masked, and saving it keeps the stored ones", async () => {
    const token = "Bearer crm-live-token-0123456789abcdef";
    const hook = await app.server.api(`/inboxes/${inboxId}/webhooks/`, {
      body: {
        name: "Masked hook",
        direction: "outgoing",
        url: `${receiver.url}/switch/masked/hook`,
        headers: {
          Authorization: token,
        },
      },
    });
    const { context, page } = await webhooksPage();
    await page.getByRole("button", { name: "Edit Masked hook" }).click();
    expect(await dialog(page).getByLabel("Custom headers").inputValue()).toBe("Authorization: …cdef");
    expect(await page.content()).not.toContain("crm-live-token");
    await dialog(page).getByLabel("Name", { exact: true }).fill("Masked hook, renamed");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await page.getByRole("row", { name: /Masked hook, renamed/ }).waitFor();
    await app.server.api(`/inboxes/${inboxId}/webhooks/${hook.id}/send-test/`, { body: {} });
    expect(received("masked").at(-1).headers.authorization).toBe(token);
    await context.close();
  });

  it("a webhook disabled in its form says so and offers no redelivery", async () => {
    const hook = await app.server.api(`/inboxes/${inboxId}/webhooks/`, {
      body: { name: "Paused hook", direction: "incoming", url: `${receiver.url}/ok/paused` },
    });
    const { context, page } = await webhooksPage();
    await page.getByRole("button", { name: "Edit Paused hook" }).click();
    await dialog(page)
      .getByLabel(/^Enabled/)
      .uncheck();
    await dialog(page).getByLabel("Retry failed deliveries").check();
    await dialog(page).getByRole("button", { name: "Save" }).click();
    const row = page.getByRole("row", { name: /Paused hook/ });
    await row.getByText("Disabled", { exact: true }).waitFor();
    expect(await row.textContent()).toContain("Retried");
    expect(await app.server.api(`/inboxes/${inboxId}/webhooks/${hook.id}/`, { method: "GET" })).toMatchObject({
      isEnabled: false,
      retryFailedDeliveries: true,
      direction: "incoming",
    });
    await page.getByRole("button", { name: "Deliveries of Paused hook" }).click();
    await page.getByText("No deliveries yet.").waitFor();
    expect(await page.getByRole("button", { name: "Redeliver failed events" }).count()).toBe(0);
    await app.server.api(`/inboxes/${inboxId}/webhooks/${hook.id}/`, { method: "DELETE" });
    await context.close();
  });

  it(
    "ticks lifecycle events in the form (not offered with Genesys): a takeover reaches the receiver as " +
      "conversation.updated",
    async () => {
      const hook = await app.server.api(`/inboxes/${inboxId}/webhooks/`, {
        body: { name: "Lifecycle hook", direction: "outgoing", url: `${receiver.url}/ok/lifecycle` },
      });
      const { context, page, errors } = await webhooksPage();
      await page.getByRole("button", { name: "Edit Lifecycle hook" }).click();
      const option = dialog(page).getByLabel("Also send conversation lifecycle events");
      expect(await option.isChecked()).toBe(false);
      await dialog(page).getByLabel("Payload format").selectOption("genesys_cloud");
      await option.waitFor({ state: "detached" });
      await dialog(page).getByLabel("Payload format").selectOption("service_standard");
      await option.check();
      expect(await axeViolations(page)).toEqual([]);
      await dialog(page).getByRole("button", { name: "Save" }).click();
      await dialog(page).waitFor({ state: "detached" });
      expect(await app.server.api(`/inboxes/${inboxId}/webhooks/${hook.id}/`, { method: "GET" })).toMatchObject({
        conversationEvents: true,
        templatePreset: "service_standard",
      });

      const { conversationId } = await reply("I have a question about my order");
      await app.server.api(`/conversations/${conversationId}/take-over/`);
      await expect
        .poll(
          () =>
            receiver.requests
              .filter((r) => r.path === "/ok/lifecycle")
              .map((r) => JSON.parse(r.body))
              .find((p) => p.event === "conversation.updated")?.reason,
          { timeout: 15_000 },
        )
        .toBe("operator");
      // Reopened, the form shows the option ticked.
      await page.getByRole("button", { name: "Edit Lifecycle hook" }).click();
      expect(await dialog(page).getByLabel("Also send conversation lifecycle events").isChecked()).toBe(true);
      await page.keyboard.press("Escape");
      expect(errors).toEqual([]);
      await app.server.api(`/inboxes/${inboxId}/webhooks/${hook.id}/`, { method: "DELETE" });
      await context.close();
    },
  );

  it("sends a test from the keyboard alone, and the focus comes back after the dialog", async () => {
    const { context, page } = await webhooksPage();
    const button = page.getByRole("button", { name: "Send test to CRM sync" });
    await page.locator("h1").focus();
    for (let i = 0; i < 40 && !(await button.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await dialog(page).getByText("The receiver answered 200 in").waitFor();
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "detached" });
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation, with the form and a record's details open (%s)",
    async (theme) => {
      const { context, page } = await webhooksPage({ theme });
      await page.getByRole("button", { name: "Deliveries of CRM sync" }).click();
      await page
        .getByRole("region", { name: /^Deliveries of / })
        .locator("tbody tr")
        .first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page
        .getByRole("button", { name: /^Details of attempt / })
        .first()
        .click();
      await dialog(page).getByText("Request body").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Add webhook" }).click();
      await dialog(page).getByLabel("Payload format").selectOption("custom");
      await dialog(page).getByLabel("Name", { exact: true }).fill("Broken");
      await dialog(page).getByLabel("URL").fill(`${receiver.url}/ok/broken`);
      await dialog(page).getByLabel("Custom template (Jinja2)").fill("{{ not json");
      await dialog(page).getByRole("button", { name: "Add" }).click();
      await dialog(page).locator(".field-error").first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
  );

  it("webhook.manage alone: the page is not offered and names inbox.view; with both, the member uses it", async () => {
    const { organization, group, registered } = await memberInNewGroup(app, {
      email: "hooks@example.com",
      name: "Hook Keeper",
      company: "Hooks Ltd",
      group: "Integrations",
      permissions: ["webhook.manage"],
    });
    const { context, page, errors } = await openPage(app.browser);
    await signInContext(context, app.base, { apiKey: registered.apiKey });
    await context.addInitScript((id) => localStorage.setItem("console.organization", id), organization.id);
    await page.goto(`${app.base}/console/webhooks`);
    // The page lists the inboxes first, which the API refuses without inbox.view: the shell says what is missing.
    await page.getByRole("heading", { level: 1, name: "Not available" }).waitFor();
    expect(await page.locator("main li").allTextContents()).toEqual(["Inboxes and web chats: View"]);
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Webhooks" }).count()).toBe(0);

    await app.server.api(`/organizations/${organization.id}/groups/${group.id}/`, {
      method: "PATCH",
      body: { permissions: await permissionIds(app, ["webhook.manage", "inbox.view"]) },
    });
    await page.reload();
    await page.getByRole("heading", { name: /^Webhooks of / }).waitFor();
    expect(await page.getByRole("button", { name: "Add webhook" }).isVisible()).toBe(true);
    expect(await page.locator("main [role=alert]").count()).toBe(0);
    await nav.getByRole("link", { name: "Webhooks" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("takes the screenshots of docs/console/", async () => {
    await ownerScreenshots(app, "/console/webhooks", "webhooks", {
      act: async (page) => {
        // The CRM sync webhook's deliveries ("Deliveries" is its row's second button in every language).
        await page
          .getByRole("row", { name: /CRM sync/ })
          .locator("button")
          .nth(1)
          .click();
        await page.locator("section[aria-labelledby=deliveries-title] tbody tr").first().waitFor();
      },
    });
  });
});
