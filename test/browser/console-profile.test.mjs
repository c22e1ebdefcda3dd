// The console's profile page and the way in, in Chromium against `wrangler dev`: reached from the
// banner's name; the name changed (a toast says so, can be closed, and never takes the focus; the
// banner follows); the password changed (a wrong current one refused at its field and at the top of
// the form; the sessions it ended leave the list); an API key created and revoked and the sessions listed
// there (the only one of the last page revoked: the page before shows); a new account made from
// the sign-in page's link and signed in; the sign-in page's error cleared when the way of signing in
// changes; a sign-up refused (the e-mail taken) putting the focus on its alert; axe-core in both themes; the
// screenshots of docs/console/ (profile, sign-up).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  dialog,
  openPage,
  ownerOn,
  screenshots,
  startConsole,
  PASSWORD,
  ownerScreenshots,
  register,
  submitSignIn,
} from "./console-helpers.mjs";

let app;

beforeAll(async () => {
  app = await startConsole();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const NEW_PASSWORD = "a new password 5678";

/** One more console session of the owner's, signed in with their API key outside the browser. */
async function signInWithKey() {
  const res = await fetch(`${app.base}/api/v1/auth/sessions/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiKey: app.owner.key }),
  });
  expect(res.status).toBe(201);
}

describe("the profile page and sign-up in Chromium", () => {
  it("takes the screenshots of docs/console/", async () => {
    await app.server.api("/api-keys/", { body: { name: "Helpdesk integration" } });
    await ownerScreenshots(app, "/console/profile", "profile", {
      act: (page) =>
        page
          .getByRole("region", { name: /Console sessions|登入階段/ })
          .locator("tbody tr")
          .first()
          .waitFor(),
    });
    await screenshots(app.browser, app.base, "/console/sign-up", "sign-up");
  });

  it(
    "is reached from the banner's name; a changed name shows a toast that can be closed, keeps the focus, and " +
      "the banner follows",
    async () => {
      const { context, page, errors } = await ownerOn(app, "/models");
      await page.getByRole("link", { name: /^Signed in as .*: your profile$/ }).click();
      await page.locator("main h1", { hasText: "Your profile" }).waitFor();
      expect(page.url()).toBe(`${app.base}/console/profile`);
      const details = page.getByRole("region", { name: "Your details" });
      expect(await details.getByLabel("E-mail").inputValue()).toBe(app.owner.email);
      await details.getByLabel("Name").fill("Ada Admin");
      const save = details.getByRole("button", { name: "Save" });
      await save.click();
      const toasts = page.getByRole("region", { name: "Notifications" });
      const toast = toasts.locator(".toast", { hasText: "Your details are saved." });
      await toast.waitFor();
      // The pointer on it keeps it (a success goes after 6 s, sooner than the checks below end on a busy machine).
      await toast.hover();
      // Heard once, through the polite live region; the toast never takes the focus.
      await expect
        .poll(() => page.locator("[role=status][aria-live=polite]").textContent())
        .toBe("Your details are saved.");
      expect(await page.evaluate(() => !!document.activeElement?.closest(".toasts"))).toBe(false);
      await page.getByRole("link", { name: "Signed in as Ada Admin: your profile" }).waitFor();
      expect((await app.server.api("/users/current/", { method: "GET" })).name).toBe("Ada Admin");
      expect(await axeViolations(page)).toEqual([]);
      await toast.getByRole("button", { name: "Dismiss notification" }).click();
      await toasts.waitFor({ state: "detached" });

      // A bad e-mail: at its field, and at the top of the form; nothing saved.
      await details.getByLabel("E-mail").fill("not-an-address@");
      await details.getByLabel("E-mail").evaluate((input) => (input.type = "text"));
      await save.click();
      await expect.poll(() => details.getByLabel("E-mail").getAttribute("aria-invalid")).toBe("true");
      await details.getByRole("alert").waitFor();
      expect((await app.server.api("/users/current/", { method: "GET" })).email).toBe(app.owner.email);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("lists the user's API keys (created, revoked with a toast) and console sessions", async () => {
    const { context, page } = await ownerOn(app, "/profile");
    await page.getByRole("region", { name: "Console sessions" }).getByText("This session").waitFor();
    await page.getByRole("button", { name: "Create API key" }).click();
    await dialog(page).getByLabel("Name", { exact: true }).fill("Profile key");
    await dialog(page).getByRole("button", { name: "Create" }).click();
    await dialog(page).getByLabel("API key").waitFor();
    await dialog(page).getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Revoke Profile key" }).click();
    await dialog(page).getByRole("button", { name: "Revoke" }).click();
    await page.locator(".toast", { hasText: "Profile key" }).waitFor();
    await page
      .getByRole("row", { name: /Profile key/ })
      .getByText("Revoked")
      .waitFor();
    await context.close();
  });

  it("changes the password: a wrong current one is refused at its field and the top; the new one works", async () => {
    await signInWithKey();
    const { context, page, errors } = await ownerOn(app, "/profile");
    const sessions = page.getByRole("region", { name: "Console sessions" }).locator("tbody tr");
    await expect.poll(() => sessions.count()).toBeGreaterThan(1);
    const form = page.getByRole("region", { name: "Password" });
    await form.getByLabel("Current password").fill("not the password");
    await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel("New password again").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => form.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByRole("alert").textContent()).toContain("Your old password was entered incorrectly.");
    expect(await axeViolations(page)).toEqual([]);
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.locator(".toast", { hasText: "Your password is changed." }).waitFor();
    // The form is emptied: no password stays on the page.
    expect(await form.getByLabel("New password", { exact: true }).inputValue()).toBe("");
    // The other sessions, which the change ended, leave the list.
    await expect.poll(() => sessions.count()).toBe(1);
    const signIn = (password) =>
      fetch(`${app.base}/api/v1/auth/sessions/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: app.base },
        body: JSON.stringify({ email: app.owner.email, password }),
      }).then((r) => r.status);
    expect(await signIn(NEW_PASSWORD)).toBe(201);
    expect(await signIn(PASSWORD)).not.toBe(201);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("revoking the only session of the last page shows the page before, without an error", async () => {
    // The owner's sessions (20 a page) made up to 21 with the browser's own: page 2 holds one, the least recently used.
    const live = (await app.server.api("/auth/sessions/?pageSize=1", { method: "GET" })).count;
    for (let i = live; i < 20; i++) await signInWithKey();
    const { page, context, errors } = await ownerOn(app, "/profile");
    const sessions = page.getByRole("region", { name: "Console sessions" });
    const rows = sessions.locator("tbody tr");
    await rows.first().waitFor();
    await sessions.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => sessions.locator(".pager span").textContent()).toBe("Page 2 of 2");
    await expect.poll(() => rows.count()).toBe(1);
    await sessions.getByRole("button", { name: /^Revoke/ }).click();
    await dialog(page).getByRole("button", { name: "Revoke" }).click();
    await page.locator(".toast", { hasText: "Session revoked." }).waitFor();
    // The 20 left, all on page 1 (so no pager).
    await expect.poll(() => rows.count()).toBe(20);
    expect(await sessions.locator(".pager").count()).toBe(0);
    expect(await sessions.locator(".alert.error").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("clears the sign-in error when the way of signing in changes", async () => {
    const { context, page } = await openPage(app.browser);
    await submitSignIn(page, app.base, { email: app.owner.email, password: "wrong password" });
    await page.getByRole("alert").filter({ hasText: "were not accepted" }).waitFor();
    await page.getByRole("button", { name: "Use an API key" }).click();
    expect(await page.locator(".sign-in").getByRole("alert").count()).toBe(0);
    // The hint says where a newcomer finds the first sign-in.
    expect(await page.locator(".sign-in").textContent()).toContain(
      "npm run dev prints the administrator's sign-in details",
    );
    await context.close();
  });

  it(
    "creates an account from the sign-in page's link and signs it in; mismatched passwords are refused at their " +
      "field",
    async () => {
      const { context, page, errors } = await openPage(app.browser);
      await page.goto(`${app.base}/console/`);
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByRole("heading", { name: "Create an account" }).waitFor();
      expect(page.url()).toBe(`${app.base}/console/sign-up`);
      const email = `newcomer-${Date.now()}@example.com`;
      await page.getByLabel("Your name").fill("Nia Newcomer");
      await page.getByLabel("Organization name").fill("Nia's bakery");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("bakery password 1");
      await page.getByLabel("Password again").fill("bakery password 2");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect.poll(() => page.getByLabel("Password again").getAttribute("aria-invalid")).toBe("true");
      await page.locator(".form-error").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel("Password again").fill("bakery password 1");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.locator(".shell main h1").waitFor();
      await page.getByRole("link", { name: "Signed in as Nia Newcomer: your profile" }).waitFor();
      expect(await page.locator(".organization-name").textContent()).toBe("Nia's bakery");
      expect(new URL(page.url()).pathname).not.toBe("/console/sign-up");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("a sign-up refused (the e-mail is taken) puts the focus on the refusal, not the page", async () => {
    const email = `taken-${Date.now()}@example.com`;
    await register(app, { email, name: "Tess Taken", company: "Tess's tea" });
    const { context, page, errors } = await openPage(app.browser);
    await page.goto(`${app.base}/console/sign-up`);
    await page.getByLabel("Your name").fill("Tess Again");
    await page.getByLabel("Organization name").fill("Tess's other tea");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("tea password 1");
    await page.getByLabel("Password again").fill("tea password 1");
    // Clicked: the button has the focus, then is busy (disabled) while the API answers, which drops the focus.
    await page.getByRole("button", { name: "Create account" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "already registered" });
    await alert.waitFor();
    // No field is to blame (the API names none): the alert, which a screen reader reads from there.
    await expect.poll(() => alert.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation on the profile page and the sign-up page (%s)",
    async (theme) => {
      const { context, page } = await ownerOn(app, "/profile", { theme });
      await page.getByRole("region", { name: "Console sessions" }).getByText("This session").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
      const signedOut = await openPage(app.browser, { theme });
      await signedOut.page.goto(`${app.base}/console/sign-up`);
      await signedOut.page.getByRole("heading", { name: "Create an account" }).waitFor();
      expect(await axeViolations(signedOut.page)).toEqual([]);
      await signedOut.context.close();
    },
  );
});
