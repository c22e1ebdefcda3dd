// The operator console's shell in Chromium against `wrangler dev`: sign-in with a password and
// from the keyboard alone, sign-out with the mouse and from the keyboard alone (after which the old
// cookie is refused), the organization switcher, a member who lacks a permission (no controls, and
// the API refuses anyway), the browser's language, deep links and reloads, the CSP, axe-core on
// the sign-in page, and the API reference (/api/docs/, Swagger UI served by the worker).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  openPage,
  ownerOn,
  sessionCookie,
  signInWithPassword,
  startConsole,
  DESKTOP,
  PASSWORD,
  PHONE,
  memberInNewGroup,
  signInOwner,
  submitSignIn,
  tabAndPress,
} from "./console-helpers.mjs";

let app;
/** A registered user (with their own organization) who is also a member of the owner's, in a group with chatbot.manage
 * only. */
let member;

beforeAll(async () => {
  app = await startConsole();
  const email = `member-${Date.now()}@example.com`;
  const { organization, registered } = await memberInNewGroup(app, {
    email,
    name: "Mia Member",
    company: "Mia's shop",
    group: "Editors",
    permissions: ["chatbot.manage"],
  });
  member = { email, password: PASSWORD, ownOrganization: registered.organization, organization };
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const raw = (path, cookie, init = {}) =>
  fetch(`${app.base}/api/v1${path}`, { ...init, headers: { Cookie: `console_session=${cookie}`, ...init.headers } });

describe("the console shell in Chromium", () => {
  it(
    "signs in with e-mail and password, shows the start page, and keeps the session over a reload and a deep " + "link",
    async () => {
      const { context, page, errors } = await openPage(app.browser);
      const served = await page.goto(`${app.base}/console/`);
      expect(served.headers()["content-security-policy"]).toContain("script-src 'self'");
      // Its hashed files, served by the asset router, are cached for good.
      const script = await fetch(app.base + (await page.locator("script[type=module]").getAttribute("src")));
      expect(script.headers.get("cache-control")).toContain("immutable");
      await signInWithPassword(page, app.base, { email: app.owner.email, password: PASSWORD });
      // The start page is the first page of the menu (the registry's order).
      const start = page.getByRole("navigation", { name: "Main" }).getByRole("link").first();
      const startTitle = await start.textContent();
      await expect.poll(() => page.url()).toBe(app.base + (await start.getAttribute("href")));
      expect(await page.locator("main h1").textContent()).toBe(startTitle);
      expect(await page.title()).toBe(`${startTitle} · Console`);
      // The cookie is HttpOnly: no script of the page can read it.
      expect(await page.evaluate(() => document.cookie)).not.toContain("console_session");
      const cookie = (await context.cookies()).find((c) => c.name === "console_session");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api" });
      // Nothing of the session is kept in storage: no API key, no session id.
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
      expect(stored).not.toMatch(/ak_|cs_/);
      await page.reload();
      await page.locator("main h1", { hasText: startTitle }).waitFor();
      const deep = await context.newPage();
      await deep.goto(`${app.base}/console/models`);
      await deep.locator("main h1", { hasText: "Models and API keys" }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "answers a page's address with a shell naming that page's chunk: a first visit asks for no script the HTML " +
      "did not name",
    async () => {
      const html = async (path) => {
        const res = await fetch(app.base + path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-security-policy"), path).toContain("script-src 'self'");
        return res.text();
      };
      const named = (text) =>
        [...text.matchAll(/<(?:link rel="modulepreload" href|script type="module" src)="([^"]+)"/g)]
          .map((m) => m[1])
          .sort();
      const start = named(await html("/console/"));
      const models = named(await html("/console/models"));
      // Each names the shell's files and its page's chunk(s): /console/ the start page's.
      expect(models).not.toEqual(start);
      // A deep link below the start page, and a path of no page, name what /console/ names.
      expect(named(await html("/console/assistants/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d"))).toEqual(start);
      expect(named(await html("/console/no-such-page"))).toEqual(start);
      const { context, page } = await ownerOn(app, "/models");
      await page.getByRole("button", { name: "Add model" }).waitFor();
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((e) => new URL(e.name).pathname)
          .filter((p) => p.endsWith(".js")),
      );
      expect(scripts.sort()).toEqual(models);
      await context.close();
    },
  );

  it("signs out: back to the sign-in form, and the old cookie no longer works", async () => {
    const { context, page } = await openPage(app.browser);
    await signInWithPassword(page, app.base, { email: app.owner.email, password: PASSWORD });
    const cookie = await sessionCookie(context);
    expect((await raw("/users/current/", cookie)).status).toBe(200);
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
    expect(await sessionCookie(context)).toBeUndefined();
    const after = await raw("/users/current/", cookie);
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe("not_authenticated");
    await context.close();
  });

  it.each([
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ])(
    "signs out from the keyboard alone (%s): the banner's Sign out button, and the old cookie no longer works",
    async (_, viewport) => {
      const { context, page } = await openPage(app.browser, { viewport });
      await signInWithPassword(page, app.base, { email: app.owner.email, password: PASSWORD });
      const cookie = await sessionCookie(context);
      const signOut = page.getByRole("button", { name: "Sign out" });
      await tabAndPress(page, signOut, "Enter");
      await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
      // The focus is in the form again, ready for the next sign-in.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
      expect(await sessionCookie(context)).toBeUndefined();
      expect((await raw("/users/current/", cookie)).status).toBe(401);
      await context.close();
    },
  );

  it("signs in from the keyboard alone and puts the focus on the page's heading", async () => {
    const { context, page } = await openPage(app.browser);
    await page.goto(`${app.base}/console/`);
    await page.getByLabel("E-mail").waitFor();
    // The form opens with the focus in its first field.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
    await page.keyboard.type(app.owner.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.locator(".shell main h1").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    // On a fresh load, Tab first reaches the skip link, which moves the focus to the page.
    // Once the page has arrived: its arrival puts the focus on its heading, which would undo the skip link's move.
    await page.reload({ waitUntil: "networkidle" });
    await page.locator(".shell main h1").waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    // Following the in-page link is the browser's own navigation, a task later: the focus gets there then.
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
    await context.close();
  });

  it("on a phone, Escape closes the menu and gives the focus back to its button", async () => {
    const { context, page } = await ownerOn(app, "/assistants", { viewport: PHONE });
    const menu = page.getByRole("button", { name: "Menu" });
    await menu.click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect.poll(() => nav.isVisible()).toBe(true);
    await nav.getByRole("link").first().focus();
    await page.keyboard.press("Escape");
    await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it("signs in with an API key, and refuses wrong credentials with a message", async () => {
    const { context, page } = await openPage(app.browser);
    await submitSignIn(page, app.base, { email: app.owner.email, password: "not the password" });
    await page.getByRole("alert").filter({ hasText: "were not accepted" }).waitFor();
    await page.getByRole("button", { name: "Use an API key" }).click();
    await page.getByLabel("API key").fill(app.owner.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator(".shell main h1").waitFor();
    // Signing in with a key created no key.
    const keys = await app.server.api("/api-keys/", { method: "GET" });
    expect(keys.results.map((k) => k.name)).not.toContain("Login");
    await context.close();
  });

  it("a member without the permission sees no controls for it, and the API refuses the request anyway", async () => {
    const { context, page } = await openPage(app.browser);
    await signInWithPassword(page, app.base, member, "/console/models");
    // Their own organization first (they own it): there they may add models.
    await page.getByRole("button", { name: "Add model" }).waitFor();
    await page.getByLabel("Organization").selectOption(member.organization.id);
    await page.getByText("Only owners of the organization can add, change or test models.").waitFor();
    expect(await page.getByRole("button", { name: "Add model" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Test connection/ }).count()).toBe(0);
    const requests = [];
    // Every request of the page but the session check (which comes before any organization is known).
    page.on(
      "request",
      (r) =>
        r.url().includes("/api/v1/") &&
        !r.url().includes("/auth/sessions/current/") &&
        requests.push({ method: r.method(), url: r.url(), organization: r.headers()["x-organization-id"] }),
    );
    await page.reload();
    await page.getByText("Only owners of the organization").waitFor();
    // The page's own list request may leave after the notice shows: wait for it, not for the text
    // alone (and not for a response, which may be that of the list asked before the reload).
    await expect
      .poll(() => requests.some((r) => r.method === "GET" && r.url.includes("/api/v1/large-language-models/")))
      .toBe(true);
    expect(new Set(requests.map((r) => r.organization))).toEqual(new Set([member.organization.id]));
    const refused = await raw("/large-language-models/", await sessionCookie(context), {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.base, "X-Organization-Id": member.organization.id },
      body: JSON.stringify({ name: "Sneaky", provider: "local", modelName: "x" }),
    });
    expect(refused.status).toBe(403);
    // And a write with the cookie from another site's page is refused whatever the permission.
    const crossSite = await raw("/api-keys/", await sessionCookie(context), {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(crossSite.status).toBe(403);
    await context.close();
  });

  it("speaks the browser's language (zh-TW) and switches to English, remembered", async () => {
    const context = await app.browser.newContext({ locale: "zh-TW" });
    const page = await context.newPage();
    await page.goto(`${app.base}/console/`);
    await page.getByRole("heading", { name: "登入管理控制台" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-TW");
    // The tab's title too, and it follows a switch.
    expect(await page.title()).toBe("登入管理控制台 · 管理控制台");
    await page.getByLabel("Language · 語言").selectOption("en");
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
    await expect.poll(() => page.title()).toBe("Sign in to the console · Console");
    await page.reload();
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
    await context.close();
  });

  it("switches between light and dark, remembered; the system's choice is the default", async () => {
    const context = await app.browser.newContext({ colorScheme: "dark" });
    await signInOwner(app, context);
    const page = await context.newPage();
    await page.goto(`${app.base}/console/models`);
    await page.locator("main h1").waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(19, 19, 24)");
    await page.getByLabel("Theme").selectOption("light");
    expect(await background()).toBe("rgb(247, 247, 248)");
    await page.reload();
    await page.locator("main h1").waitFor();
    expect(await background()).toBe("rgb(247, 247, 248)");
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation on the sign-in page (%s)",
    async (theme) => {
      const { context, page } = await openPage(app.browser, { theme });
      await page.goto(`${app.base}/console/`);
      await page.getByLabel("E-mail").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Use an API key" }).click();
      await page.getByRole("button", { name: "Sign in" }).click();
      expect(await axeViolations(page)).toEqual([]);
      // The check itself works: an unlabelled field is reported.
      await page.evaluate(() => document.querySelector("form").append(document.createElement("input")));
      expect((await axeViolations(page)).join("\n")).toMatch(/^label \(critical\)/m);
      await context.close();
    },
  );

  it("shows the API reference at /api/docs/ from this origin alone: operations by tag, and Try it out with an " +
    "API key", async () => {
    const { context, page, errors } = await openPage(app.browser);
    const elsewhere = [];
    await context.route(
      (url) => url.origin !== app.base,
      (route) => {
        elsewhere.push(route.request().url());
        return route.abort();
      },
    );
    await page.goto(`${app.base}/api/docs/`);
    const filter = page.getByPlaceholder("Filter by tag");
    // Swagger UI shows the box once it has read the whole document: seconds at rest, over 30 s on a
    // machine at load 15 (measured), so this wait is the long one.
    await filter.waitFor({ timeout: 120_000 });
    await filter.fill("Conversations");
    await page
      .locator(".opblock", { hasText: "Talk to an assistant: the reply directly, or streamed" })
      .first()
      .waitFor();
    // Authorize with the key, then list the assistants from the page.
    await page.getByRole("button", { name: "Authorize" }).first().click();
    await page.locator("form", { hasText: "ApiKey (apiKey)" }).locator("input").fill(`Api-Key ${app.server.key}`);
    await page
      .locator("form", { hasText: "ApiKey (apiKey)" })
      .getByRole("button", { name: "Apply credentials" })
      .click();
    await page.getByRole("button", { name: "Close" }).first().click();
    await filter.fill("Assistants");
    const list = page
      .locator(".opblock-get")
      .filter({ has: page.locator(".opblock-summary-path", { hasText: /^\/api\/v1\/chatbots\/$/ }) });
    await list.locator(".opblock-summary-control").click();
    await list.getByRole("button", { name: "Try it out" }).click();
    await list.getByRole("button", { name: "Execute" }).click();
    await expect
      .poll(() => list.locator(".live-responses-table tbody .response-col_status").first().textContent(), {
        timeout: 10_000,
      })
      .toContain("200");
    expect(await list.locator(".live-responses-table .microlight").first().textContent()).toContain('"results"');
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
