// The console's "Members and groups" and "Organization" pages in Chromium against `wrangler dev`:
// a registered user added as a member (a bad e-mail shows at its field), a group created with
// permissions ticked in the matrix (from the keyboard), the member put in it with an assistant and a
// knowledge base, and the member's own console and API access follow; the organization's settings
// saved and a logo uploaded through the API; a member who may see members but not groups gets no groups' list. axe
// in both themes, screenshots of docs/console/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  holdAnswers,
  openPage,
  screenshots,
  signInContext,
  startConsole,
  dialog,
  LOCAL_LLM,
  register,
  signInOwner,
  LOCAL_KB_MODELS,
  memberInNewGroup,
} from "./console-helpers.mjs";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
let app, organizationId, grace;

beforeAll(async () => {
  app = await startConsole();
  organizationId = (await app.server.api("/organizations/", { method: "GET" })).results[0].id;
  const registered = await register(app, {
    email: "grace@example.com",
    password: "grace password 1234",
    name: "Grace Hopper",
    company: "Grace's own",
  });
  grace = { key: registered.apiKey };
  const bot = await app.server.api("/chatbots/", { body: { name: "Ava", largeLanguageModel: LOCAL_LLM } });
  await app.server.api("/inboxes/", { body: { name: "Website", channelType: "web", chatbot: { id: bot.id } } });
  await app.server.api("/knowledge-bases/", {
    body: { name: "Help centre", ...LOCAL_KB_MODELS },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

async function signedIn(key, path, options) {
  const opened = await openPage(app.browser, options);
  await signInContext(opened.context, app.base, { apiKey: key });
  // The organization the console acts in: the owner's (Grace's own comes first otherwise).
  await opened.context.addInitScript((id) => localStorage.setItem("console.organization", id), organizationId);
  await opened.page.goto(app.base + path);
  await opened.page.locator(".shell main h1").waitFor();
  return opened;
}

/** What Grace's key may do in the owner's organization. */
const asGrace = (path) =>
  fetch(`${app.base}/api/v1${path}`, {
    headers: { Authorization: `Api-Key ${grace.key}`, "X-Organization-Id": organizationId },
  });

/** Presses Tab until the focused element is `label` (its aria-label or text): keyboard only. */
async function tabTo(page, label, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(
      () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim(),
    );
    if (focused === label) return;
  }
  throw new Error(`Tab never reached ${label}`);
}

describe("Members, groups and the organization in Chromium", () => {
  it("adds a member; a group with permissions, an assistant and a knowledge base changes what they do", async () => {
    const { context, page, errors } = await signedIn(app.owner.key, "/console/members");
    await page.getByRole("button", { name: "Add member" }).click();
    await dialog(page).getByLabel("E-mail").fill("nobody@example.com");
    await dialog(page).getByRole("button", { name: "Add" }).click();
    await expect.poll(() => dialog(page).getByLabel("E-mail").getAttribute("aria-invalid")).toBe("true");
    expect(await dialog(page).locator(".field-error").textContent()).toContain("No registered user");
    await dialog(page).getByLabel("E-mail").fill("grace@example.com");
    await dialog(page).getByRole("button", { name: "Add" }).click();
    const row = page.getByRole("row", { name: /Grace Hopper/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("No group");

    // A member without groups: no web chat page, and the API refuses.
    const member = await signedIn(grace.key, "/console/web-chats");
    expect(await member.page.locator("main h1").textContent()).toBe("Not available");
    expect(
      await member.page.getByRole("navigation", { name: /main/i }).getByRole("link", { name: "Web chat" }).count(),
    ).toBe(0);
    expect((await asGrace("/web-chats/")).status).toBe(403);

    // The group, its permissions ticked from the keyboard.
    await page.getByRole("button", { name: "New group" }).click();
    await dialog(page).getByLabel("Group name").fill("Support agents");
    // Every resource of the catalogue is named, in its row and in its checkboxes' names (read once the matrix shows:
    // `allTextContents` does not wait).
    await dialog(page).getByRole("rowheader", { name: "Labels" }).waitFor();
    const rows = await dialog(page).locator(".matrix tbody th").allTextContents();
    expect(rows).toContain("Labels");
    expect(rows).toContain("Canned responses");
    expect(rows.filter((name) => !name.trim())).toEqual([]);
    await dialog(page).getByRole("checkbox", { name: "Canned responses: Manage" }).waitFor();
    for (const permission of ["Assistants: View", "Knowledge bases: View", "Inboxes and web chats: View"]) {
      await tabTo(page, permission);
      await page.keyboard.press("Space");
    }
    await dialog(page).getByRole("button", { name: "Create group" }).click();
    await page.locator("main h1", { hasText: "Group: Support agents" }).waitFor();
    // A slow network: the group read again after a member is added, and the save of a knowledge base's groups, are
    // answered late. The knowledge base ticked meanwhile stays ticked when the group's answer redraws the page.
    const answers = await holdAnswers(page);
    const groupRead = (request) =>
      request.method() === "GET" && /\/groups\/[^/]+\/$/.test(new URL(request.url()).pathname);
    const kbSave = (request) =>
      request.method() === "PATCH" && new URL(request.url()).pathname.includes("/knowledge-bases/");
    answers.hold((request) => groupRead(request) || kbSave(request));
    await page.getByLabel("Add a member to the group").selectOption({ label: "Grace Hopper" });
    await page.getByRole("button", { name: "Add", exact: true }).first().click();
    await page.getByRole("button", { name: "Remove Grace Hopper" }).waitFor();
    await expect.poll(() => answers.held()).toBe(1);
    await page.getByLabel("Help centre").check();
    await expect.poll(() => answers.held()).toBe(2);
    answers.release(groupRead);
    await expect.poll(() => answers.held()).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.getByLabel("Help centre").isChecked()).toBe(true);
    answers.release();
    await page.getByLabel("Give an assistant to the group").selectOption({ label: "Ava" });
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("button", { name: "Remove Ava" }).waitFor();
    await expect
      .poll(async () =>
        (await app.server.api("/knowledge-bases/", { method: "GET" })).results[0].groups.map((g) => g.name),
      )
      .toEqual(["Support agents"]);

    // Grace now sees the web chat page, the assistant and the knowledge base.
    await member.page.reload();
    await member.page.locator("main h1", { hasText: "Web chat" }).waitFor();
    expect(
      await member.page.getByRole("navigation", { name: /main/i }).getByRole("link", { name: "Web chat" }).count(),
    ).toBe(1);
    await member.page.getByRole("link", { name: "Design Website" }).waitFor();
    expect((await asGrace("/web-chats/")).status).toBe(200);
    expect((await (await asGrace("/chatbots/")).json()).results.map((c) => c.name)).toEqual(["Ava"]);
    expect((await (await asGrace("/knowledge-bases/")).json()).results.map((k) => k.name)).toEqual(["Help centre"]);

    // Out of the group: the access goes again.
    await page.getByRole("button", { name: "Remove Grace Hopper" }).click();
    await page.getByText("Nobody is in this group yet.").waitFor();
    expect((await asGrace("/web-chats/")).status).toBe(403);
    expect(errors).toEqual([]);
    await member.context.close();
    await context.close();
  });

  it("changes a member's groups from the member list and removes the member", async () => {
    const { context, page } = await signedIn(app.owner.key, "/console/members");
    // The groups' table says their permissions as the matrix names them, not as codenames.
    const group = page.getByRole("row", { name: /Support agents/ });
    await group.waitFor();
    for (const permission of ["Assistants: View", "Knowledge bases: View", "Inboxes and web chats: View"])
      expect(await group.textContent()).toContain(permission);
    expect(await group.textContent()).not.toContain("chatbot.view");
    await page.getByRole("button", { name: "Change the groups of Grace Hopper" }).click();
    await dialog(page).getByLabel("Support agents").check();
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByRole("row", { name: /Grace Hopper/ }).textContent()).toContain("Support agents");
    expect((await asGrace("/web-chats/")).status).toBe(200);
    await page.getByRole("button", { name: "Remove Grace Hopper" }).click();
    await dialog(page).getByRole("button", { name: "Remove" }).click();
    await page.getByRole("row", { name: /Grace Hopper/ }).waitFor({ state: "detached" });
    expect((await asGrace("/web-chats/")).status).toBe(404);
    await context.close();
  });

  it("saves the organization's settings (bad input at its field) and uploads a logo through the API", async () => {
    const { context, page, errors } = await signedIn(app.owner.key, "/console/organization");
    await page.getByLabel("Tax id").fill("123");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByLabel("Tax id").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Tax id").fill("12345678");
    await page.getByLabel("Name", { exact: true }).fill("Acme Support");
    await page.getByLabel("Brand colour").fill("#C2410C");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect
      .poll(async () => (await app.server.api(`/organizations/${organizationId}/`, { method: "GET" })).name)
      .toBe("Acme Support");
    const saved = await app.server.api(`/organizations/${organizationId}/`, { method: "GET" });
    expect([saved.taxId, saved.themePrimaryColor]).toEqual(["12345678", "#C2410C"]);

    // What the organization's files store: the logo's bytes while it is shown.
    const stored = page.locator("dt", { hasText: "Stored files" }).locator("xpath=following-sibling::dd[1]");
    const before = await stored.textContent();
    expect(before).toMatch(/^[\d.,]+ (bytes|kB|MB|GB)$/);
    await page
      .getByLabel("Upload Compact logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    const logo = page.getByRole("img", { name: "Current Compact logo" });
    await logo.waitFor();
    const used = (await app.server.api(`/organizations/${organizationId}/`, { method: "GET" })).usageStatistics;
    expect(await stored.textContent()).not.toBe(before);
    if (used.usedUploadFileSizeTotal < 1000)
      expect(await stored.textContent()).toBe(`${used.usedUploadFileSizeTotal} bytes`);
    const src = await logo.getAttribute("src");
    expect(src).toContain("/api/v1/files/public/organizations/");
    const served = await fetch(src);
    expect([served.status, served.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    await page.getByRole("button", { name: "Remove Compact logo" }).click();
    await logo.waitFor({ state: "detached" });
    expect((await app.server.api(`/organizations/${organizationId}/`, { method: "GET" })).compactLogo).toBe(null);
    expect(await stored.textContent()).toBe(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("has no serious or critical axe violations, light and dark", async () => {
    const group = (await app.server.api(`/organizations/${organizationId}/groups/`, { method: "GET" })).results[0];
    for (const theme of ["light", "dark"]) {
      for (const path of ["/console/members", `/console/members/groups/${group.id}`, "/console/organization"]) {
        const { context, page } = await signedIn(app.owner.key, path, { theme });
        await page.waitForLoadState("networkidle");
        expect(await axeViolations(page), `${path} ${theme}`).toEqual([]);
        if (path === "/console/members") {
          await page.getByRole("button", { name: "New group" }).click();
          await dialog(page).getByRole("table").waitFor();
          expect(await axeViolations(page), `new group ${theme}`).toEqual([]);
        }
        await context.close();
      }
    }
  });

  it("takes the screenshots of docs/console/", async () => {
    const group = (await app.server.api(`/organizations/${organizationId}/groups/`, { method: "GET" })).results[0];
    // Grace back in the organization and the group, for the pictures.
    const member = await app.server.api(`/organizations/${organizationId}/members/`, {
      body: { email: "grace@example.com" },
    });
    await app.server.api(`/organizations/${organizationId}/members/${member.id}/update-groups/`, {
      body: { groups: [group.id] },
    });
    const signIn = async (context) => {
      await signInOwner(app, context);
      await context.addInitScript((id) => localStorage.setItem("console.organization", id), organizationId);
    };
    await screenshots(app.browser, app.base, "/console/members", "members", { signIn });
    await screenshots(app.browser, app.base, `/console/members/groups/${group.id}`, "group", { signIn });
    await screenshots(app.browser, app.base, "/console/organization", "organization", { signIn });
    // A size in zh-TW is said in its own word: Chromium's zh-TW wrote the uploads' "0 byte".
    const { context, page } = await openPage(app.browser, { locale: "zh-TW" });
    await signIn(context);
    await page.goto(`${app.base}/console/organization`);
    await page
      .getByText(/^\d+ 位元組/)
      .first()
      .waitFor();
    await context.close();
  });

  // Last: its groups would be in the other tests' pictures.
  it("pages the groups list: the 101st group is reached through its pager", async () => {
    const names = Array.from({ length: 101 }, (_, i) => `Paged group ${String(i + 1).padStart(3, "0")}`);
    const created = [];
    for (let i = 0; i < names.length; i += 10)
      created.push(
        ...(await Promise.all(
          names
            .slice(i, i + 10)
            .map((name) =>
              app.server.api(`/organizations/${organizationId}/groups/`, { body: { name, permissions: [] } }),
            ),
        )),
      );
    const { context, page, errors } = await signedIn(app.owner.key, "/console/members");
    const section = page.getByRole("region", { name: "Groups", exact: true });
    await section.getByRole("row", { name: /Paged group 001/ }).waitFor();
    const pager = section.getByRole("navigation", { name: "Pagination" });
    // Ordered by name: the last is on the last page, whatever other tests left before it.
    const last = section.getByRole("row", { name: /Paged group 101/ });
    const firstRow = section.locator("tbody tr").first();
    for (let i = 0; i < 10 && !(await last.count()) && (await pager.count()); i++) {
      const shown = await firstRow.textContent();
      await pager.getByRole("button", { name: "Next" }).click();
      await expect.poll(() => pager.textContent()).toMatch(new RegExp(`Page ${i + 2} of`));
      // The page's rows come after its number: the rows shown before stay until the next page's arrive.
      await expect.poll(() => firstRow.textContent()).not.toBe(shown);
    }
    await last.waitFor({ timeout: 5_000 });
    expect(await pager.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await pager.getByRole("button", { name: "Previous" }).click();
    await section.getByRole("row", { name: /Paged group 081/ }).waitFor();
    expect(await section.locator("tbody tr").count()).toBe(20);
    expect(errors).toEqual([]);
    await context.close();
    await Promise.all(
      created.map((g) => app.server.api(`/organizations/${organizationId}/groups/${g.id}/`, { method: "DELETE" })),
    );
  });

  it("deletes a group from its row once the dialog is confirmed; the list and the API no longer have it", async () => {
    const name = "Group to delete";
    const group = await app.server.api(`/organizations/${organizationId}/groups/`, { body: { name, permissions: [] } });
    const { context, page, errors } = await signedIn(app.owner.key, "/console/members");
    const section = page.getByRole("region", { name: "Groups", exact: true });
    await section.getByRole("button", { name: `Delete ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this group?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    // The toast (a screen reader hears it from the page's status region too).
    await page.getByRole("region", { name: "Notifications" }).getByText(`${name} was deleted.`).waitFor();
    await expect.poll(() => section.getByRole("row", { name: new RegExp(name) }).count()).toBe(0);
    await expect(
      app.server.api(`/organizations/${organizationId}/groups/${group.id}/`, { method: "GET" }),
    ).rejects.toThrow(/: 404 /);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a member who may see members but not groups gets them, without a groups' list the API refuses", async () => {
    const { registered } = await memberInNewGroup(app, {
      email: "mia@example.com",
      name: "Mia Viewer",
      company: "Mia's",
      group: "Member readers",
      permissions: ["member.view"],
    });
    const { context, page, errors } = await signedIn(registered.apiKey, "/console/members");
    await page.getByRole("row", { name: /Mia Viewer/ }).waitFor();
    expect(await page.getByRole("region", { name: "Groups", exact: true }).count()).toBe(0);
    expect(await page.locator("main [role=alert]").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
