// Editing skills and SQL databases in the console, in Chromium against `wrangler dev`, from the
// keyboard alone: every editable field of each (a skill's name, description, when to use,
// instructions, tools and groups; a database's name, description, state, assistants, groups, and an
// external one's connection string and tables), the change seen after a reload and in the API; a
// value the API refuses (400) shown at its field with nothing saved; no edit control for a member
// who may only view; axe-core on the forms in both themes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  dialog,
  memberInNewGroup,
  openPage,
  ownerOn as ownerOnPage,
  signInContext,
  startConsole,
  tabTo,
  LOCAL_LLM,
  PASSWORD,
  tabAndPress,
} from "./console-helpers.mjs";

let app, organization, support, billing, skill, sales, shop;

beforeAll(async () => {
  app = await startConsole();
  const api = app.server.api;
  [organization] = await api("/organizations/?pagination=false", { method: "GET" });
  [support, billing] = await Promise.all(
    ["Support desk", "Billing"].map((name) =>
      api(`/organizations/${organization.id}/groups/`, { body: { name, permissions: [] } }),
    ),
  );
  for (const [displayName, name] of [
    ["Track order", "track_order"],
    ["Refund order", "refund_order"],
  ]) {
    await api("/tools/", {
      body: { toolType: "api", displayName, name, apiUrl: `https://shop.example.com/${name}`, httpMethod: "post" },
    });
  }
  await api("/chatbots/", { body: { name: "Helpdesk", largeLanguageModel: LOCAL_LLM } });
  skill = await api("/skills/", {
    body: {
      name: "refund-policy",
      description: "Explains the refund policy",
      instructions: "# Refunds\n",
      groups: [{ id: support.id }],
    },
  });
  sales = await api("/sql-databases/", {
    body: { name: "Sales", description: "Sales by region", databaseType: "managed", groups: [{ id: support.id }] },
  });
  shop = await api("/sql-databases/", {
    body: { name: "Shop", databaseType: "postgresql", databaseUrl: "postgresql://bot:secret@db.example.com:5432/shop" },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const ownerOn = (path, options) => ownerOnPage(app, path, options);

/** From the keyboard: the focus to `field`, its text replaced by `text`. */
async function retype(page, field, text) {
  await tabTo(page, field);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(text);
}

/** From the keyboard: the form's submit button pressed. */
async function save(page, form) {
  await tabAndPress(page, form.getByRole("button", { name: "Save" }), "Enter");
}

describe("Editing skills and SQL databases in Chromium", () => {
  it(
    "a skill, keyboard only: a blank name is refused at its field, then every field is saved and shown after a " +
      "reload",
    async () => {
      const { context, page, errors } = await ownerOn("/skills");
      await tabAndPress(page, page.getByRole("button", { name: "Edit refund-policy" }), "Enter");
      const form = dialog(page);
      const name = form.getByLabel("Name");
      await name.waitFor();
      expect(await name.inputValue()).toBe("refund-policy");

      // Blanks pass the browser's `required`; the API trims them and refuses the name, at its field.
      await retype(page, name, "   ");
      await save(page, form);
      await expect.poll(() => name.getAttribute("aria-invalid")).toBe("true");
      expect(await form.locator(".field.invalid .field-error").textContent()).toBeTruthy();
      expect((await app.server.api(`/skills/${skill.id}/`, { method: "GET" })).name).toBe("refund-policy");

      await retype(page, name, "refund-rules");
      await retype(page, form.getByLabel("Description"), "Explains refunds and returns");
      await retype(page, form.getByLabel("When to use"), "When someone asks for their money back");
      await retype(page, form.getByLabel("Instructions"), "# Refunds\n\n1. Ask for the order number.");
      await tabAndPress(page, form.getByRole("checkbox", { name: "Track order" }), "Space");
      await tabAndPress(page, form.getByRole("checkbox", { name: "Support desk" }), "Space");
      await tabAndPress(page, form.getByRole("checkbox", { name: "Billing" }), "Space");
      await save(page, form);
      await form.waitFor({ state: "detached" });

      await page.reload();
      const row = page.getByRole("row", { name: /refund-rules/ });
      await row.waitFor();
      expect(await row.textContent()).toMatch(/Explains refunds and returns.*Track order.*Billing/);
      const saved = await app.server.api(`/skills/${skill.id}/`, { method: "GET" });
      expect(saved).toMatchObject({
        name: "refund-rules",
        description: "Explains refunds and returns",
        whenToUse: "When someone asks for their money back",
        instructions: "# Refunds\n\n1. Ask for the order number.",
        attachedTools: [{ displayName: "Track order" }],
        groups: [{ id: billing.id, name: "Billing" }],
      });
      // The form opens with what was saved.
      await page.getByRole("button", { name: "Edit refund-rules" }).click();
      await expect
        .poll(() => form.getByLabel("When to use").inputValue())
        .toBe("When someone asks for their money back");
      expect(await form.getByRole("checkbox", { name: "Track order" }).isChecked()).toBe(true);
      expect(await form.getByRole("checkbox", { name: "Refund order" }).isChecked()).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "a managed SQL database, keyboard only: name, description, state, assistants and groups, shown after a " + "reload",
    async () => {
      const { context, page, errors } = await ownerOn("/sql-databases");
      await tabAndPress(page, page.getByRole("button", { name: "Edit Sales" }), "Enter");
      const form = dialog(page);
      await retype(page, form.getByLabel("Name", { exact: true }), "Sales 2026");
      await retype(page, form.getByLabel("Description"), "Sales by region and month");
      expect(await form.getByLabel("Connection string").count()).toBe(0); // managed: none
      await tabAndPress(page, form.getByRole("checkbox", { name: "Active" }), "Space");
      await tabAndPress(page, form.getByRole("checkbox", { name: "Helpdesk" }), "Space");
      await tabAndPress(page, form.getByRole("checkbox", { name: "Billing" }), "Space");
      await save(page, form);
      await form.waitFor({ state: "detached" });

      await page.goto(`${app.base}/console/sql-databases/${sales.id}`);
      await page.getByRole("heading", { name: "Sales 2026", level: 1 }).waitFor();
      const facts = await page.locator(".sql-facts").textContent();
      expect(facts).toContain("Helpdesk");
      expect(facts).toContain("Billing, Support desk");
      expect(await page.locator("main").textContent()).toContain("Inactive");
      expect(await app.server.api(`/sql-databases/${sales.id}/`, { method: "GET" })).toMatchObject({
        name: "Sales 2026",
        description: "Sales by region and month",
        isActive: false,
        chatbots: [{ name: "Helpdesk" }],
        groups: expect.arrayContaining([
          expect.objectContaining({ id: support.id }),
          expect.objectContaining({ id: billing.id }),
        ]),
      });
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "a PostgreSQL database: a private address is refused at the connection string; a new one and its tables are " +
      "saved, the old one kept when left empty",
    async () => {
      const { context, page, errors } = await ownerOn(`/sql-databases/${shop.id}`);
      await tabAndPress(page, page.getByRole("button", { name: "Edit", exact: true }), "Enter");
      const form = dialog(page);
      const url = form.getByLabel("Connection string");
      expect(await url.getAttribute("placeholder")).toBe("postgresql://bot:***@db.example.com:5432/shop");
      await retype(page, url, "postgresql://bot:pw@10.0.0.5:5432/shop");
      await save(page, form);
      await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
      expect(await form.locator(".field.invalid .field-error").textContent()).toMatch(/private|internal|address/i);
      expect((await app.server.api(`/sql-databases/${shop.id}/`, { method: "GET" })).databaseUrl).toBe(
        "postgresql://bot:***@db.example.com:5432/shop",
      );

      await retype(page, url, "postgresql://reader:pw2@db2.example.com:5432/shop");
      await retype(page, form.getByLabel("Tables to use"), "orders\ncustomers");
      await save(page, form);
      await form.waitFor({ state: "detached" });
      await page.reload();
      await page.locator(".sql-facts").getByText("orders, customers").waitFor();
      const saved = await app.server.api(`/sql-databases/${shop.id}/`, { method: "GET" });
      expect(saved).toMatchObject({
        databaseUrl: "postgresql://reader:***@db2.example.com:5432/shop",
        includeTables: { tables: ["orders", "customers"] },
      });

      // Saved again with the connection string left empty: the stored one stays.
      await page.getByRole("button", { name: "Edit", exact: true }).click();
      await form.getByLabel("Description").fill("The shop's orders");
      await form.getByRole("button", { name: "Save" }).click();
      await form.waitFor({ state: "detached" });
      expect(await app.server.api(`/sql-databases/${shop.id}/`, { method: "GET" })).toMatchObject({
        description: "The shop's orders",
        databaseUrl: "postgresql://reader:***@db2.example.com:5432/shop",
      });
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("a member who may only view sees no edit controls", async () => {
    const email = `viewer-${Date.now()}@example.com`;
    const { member, group: viewers } = await memberInNewGroup(app, {
      email,
      name: "Vi",
      company: "Vi's",
      group: "Viewers",
      permissions: ["skill.view", "sql_database.view"],
    });
    // Also in the groups the skill and the database are given to.
    await app.server.api(`/organizations/${organization.id}/members/${member.id}/update-groups/`, {
      body: { groups: [viewers.id, support.id, billing.id] },
    });
    const { context, page } = await openPage(app.browser);
    await context.addInitScript((id) => localStorage.setItem("console.organization", id), organization.id);
    await signInContext(context, app.base, { email, password: PASSWORD });
    await page.goto(`${app.base}/console/skills`);
    await page.getByRole("row", { name: /refund-rules/ }).waitFor();
    expect(await page.getByRole("button", { name: /^Edit / }).count()).toBe(0);
    await page.goto(`${app.base}/console/sql-databases/${sales.id}`);
    await page.getByRole("heading", { name: "Sales 2026", level: 1 }).waitFor();
    expect(await page.getByRole("button", { name: "Edit", exact: true }).count()).toBe(0);
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation in the edit forms (%s)",
    async (theme) => {
      const { context, page } = await ownerOn("/skills", { theme });
      await page.getByRole("button", { name: "Edit refund-rules" }).click();
      await dialog(page).getByRole("checkbox", { name: "Track order" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.goto(`${app.base}/console/sql-databases/${shop.id}`);
      await page.getByRole("button", { name: "Edit", exact: true }).click();
      await dialog(page).getByRole("checkbox", { name: "Helpdesk" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
  );
});
