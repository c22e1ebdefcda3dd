// The console's "Models and API keys" page in Chromium against `wrangler dev`: an OpenAI-compatible
// model (the in-test upstream) added, tested, changed and deleted, with the API's field errors at
// their fields; an API key created (the secret shown once, copied) and revoked; a console session
// revoked from the list; a model added and tested, a key created, copied and revoked from the
// keyboard alone; a provider's preset filling the form, and the saved model's toast closed;
// the unavailable Workers AI models (no AI binding here) with their reason beside them; axe-core in
// both themes with the dialogs open; the screenshots of docs/console/
// (sign-in and this page, in light, dark, phone and zh-TW).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream, UPSTREAM_API_KEY } from "../support/openai-upstream.mjs";
import {
  axeViolations,
  openPage,
  screenshots,
  sessionCookie,
  signInContext,
  startConsole,
  dialog,
  ownerOn,
  tabTo,
  ownerScreenshots,
} from "./console-helpers.mjs";

let app, upstream;

beforeAll(async () => {
  upstream = await startUpstream({ tokenDelayMs: 5 });
  app = await startConsole();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

/** A signed-in owner on the page. */
const ownerOnPage = (options) => ownerOn(app, "/models", options);

describe("Models and API keys in Chromium", () => {
  // First, while the organization holds only what the pictures should show.
  it("takes the screenshots of docs/console/", async () => {
    await app.server.api("/large-language-models/", {
      body: {
        name: "GPT-4o mini",
        provider: "openai_compatible",
        modelName: "gpt-4o-mini",
        baseUrl: `${upstream.url}/v1`,
        apiKey: UPSTREAM_API_KEY,
      },
    });
    await app.server.api("/api-keys/", { body: { name: "Helpdesk integration" } });
    await screenshots(app.browser, app.base, "/console/", "sign-in");
    await ownerScreenshots(app, "/console/models", "models", {
      // The connection test's outcome in its row ("Works" is translated in zh-TW: wait for the status either way).
      act: async (page) => {
        await page
          .getByRole("button", { name: /GPT-4o mini/ })
          .first()
          .click();
        await page.locator(".status.ok").first().waitFor();
      },
    });
  });

  it(
    "adds an OpenAI-compatible model, tests its connection, changes and deletes it; bad input shows at its " + "field",
    async () => {
      const { context, page, errors } = await ownerOnPage();
      await page.getByRole("button", { name: "Add model" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill("Upstream GPT");
      await dialog(page).getByLabel("Model name at the provider").fill("gpt-test");
      await dialog(page).getByLabel("Endpoint URL").fill("ftp://models.example.com/v1");
      await dialog(page).getByRole("button", { name: "Add" }).click();
      const endpoint = dialog(page).getByLabel("Endpoint URL");
      await expect.poll(() => endpoint.getAttribute("aria-invalid")).toBe("true");
      expect(await dialog(page).locator(".field-error").textContent()).toContain("http(s)");
      await endpoint.fill(`${upstream.url}/v1`);
      await dialog(page).getByLabel("API key of the provider").fill(UPSTREAM_API_KEY);
      await dialog(page).getByRole("button", { name: "Add" }).click();
      await dialog(page).waitFor({ state: "detached" });
      const row = page.getByRole("row", { name: /Upstream GPT/ });
      await row.waitFor();
      expect(await row.textContent()).toContain("…6789");

      await page.getByRole("button", { name: "Test connection of Upstream GPT" }).click();
      await row.getByText(/^Works · \d+ ms$/).waitFor();
      // The announcer says it on the next frame (after clearing the region), so it may follow the row's text.
      await expect
        .poll(() => page.locator("[role=status][aria-live=polite]").textContent())
        .toMatch(/Upstream GPT: the connection works/);

      await page.getByRole("button", { name: "Edit Upstream GPT" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill("Upstream GPT 2");
      await dialog(page).getByRole("button", { name: "Save" }).click();
      await page.getByRole("row", { name: /Upstream GPT 2/ }).waitFor();

      await page.getByRole("button", { name: "Delete Upstream GPT 2" }).click();
      await dialog(page).getByRole("button", { name: "Delete" }).click();
      await page.getByRole("row", { name: /Upstream GPT 2/ }).waitFor({ state: "detached" });
      const models = await app.server.api("/large-language-models/", { method: "GET" });
      expect(models.results.map((m) => m.name)).not.toContain("Upstream GPT 2");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "fills the form from a provider's preset: endpoint, model name and a name; the model saved shows a toast " +
      "that can be dismissed",
    async () => {
      const { context, page, errors } = await ownerOnPage();
      await page.getByRole("button", { name: "Add model" }).click();
      const form = dialog(page);
      await form.getByLabel("Start from").selectOption({ label: "Groq" });
      expect(await form.getByLabel("Endpoint URL").inputValue()).toBe("https://api.groq.com/openai/v1");
      expect(await form.getByLabel("Model name at the provider").inputValue()).toBe("llama-3.3-70b-versatile");
      expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Groq llama-3.3-70b-versatile");
      // Another preset replaces the name it suggested, never one typed.
      await form.getByLabel("Start from").selectOption({ label: "Google Gemini" });
      expect(await form.getByLabel("Endpoint URL").inputValue()).toBe(
        "https://generativelanguage.googleapis.com/v1beta/openai/",
      );
      expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Google Gemini gemini-2.5-flash");
      await form.getByLabel("Name", { exact: true }).fill("Our Gemini");
      await form.getByLabel("Start from").selectOption({ label: "Ollama" });
      expect(await form.getByLabel("Endpoint URL").inputValue()).toBe("http://localhost:11434/v1");
      expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Our Gemini");
      // Azure: the resource's URL is the user's to type; the field shows its form.
      await form.getByLabel("Start from").selectOption({ label: "Azure OpenAI" });
      expect(await form.getByLabel("Endpoint URL").inputValue()).toBe("");
      expect(await form.getByLabel("Endpoint URL").getAttribute("placeholder")).toContain(
        ".openai.azure.com/openai/v1/",
      );
      // An embedding preset gives the vectors' length; Workers AI needs no endpoint.
      await form.getByLabel("Kind", { exact: true }).selectOption("embedding");
      await form.getByLabel("Start from").selectOption({ label: "OpenAI" });
      expect(await form.getByLabel("Model name at the provider").inputValue()).toBe("text-embedding-3-small");
      expect(await form.getByLabel("Dimensions").inputValue()).toBe("1536");
      await form.getByLabel("Start from").selectOption({ label: "Cloudflare Workers AI" });
      expect(await form.getByLabel("Provider", { exact: true }).inputValue()).toBe("workers_ai");
      expect(await form.getByLabel("Endpoint URL").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // Saved against the in-test upstream: the toast says so, stays out of the focus, and closes.
      await form.getByLabel("Kind", { exact: true }).selectOption("llm");
      await form.getByLabel("Start from").selectOption({ label: "OpenAI" });
      await form.getByLabel("Name", { exact: true }).fill("Preset GPT");
      await form.getByLabel("Endpoint URL").fill(`${upstream.url}/v1`);
      await form.getByLabel("API key of the provider").fill(UPSTREAM_API_KEY);
      await form.getByRole("button", { name: "Add" }).click();
      await form.waitFor({ state: "detached" });
      const toast = page.getByRole("region", { name: "Notifications" }).locator(".toast", { hasText: "Preset GPT" });
      await toast.waitFor();
      expect(await page.evaluate(() => !!document.activeElement?.closest(".toasts"))).toBe(false);
      await toast.hover(); // kept while the pointer is on it: axe takes seconds on a busy machine, the toast 6
      expect(await axeViolations(page)).toEqual([]);
      await toast.getByRole("button", { name: "Dismiss notification" }).click();
      await toast.waitFor({ state: "detached" });
      const models = await app.server.api("/large-language-models/", { method: "GET" });
      expect(models.results.find((m) => m.name === "Preset GPT")).toMatchObject({
        modelName: "gpt-4o-mini",
        baseUrl: `${upstream.url}/v1`,
      });
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("lists a model that cannot answer here with its reason beside it", async () => {
    // Locally there is no AI binding: the built-in Workers AI models are unavailable, and say why.
    const { context, page, errors } = await ownerOnPage();
    const row = page.getByRole("row", { name: /Workers AI Llama 3\.1 8B/ });
    await row.waitFor();
    expect(await row.locator(".model-unavailable").textContent()).toMatch(
      /^Unavailable: Workers AI is not available here: the AI binding/,
    );
    // The ones that can answer say nothing of the kind.
    expect(
      await page
        .getByRole("row", { name: /Local LLM/ })
        .locator(".model-unavailable")
        .count(),
    ).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a failing model reports why, without its key", async () => {
    const model = await app.server.api("/large-language-models/", {
      body: {
        name: "Broken",
        provider: "openai_compatible",
        modelName: "fail-500",
        baseUrl: `${upstream.url}/v1`,
        apiKey: UPSTREAM_API_KEY,
      },
    });
    const { context, page } = await ownerOnPage();
    await page.getByRole("button", { name: "Test connection of Broken" }).click();
    const row = page.getByRole("row", { name: /Broken/ });
    await row.getByText(/^Failed: /).waitFor();
    expect(await row.textContent()).not.toContain(UPSTREAM_API_KEY);
    await app.server.api(`/large-language-models/${model.id}/`, { method: "DELETE" });
    await context.close();
  });

  it("creates an API key shown once with a copy button, which works until it is revoked", async () => {
    const { context, page } = await ownerOnPage();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Create API key" }).click();
    await dialog(page).getByLabel("Name", { exact: true }).fill("CRM sync");
    await dialog(page).getByRole("button", { name: "Create" }).click();
    const secretField = dialog(page).getByLabel("API key");
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^ak_[0-9A-Za-z]{40}$/);
    expect(await dialog(page).textContent()).toContain("it is not shown again");
    await dialog(page).getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog(page).getByRole("button", { name: "Done" }).click();
    await page.getByRole("row", { name: /CRM sync/ }).waitFor();
    // The focus is back on the button that opened the dialog, once the dialog's close event has come (the row may
    // show before it: the list reloads as soon as the key is made).
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Create API key");
    // The secret is nowhere on the page any more.
    expect(await page.content()).not.toContain(secret);
    const withKey = () =>
      fetch(`${app.base}/api/v1/users/current/`, { headers: { Authorization: `Api-Key ${secret}` } }).then(
        (r) => r.status,
      );
    expect(await withKey()).toBe(200);
    await page.getByRole("button", { name: "Revoke CRM sync" }).click();
    await dialog(page).getByRole("button", { name: "Revoke" }).click();
    await page
      .getByRole("row", { name: /CRM sync/ })
      .getByText("Revoked")
      .waitFor();
    await expect.poll(withKey).toBe(401);
    await context.close();
  });

  it("keyboard alone: adds a model and tests it, creates an API key (shown once, copied) and revokes it", async () => {
    const { context, page, errors } = await ownerOnPage();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const press = async (locator, key = "Enter") => {
      await tabTo(page, locator, 120);
      await page.keyboard.press(key);
    };
    await page.getByRole("button", { name: "Add model" }).waitFor();
    await press(page.getByRole("button", { name: "Add model" }));
    await tabTo(page, dialog(page).getByLabel("Name", { exact: true }));
    await page.keyboard.type("Keyboard GPT");
    await tabTo(page, dialog(page).getByLabel("Model name at the provider"));
    await page.keyboard.type("gpt-keys");
    await tabTo(page, dialog(page).getByLabel("Endpoint URL"));
    await page.keyboard.type(`${upstream.url}/v1`);
    await tabTo(page, dialog(page).getByLabel("API key of the provider"));
    await page.keyboard.type(UPSTREAM_API_KEY);
    await press(dialog(page).getByRole("button", { name: "Add" }));
    await dialog(page).waitFor({ state: "detached" });
    const row = page.getByRole("row", { name: /Keyboard GPT/ });
    await row.waitFor();
    await press(page.getByRole("button", { name: "Test connection of Keyboard GPT" }));
    await row.getByText(/^Works · \d+ ms$/).waitFor();
    const models = await app.server.api("/large-language-models/", { method: "GET" });
    expect(models.results.find((m) => m.name === "Keyboard GPT")).toMatchObject({
      provider: "openai_compatible",
      modelName: "gpt-keys",
      baseUrl: `${upstream.url}/v1`,
    });

    await press(page.getByRole("button", { name: "Create API key" }));
    await tabTo(page, dialog(page).getByLabel("Name", { exact: true }));
    await page.keyboard.type("Keyboard key");
    await press(dialog(page).getByRole("button", { name: "Create" }));
    const secretField = dialog(page).getByLabel("API key");
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^ak_[0-9A-Za-z]{40}$/);
    await press(dialog(page).getByRole("button", { name: "Copy" }));
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await press(dialog(page).getByRole("button", { name: "Done" }));
    await dialog(page).waitFor({ state: "detached" });
    await page.getByRole("row", { name: /Keyboard key/ }).waitFor();
    // The focus is back on the button that opened the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Create API key");
    const withKey = () =>
      fetch(`${app.base}/api/v1/users/current/`, { headers: { Authorization: `Api-Key ${secret}` } }).then(
        (r) => r.status,
      );
    expect(await withKey()).toBe(200);

    await press(page.getByRole("button", { name: "Revoke Keyboard key" }));
    await press(dialog(page).getByRole("button", { name: "Revoke" }));
    await page
      .getByRole("row", { name: /Keyboard key/ })
      .getByText("Revoked")
      .waitFor();
    await expect.poll(withKey).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists the console sessions beside the keys, and revokes another browser's", async () => {
    const other = await openPage(app.browser);
    await signInContext(other.context, app.base, { apiKey: app.owner.key });
    const otherCookie = await sessionCookie(other.context);
    const { context, page } = await ownerOnPage();
    const sessions = page.getByRole("region", { name: "Console sessions" });
    await sessions.getByText("This session").waitFor();
    const revoke = sessions.getByRole("button", { name: /^Revoke / }).first();
    const before = await sessions.getByRole("row").count();
    await revoke.click();
    await dialog(page).getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => sessions.getByRole("row").count()).toBe(before - 1);
    // Revoked sessions are gone one at a time, most recently used first: revoke until the other browser's is.
    let status = (
      await fetch(`${app.base}/api/v1/users/current/`, { headers: { Cookie: `console_session=${otherCookie}` } })
    ).status;
    while (status === 200 && (await sessions.getByRole("button", { name: /^Revoke / }).count())) {
      await sessions
        .getByRole("button", { name: /^Revoke / })
        .first()
        .click();
      await dialog(page).getByRole("button", { name: "Revoke" }).click();
      await dialog(page).waitFor({ state: "detached" });
      status = (
        await fetch(`${app.base}/api/v1/users/current/`, { headers: { Cookie: `console_session=${otherCookie}` } })
      ).status;
    }
    expect(status).toBe(401);
    // The other browser finds itself signed out at its next request.
    await other.page.goto(`${app.base}/console/models`);
    await other.page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
    await other.context.close();
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation on the page and its dialogs (%s)",
    async (theme) => {
      await app.server.api("/large-language-models/", {
        body: {
          name: "Tested",
          provider: "openai_compatible",
          modelName: "m",
          baseUrl: `${upstream.url}/v1`,
          apiKey: UPSTREAM_API_KEY,
        },
      });
      const { context, page } = await ownerOnPage({ theme });
      await page.getByRole("button", { name: "Test connection of Tested" }).first().click();
      await page
        .getByText(/^Works · /)
        .first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Add model" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill("Invalid");
      await dialog(page).getByLabel("Model name at the provider").fill("m");
      await dialog(page).getByLabel("Endpoint URL").fill("ftp://models.example.com/v1");
      await dialog(page).getByRole("button", { name: "Add" }).click();
      await dialog(page).locator(".field-error").first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog(page).waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Create API key" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill(`axe ${theme}`);
      await dialog(page).getByRole("button", { name: "Create" }).click();
      await dialog(page).getByRole("button", { name: "Copy" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
  );

  it("at a phone's width, the navigation is behind a menu button", async () => {
    const { context, page } = await ownerOnPage({ viewport: { width: 390, height: 844 } });
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.isVisible()).toBe(false);
    const menu = page.getByRole("button", { name: "Menu" });
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await nav.getByRole("link", { name: "Models and API keys" }).click();
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
