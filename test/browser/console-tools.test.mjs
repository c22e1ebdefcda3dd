// The console's tools, skills, SQL databases and batch QA pages in Chromium against `wrangler dev`:
// an api tool pointing at the loopback receiver's /echo/ (bad JSON shown at its field); an MCP tool
// whose server's tools (the in-test MCP server) are picked with checkboxes, keyboard only; a
// connector and a member's own credential for it (set, removed); desktop, flex and quick-reply tools
// (keyboard only) with a group picked; a skill zip (built with fflate) uploaded with a progress bar; a managed SQL
// database with a table from a CSV and a question answered with its SQL and rows; a batch QA upload with its
// results table and .xlsx, read by a member only with inbox.view as well; axe-core in both themes; screenshots into
// docs/console/.
import { strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpServer } from "../support/mcp-server.mjs";
import { startReceiver } from "../support/webhook-receiver.mjs";
import {
  axeViolations,
  startConsole,
  ownerOn as ownerOnPage,
  dialog,
  tabTo,
  LOCAL_LLM,
  ownerScreenshots,
  tabAndPress,
  downloadedBytes,
  memberInNewGroup,
  openPage,
  permissionIds,
  signInContext,
} from "./console-helpers.mjs";

let app, receiver, mcp;

beforeAll(async () => {
  [receiver, mcp] = await Promise.all([startReceiver(), startMcpServer()]);
  // Loopback servers are private addresses: the outbound guard lets this one host through.
  app = await startConsole({ vars: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await mcp?.close();
});

const ownerOn = (path, options) => ownerOnPage(app, path, options);

const SKILL_MD =
  "---\nname: refund-policy\ndescription: Explains the refund policy\nwhen_to_use: When someone asks for a " +
  "refund\n---\n# Refunds\n\n1. Ask for the order number.\n2. Refunds take **5 days**.\n";
/** A skill package big enough (incompressible bytes) that its upload takes several progress events. */
/** From the keyboard alone: opens "Add tool" and puts the focus on its Type field; returns the dialog. */
async function addToolByKeyboard(page) {
  await tabAndPress(page, page.getByRole("button", { name: "Add tool" }), "Enter");
  const form = dialog(page);
  await form.waitFor();
  await tabTo(page, form.getByLabel("Type"));
  return form;
}

function skillZip() {
  const noise = new Uint8Array(3 * 1024 * 1024);
  for (let i = 0; i < noise.length; i += 65536) crypto.getRandomValues(noise.subarray(i, i + 65536));
  return Buffer.from(
    zipSync({
      "SKILL.md": strToU8(SKILL_MD),
      "reference/policy.md": strToU8("# Policy\nFull refunds within 30 days.\n"),
      "assets/noise.bin": [noise, { level: 0 }],
    }),
  );
}

const SALES_CSV = "Region,Amount\nnorth,120\nnorth,80\nsouth,50\neast,75.5\n";
const TOTALS = "select region, sum(amount) as total from sales group by region order by total desc";

describe("Tools, skills, SQL databases and batch QA in Chromium", () => {
  it("creates an api tool calling the receiver's /echo/; JSON typed wrong shows at its field", async () => {
    const { context, page, errors } = await ownerOn("/tools");
    await page.getByRole("button", { name: "Add tool" }).click();
    await dialog(page).getByLabel("Display name").fill("Echo");
    await dialog(page).getByLabel("Function name").fill("echo_order");
    await dialog(page).getByLabel("URL").fill(`${receiver.url}/echo/orders`);
    await dialog(page).getByLabel("HTTP method").selectOption("post");
    const headers = dialog(page).getByLabel("Headers (JSON)");
    await headers.fill("{not json");
    await dialog(page).getByRole("button", { name: "Add" }).click();
    await expect.poll(() => headers.getAttribute("aria-invalid")).toBe("true");
    await headers.fill('{"X-Shop": "demo"}');
    await dialog(page).getByRole("button", { name: "Add" }).click();
    await dialog(page).waitFor({ state: "detached" });
    const row = page.getByRole("row", { name: /Echo/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`POST ${receiver.url}/echo/orders`);
    const tools = await app.server.api("/tools/", { method: "GET" });
    expect(tools.results.find((t) => t.displayName === "Echo")).toMatchObject({
      toolType: "api",
      name: "echo_order",
      httpMethod: "post",
      apiUrl: `${receiver.url}/echo/orders`,
      // Header values are write-only: the record shows them masked.
      rawHeaders: { "X-Shop": "••••" },
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an MCP tool, keyboard only: the server's available tools are picked with checkboxes", async () => {
    const { context, page, errors } = await ownerOn("/tools");
    const form = await addToolByKeyboard(page);
    await page.keyboard.press("End"); // MCP server, the last type
    await expect.poll(() => form.getByLabel("Type").inputValue()).toBe("mcp");
    await tabTo(page, form.getByLabel("Display name"));
    await page.keyboard.type("Order desk");
    await tabTo(page, form.getByLabel("Server URL"));
    await page.keyboard.type(`${mcp.url}/mcp`);
    await tabAndPress(page, form.getByRole("button", { name: "Load the server's tools" }), "Enter");
    const picker = form.getByRole("group", { name: /Tools the model may use/ });
    await picker.waitFor();
    expect(await picker.getByRole("checkbox").count()).toBeGreaterThanOrEqual(6);
    // All are chosen at first; keep add and lookup_order only.
    for (const name of ["whoami", "fail", "sleep", "big"]) {
      await tabAndPress(page, picker.getByRole("checkbox", { name: new RegExp(`\\b${name}\\b`) }), "Space");
    }
    await tabAndPress(page, form.getByRole("button", { name: "Add" }), "Enter");
    await dialog(page).waitFor({ state: "detached" });
    const row = page.getByRole("row", { name: /Order desk/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("add, lookup_order");
    const tools = await app.server.api("/tools/?toolType=mcp", { method: "GET" });
    expect(tools.results.find((t) => t.displayName === "Order desk")).toMatchObject({
      mcpUrl: `${mcp.url}/mcp`,
      mcpAllowedTools: ["add", "lookup_order"],
    });
    // The tabs, by arrow keys: the connectors tab, its URL, and back.
    await tabTo(page, page.getByRole("tab", { name: "Tools", exact: true }));
    await page.keyboard.press("ArrowRight");
    await page.getByRole("heading", { name: "Connectors", level: 2 }).waitFor();
    expect(page.url()).toBe(`${app.base}/console/tools/connectors`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-selected"))).toBe("true");
    // The navigation's entry is the page's address without a tab: it opens the tools tab again.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tools and connectors" }).click();
    await page.getByRole("heading", { name: "Tools", level: 2 }).waitFor();
    expect(page.url()).toBe(`${app.base}/console/tools`);
    expect(await page.getByRole("tab", { name: "Tools", exact: true }).getAttribute("aria-selected")).toBe("true");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("adds a connector to the registry's custom server", async () => {
    const { context, page } = await ownerOn("/tools/connectors");
    await page.getByRole("button", { name: "Add connector" }).click();
    await dialog(page).getByLabel("Display name").fill("Shop server");
    await dialog(page).getByLabel("serverUrl").fill(`${mcp.url}/mcp`);
    await dialog(page).getByLabel("Service-account headers (JSON)").fill('{"Authorization": "Bearer good-token"}');
    await dialog(page).getByRole("button", { name: "Add" }).click();
    const row = page.getByRole("row", { name: /Shop server/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("Stored");
    expect(await page.content()).not.toContain("good-token");
    await context.close();
  });

  it("creates desktop and flex tools, each given a picked group; bad flex JSON shows at its field", async () => {
    const [organization] = await app.server.api("/organizations/?pagination=false", { method: "GET" });
    await app.server.api(`/organizations/${organization.id}/groups/`, {
      body: { name: "Support desk", permissions: [] },
    });
    const { context, page, errors } = await ownerOn("/tools");
    await page.getByRole("button", { name: "Add tool" }).click();
    const form = dialog(page);
    await form.getByLabel("Type").selectOption("desktop");
    await form.getByLabel("Display name").fill("Open invoice");
    await form.getByLabel("Function name").fill("open_invoice");
    await form
      .getByLabel("Parameters (JSON Schema)")
      .fill('{"type": "object", "properties": {"number": {"type": "string"}}}');
    await form.getByRole("group", { name: "Groups" }).getByRole("checkbox", { name: "Support desk" }).check();
    await form.getByRole("button", { name: "Add" }).click();
    await form.waitFor({ state: "detached" });
    await page
      .getByRole("row", { name: /Open invoice/ })
      .getByText("Runs on the desktop client")
      .waitFor();

    await page.getByRole("button", { name: "Add tool" }).click();
    await form.getByLabel("Type").selectOption("flex");
    await form.getByLabel("Display name").fill("Product card");
    await form.getByLabel("Function name").fill("product_card");
    const template = form.getByLabel("Flex message (JSON)");
    await template.fill('{"type": "bubble", ');
    await form.getByRole("button", { name: "Add" }).click();
    await expect.poll(() => template.getAttribute("aria-invalid")).toBe("true");
    await template.fill(
      '{"type": "bubble", "body": {"type": "box", "layout": "vertical", "contents": [{"type": "text", "text": ' +
        '"{{name}}"}]}}',
    );
    await form
      .getByLabel("Fields the model fills (JSON)")
      .fill('{"body.contents.0.text": {"prompt": "The product name", "tag": "name"}}');
    await form.getByRole("group", { name: "Groups" }).getByRole("checkbox", { name: "Support desk" }).check();
    await form.getByRole("button", { name: "Add" }).click();
    await form.waitFor({ state: "detached" });
    await page
      .getByRole("row", { name: /Product card/ })
      .getByText("Sends a flex message")
      .waitFor();

    const tools = (await app.server.api("/tools/?clientPlatform=desktop", { method: "GET" })).results;
    expect(tools.find((t) => t.displayName === "Open invoice")).toMatchObject({
      toolType: "desktop",
      name: "open_invoice",
      rawParametersSchema: { type: "object" },
      groups: [{ name: "Support desk" }],
    });
    expect(tools.find((t) => t.displayName === "Product card")).toMatchObject({
      toolType: "flex",
      flexTemplateJson: { type: "bubble" },
      flexSchema: { "body.contents.0.text": { prompt: "The product name", tag: "name" } },
      groups: [{ name: "Support desk" }],
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a quick-reply tool, keyboard only: fixed buttons one per line", async () => {
    const { context, page, errors } = await ownerOn("/tools");
    const form = await addToolByKeyboard(page);
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown"); // api, function, desktop, flex, quick reply
    await expect.poll(() => form.getByLabel("Type").inputValue()).toBe("quick_reply");
    await tabTo(page, form.getByLabel("Display name"));
    await page.keyboard.type("Next steps");
    await tabTo(page, form.getByLabel("Function name"));
    await page.keyboard.type("next_steps");
    await tabTo(page, form.getByLabel("Buttons, one per line"));
    await page.keyboard.type("Track my order\nTalk to a person | I would like to talk to a person");
    await tabAndPress(page, form.getByRole("checkbox", { name: "Support desk" }), "Space");
    await tabAndPress(page, form.getByRole("button", { name: "Add" }), "Enter");
    await form.waitFor({ state: "detached" });
    await page
      .getByRole("row", { name: /Next steps/ })
      .getByText("2 fixed buttons")
      .waitFor();
    const tools = (await app.server.api("/tools/?toolType=quick_reply", { method: "GET" })).results;
    expect(tools.find((t) => t.displayName === "Next steps")).toMatchObject({
      name: "next_steps",
      quickReplyConfig: {
        mode: "static",
        items: ["Track my order", { label: "Talk to a person", text: "I would like to talk to a person" }],
      },
      groups: [{ name: "Support desk" }],
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a member sets and removes their own credential for a connector", async () => {
    const { context, page, errors } = await ownerOn("/tools/connectors");
    const status = page.getByRole("row", { name: /Shop server/ }).locator(".credential-cell .status");
    await expect.poll(() => status.textContent()).toBe("Not set");
    await page.getByRole("button", { name: "Set your credential for Shop server" }).click();
    const form = dialog(page);
    expect(await form.getByLabel("Header").inputValue()).toBe("Authorization");
    await form.getByLabel("Value").fill("Bearer my-own-token");
    await form.getByRole("button", { name: "Save credential" }).click();
    await form.waitFor({ state: "detached" });
    await expect.poll(() => status.textContent()).toBe("Set");
    const [connector] = (await app.server.api("/connectors/", { method: "GET" })).results.filter(
      (c) => c.displayName === "Shop server",
    );
    const holders = await app.server.api(`/connectors/${connector.id}/authorized-members/`, { method: "GET" });
    expect(holders.map((h) => h.user.id)).toEqual([app.owner.id]);
    expect(await page.content()).not.toContain("my-own-token");

    await page.getByRole("button", { name: "Change your credential for Shop server" }).click();
    await form.getByText(/You hold a credential for it/).waitFor();
    await form.getByRole("button", { name: "Remove credential" }).click();
    await form.waitFor({ state: "detached" });
    await expect.poll(() => status.textContent()).toBe("Not set");
    expect(await app.server.api(`/connectors/${connector.id}/authorized-members/`, { method: "GET" })).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("uploads a skill zip with a progress bar, then shows its instructions", async () => {
    const { context, page, errors } = await ownerOn("/skills");
    await page.getByRole("button", { name: "Upload skill" }).click();
    await dialog(page)
      .getByLabel("Skill package (.zip)")
      .setInputFiles({ name: "refund-policy.zip", mimeType: "application/zip", buffer: skillZip() });
    await dialog(page).getByRole("checkbox", { name: "Support desk" }).check();
    // Every value the progress bar takes, as the page shows it.
    await page.evaluate(() => {
      window.progressSeen = [];
      new MutationObserver(() => {
        const bar = document.querySelector("dialog[open] progress");
        if (bar) window.progressSeen.push(Number(bar.getAttribute("value")));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await dialog(page).getByRole("button", { name: "Upload", exact: true }).click();
    await dialog(page).waitFor({ state: "detached" });
    const seen = await page.evaluate(() => window.progressSeen);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(100);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const row = page.getByRole("row", { name: /refund-policy/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("Explains the refund policy");
    const skill = (await app.server.api("/skills/", { method: "GET" })).results.find((k) => k.name === "refund-policy");
    expect(skill.groups.map((g) => g.name)).toEqual(["Support desk"]);
    await page.getByRole("button", { name: "View refund-policy" }).click();
    const instructions = dialog(page).locator(".skill-instructions");
    await instructions.getByText("Refunds", { exact: true }).waitFor();
    expect(await instructions.locator("li").allTextContents()).toEqual([
      "Ask for the order number.",
      "Refunds take 5 days.",
    ]);
    expect(await dialog(page).textContent()).toContain("reference/policy.md");
    // A package without SKILL.md: the API's reason, in the dialog.
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Upload skill" }).click();
    await dialog(page)
      .getByLabel("Skill package (.zip)")
      .setInputFiles({
        name: "empty.zip",
        mimeType: "application/zip",
        buffer: Buffer.from(zipSync({ "README.md": strToU8("no skill") })),
      });
    await dialog(page).getByRole("button", { name: "Upload", exact: true }).click();
    expect(await dialog(page).locator(".field-error, .alert.error").first().textContent()).toMatch(/SKILL\.md/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a managed SQL database: a table from a CSV, and a question answered with its SQL and rows", async () => {
    const { context, page, errors } = await ownerOn("/sql-databases");
    await page.getByRole("button", { name: "Add database" }).click();
    await dialog(page).getByLabel("Name", { exact: true }).fill("Sales");
    await dialog(page).getByLabel("Description").fill("Sales by region");
    await dialog(page).getByRole("checkbox", { name: "Support desk" }).check();
    await dialog(page).getByRole("button", { name: "Add" }).click();
    await dialog(page).waitFor({ state: "detached" });
    const [sales] = (await app.server.api("/sql-databases/", { method: "GET" })).results.filter(
      (d) => d.name === "Sales",
    );
    expect(sales.groups.map((g) => g.name)).toEqual(["Support desk"]);
    await page.getByRole("link", { name: "Sales" }).click();
    await page.getByRole("heading", { name: "Sales", level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/console\/sql-databases\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: "Add table from a file" }).click();
    await dialog(page)
      .getByLabel("File (.csv or .xlsx)")
      .setInputFiles({ name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(SALES_CSV) });
    await dialog(page).getByRole("button", { name: "Upload" }).click();
    await dialog(page).waitFor({ state: "detached" });
    const tables = page.getByRole("region", { name: "Tables" });
    await tables.getByText("sales", { exact: true }).waitFor();
    expect(await tables.textContent()).toContain("4 rows");

    await page.getByRole("textbox", { name: "Question" }).fill(`Totals by region, sql: "${TOTALS}"`);
    await page.getByRole("button", { name: "Ask" }).click();
    await page.getByRole("heading", { name: "Generated SQL" }).waitFor();
    expect(await page.locator("pre.sql").textContent()).toBe(TOTALS);
    const result = page.getByRole("region", { name: /3 rows/ });
    const cells = await result
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    expect(cells).toEqual([
      ["north", "200"],
      ["east", "75.5"],
      ["south", "50"],
    ]);
    expect(await result.locator("thead th").allTextContents()).toEqual(["region", "total"]);
    // SQL the read-only check refuses: the SQL and the reason, no rows.
    await page.getByRole("textbox", { name: "Question" }).fill('sql: "delete from sales"');
    await page.getByRole("button", { name: "Ask" }).click();
    await page.getByText(/^Query refused/).waitFor();
    expect(await page.locator("pre.sql").textContent()).toBe("delete from sales");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a batch QA run through the web chat's assistant: results table, .xlsx, and who may read them", async () => {
    const bot = await app.server.api("/chatbots/", {
      body: { name: "Helpdesk", largeLanguageModel: LOCAL_LLM },
    });
    await app.server.api("/inboxes/", { body: { name: "Website", channelType: "web", chatbot: { id: bot.id } } });
    const { context, page, errors } = await ownerOn("/batch-qa");
    const csv =
      "Question,Expected answer\n" +
      ["Where is my parcel?", "Can I pay by card?", "Do you ship abroad?"]
        .map((q) => `${q},You said: "${q}".`)
        .join("\n");
    await page
      .getByLabel("Questions (.xlsx or .csv)")
      .setInputFiles({ name: "questions.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and run" }).click();
    const results = page.getByRole("region", { name: "Results of questions.csv" }).first();
    await page.getByText("3 of 3 answered, 0 failed").waitFor({ timeout: 60_000 });
    await expect.poll(() => results.locator("tbody tr").count()).toBe(3);
    await expect.poll(() => results.textContent()).not.toContain("Waiting…");
    expect(await results.textContent()).toContain('You said: "Can I pay by card?".');
    expect(await page.getByRole("region", { name: "Runs" }).first().textContent()).toContain("questions.csv");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download .xlsx" }).click(),
    ]);
    const bytes = await downloadedBytes(download);
    const files = unzipSync(new Uint8Array(bytes));
    // A header and the three questions; the texts are in the workbook's shared strings.
    const sheet = new TextDecoder().decode(files["xl/worksheets/sheet1.xml"]);
    expect(sheet.match(/<row /g)).toHaveLength(4);
    const strings = new TextDecoder().decode(files["xl/sharedStrings.xml"]);
    for (const q of ["Where is my parcel?", "Can I pay by card?", "Do you ship abroad?"]) expect(strings).toContain(q);
    expect(errors).toEqual([]);
    await context.close();

    // A member who sees the assistant (chatbot.view) is not offered the page without inbox.view: it starts from the
    // web chats' list. With both, they read the run.
    const { organization, group, registered } = await memberInNewGroup(app, {
      email: "qa@example.com",
      name: "Quinn Analyst",
      company: "QA Ltd",
      group: "Quality",
      permissions: ["chatbot.view"],
    });
    const groups = `/organizations/${organization.id}/groups/${group.id}/`;
    await app.server.api(`${groups}group-chatbots/bulk-create/`, { body: { chatbots: [bot.id] } });
    const member = await openPage(app.browser);
    await signInContext(member.context, app.base, { apiKey: registered.apiKey });
    await member.context.addInitScript((id) => localStorage.setItem("console.organization", id), organization.id);
    await member.page.goto(`${app.base}/console/batch-qa`);
    await member.page.getByRole("heading", { level: 1, name: "Not available" }).waitFor();
    expect(await member.page.locator("main li").allTextContents()).toEqual(["Inboxes and web chats: View"]);
    const nav = member.page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Batch QA" }).count()).toBe(0);
    await app.server.api(groups, {
      method: "PATCH",
      body: { permissions: await permissionIds(app, ["chatbot.view", "inbox.view"]) },
    });
    await member.page.reload();
    const runs = member.page.getByRole("region", { name: "Runs" }).first();
    await expect.poll(() => runs.textContent()).toContain("questions.csv");
    expect(await member.page.locator("main [role=alert]").count()).toBe(0);
    await nav.getByRole("link", { name: "Batch QA" }).waitFor();
    expect(member.errors).toEqual([]);
    await member.context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation on the four pages (%s)",
    async (theme) => {
      const { context, page } = await ownerOn("/tools", { theme });
      await page.getByRole("row", { name: /Echo/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Edit Order desk" }).click();
      await dialog(page).getByRole("button", { name: "Load the server's tools" }).click();
      await dialog(page)
        .getByRole("group", { name: /Tools the model may use/ })
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      // The new tool types' dialogs.
      await page.getByRole("button", { name: "Add tool" }).click();
      for (const type of ["flex", "quick_reply", "desktop"]) {
        await dialog(page).getByLabel("Type").selectOption(type);
        await dialog(page).getByRole("group", { name: "Groups" }).getByRole("checkbox").first().waitFor();
        expect(await axeViolations(page), type).toEqual([]);
      }
      await page.keyboard.press("Escape");
      await page.getByRole("tab", { name: "Connectors" }).click();
      await page.getByRole("row", { name: /Shop server/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Set your credential for Shop server" }).click();
      await dialog(page).getByLabel("Value").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      for (const path of ["/skills", "/sql-databases", "/batch-qa"]) {
        await page.goto(`${app.base}/console${path}`);
        await page.locator("table").first().waitFor();
        expect(await axeViolations(page), path).toEqual([]);
      }
      await page.goto(`${app.base}/console/sql-databases`);
      await page.getByRole("link", { name: "Sales" }).click();
      await page.getByRole("textbox", { name: "Question" }).fill(`sql: "${TOTALS}"`);
      await page.getByRole("button", { name: "Ask" }).click();
      await page.locator("pre.sql").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.goto(`${app.base}/console/batch-qa`);
      await page
        .getByRole("button", { name: /^Show results of/ })
        .first()
        .click();
      await page
        .getByRole("region", { name: /^Results of/ })
        .first()
        .locator("tbody tr")
        .first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
  );

  it("takes the screenshots of docs/console/", async () => {
    await ownerScreenshots(app, "/console/tools", "tools", {
      act: (page) => page.locator("tbody tr").first().waitFor(),
    });
    await ownerScreenshots(app, "/console/skills", "skills", {
      act: (page) => page.locator("tbody tr").first().waitFor(),
    });
    const [database] = (await app.server.api("/sql-databases/", { method: "GET" })).results;
    await ownerScreenshots(app, `/console/sql-databases/${database.id}`, "sql-databases", {
      act: async (page) => {
        await page.locator("form.ask-form input[name=question]").fill(`sql: "${TOTALS}"`);
        await page.locator("form.ask-form button[type=submit]").click();
        await page.locator(".ask-outcome tbody tr").first().waitFor();
      },
    });
    await ownerScreenshots(app, "/console/batch-qa", "batch-qa", {
      act: async (page) => {
        await page.locator("section .row-actions button").first().click();
        await page.locator("section:last-of-type tbody tr").first().waitFor();
      },
    });
  });

  // Last: its web chat would be the one the other tests' batch QA page opens.
  it("pages batch QA's runs: the first of 21 runs is reached through the pager", async () => {
    const bot = await app.server.api("/chatbots/", { body: { name: "Many runs", largeLanguageModel: LOCAL_LLM } });
    const inbox = await app.server.api("/inboxes/", {
      body: { name: "Many runs site", channelType: "web", chatbot: { id: bot.id } },
    });
    // Each run through the API as the console starts one: a signed upload of its file, then the run.
    for (let i = 1; i <= 21; i++) {
      const filename = `run-${String(i).padStart(2, "0")}.csv`;
      const csv = Buffer.from(`Question\nQuestion ${i}?\n`);
      const target = await app.server.api("/upload-presigned-url/", {
        body: { modelName: "batch-qa", fieldName: "file", filename, fileSize: csv.length },
      });
      const form = new FormData();
      for (const [name, value] of Object.entries(target.fields)) form.append(name, String(value));
      form.append("file", new Blob([csv], { type: "text/csv" }), filename);
      expect((await fetch(target.url, { method: "POST", body: form })).status).toBe(204);
      await app.server.api(`/web-chats/${inbox.channel.id}/batch-qas/`, {
        body: { file: target.fields.key, filename },
      });
    }
    const { context, page, errors } = await ownerOn("/batch-qa");
    await page.getByLabel("Web chat").selectOption({ label: "Many runs site" });
    const runs = page.getByRole("region", { name: "Runs" });
    // Newest first: the first run is the one the second page holds.
    await runs.getByRole("row", { name: /run-21\.csv/ }).waitFor();
    const first = runs.getByRole("row", { name: /run-01\.csv/ });
    const pager = runs.getByRole("navigation", { name: "Pagination" });
    if (await pager.count()) await pager.getByRole("button", { name: "Next" }).click();
    await first.waitFor({ timeout: 5_000 });
    expect(await runs.locator("tbody tr").count()).toBe(1);
    expect(await pager.textContent()).toContain("Page 2 of 2");
    await first.getByRole("button", { name: "Show results of run-01.csv" }).click();
    await page.getByRole("region", { name: "Results of run-01.csv" }).locator("tbody tr").first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
