// The console's Statistics page in Chromium against `wrangler dev`, after seeded traffic: three
// assistants with live completions today, and six earlier days written straight into the
// statistics tables (hourly counters, records with evaluation scores) of the stopped server's D1.
// The charts draw, and each chart's table equals the API's numbers, for the organization and for
// one assistant; the usage tables equal the API's pages; the records filter, and the .xlsx export
// downloads the same rows (read back with fflate). One assistant's conversation counts leave the
// try-it's test conversation out until "Include test conversations" is ticked, as the API does.
// The "Human handoff" section: a visitor handed to a person who takes over, answers and resolves
// (through the API), another waiting, and six earlier days of stretches written into D1; its totals,
// charts and table per agent or assistant equal GET /human-statistics/, and its export downloads them.
// Keyboard-only filtering, axe-core in both themes, the screenshots of docs/console/.
import { DatabaseSync } from "node:sqlite";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, startServer } from "../../bench/lib.mjs";
import { dataPlaneFile } from "../support/local-d1.mjs";
import { readXlsx } from "../support/xlsx.ts";
import { testPort } from "../support/test-ports.mjs";
import {
  SHOTS,
  axeViolations,
  downloadedBytes,
  openPage,
  screenshots,
  signInContext,
  CONSOLE_PORTS,
  LOCAL_LLM,
} from "./console-helpers.mjs";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PORT = testPort("CONSOLE_TEST_PORT", CONSOLE_PORTS);
const METRICS = [
  ["Conversations", "conversationsCount"],
  ["Messages", "messagesCount"],
  ["Tokens", "totalTokens"],
  ["Failed replies", "failedRepliesCount"],
];

let server, browser, org, owner, bots, handedOff;
/** Chromium as it launches: afterAll closes it even when the setup failed before it was awaited. */
let launching;

/** Six earlier days of each assistant: counters (the owner's for the first) and two records a day, scored for the
 * first. */
function seedHistory(file) {
  const db = new DatabaseSync(file);
  const noon = Math.floor(Date.now() / DAY) * DAY + 12 * HOUR;
  const hourly = db.prepare(
    `INSERT INTO usage_hourly (organization_id, chatbot_id, hour, member_id, model_id, conversations, incoming_messages,
       outgoing_messages, replies, reply_ms, failed_replies, requests, input_tokens, output_tokens, words)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const record = db.prepare(
    `INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, input_message, output_message,
       reply_ms, created_at, answered_at, evaluation_status, faithfulness, answer_relevancy, context_precision)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.exec("BEGIN");
  for (let d = 1; d <= 6; d++) {
    bots.forEach((bot, i) => {
      const n = d + 2 * i;
      const hour = noon - d * DAY;
      hourly.run(
        org.id,
        bot.id,
        hour,
        i === 0 ? owner.id : "",
        LOCAL_LLM,
        n,
        3 * n,
        3 * n - (d % 3),
        3 * n - (d % 3),
        900 * n,
        d % 3,
        3 * n,
        120 * n,
        40 * n,
        25 * n,
      );
      for (const [k, topic] of ["refund", "delivery"].entries()) {
        const scored = i === 0;
        record.run(
          randomUUID(),
          org.id,
          bot.id,
          randomUUID(),
          `Day ${d}: a ${topic} question for ${bot.name}`,
          `The ${topic} answer of day ${d}.`,
          800 + 100 * k,
          hour + k * 60_000,
          hour + k * 60_000 + 900,
          scored ? "done" : null,
          scored ? 0.8 : null,
          scored ? 0.9 : null,
          scored ? 0.75 : null,
        );
      }
    });
  }
  // The human side: a stretch of Support's handed-off conversation a day, the owner answering after d minutes, resolved
  // after 10.
  const handoff = db.prepare(
    `INSERT INTO conversation_handoffs (id, organization_id, conversation_id, inbox_id, chatbot_id, reason, is_test,
       queued_at, assignee_id, assigned_at, first_response_at, ended_at, resolved)
     SELECT ?, organization_id, id, inbox_id, chatbot_id, 'visitor_request', 0, ?, ?, ?, ?, ?, 1
     FROM conversations WHERE id = ?`,
  );
  for (let d = 1; d <= 6; d++) {
    const queued = noon - d * DAY;
    handoff.run(randomUUID(), queued, owner.id, queued + 30_000 * d, queued + 60_000 * d, queued + 600_000, handedOff);
  }
  db.prepare("UPDATE conversations SET csat_rating = 4, csat_at = ? WHERE id = ?").run(noon, handedOff);
  db.exec("COMMIT");
  // Days already rolled up (none on a fresh server, but the rule is the service's) are rolled up again.
  db.prepare("UPDATE usage_rollup SET through = min(through, ?) WHERE id = 'daily'").run(noon - 7 * DAY);
  db.close();
}

beforeAll(async () => {
  // Chromium starts while the servers do (console-helpers.mjs, startConsole, says why); afterAll closes it.
  launching = launchChromium();
  launching.catch(() => {}); // awaited below; a failed launch is thrown there
  // devtools: false and direct, as startConsole's (console-helpers.mjs says why).
  const options = { port: PORT, prebuilt: true, devtools: false, direct: true };
  const first = await startServer(options);
  [org] = (await first.api("/organizations/", { method: "GET" })).results;
  owner = await first.api("/users/current/", { method: "GET" });
  bots = [];
  for (const name of ["Support", "Sales", "Billing"]) {
    const bot = await first.api("/chatbots/", { body: { name, largeLanguageModel: LOCAL_LLM } });
    bots.push({ id: bot.id, name });
  }
  await first.api(`/chatbots/${bots[0].id}/enable-evaluation/`, { method: "PATCH", body: { enableEvaluation: true } });
  for (const [i, bot] of bots.entries()) {
    for (let k = 0; k <= i; k++)
      await first.api(`/chatbots/${bot.id}/completions/`, {
        body: { message: { content: `Today's refund question ${k}` } },
      });
  }
  // The try-it's kind of conversation: a test, counted in the assistant's statistics only when asked.
  await first.api(`/chatbots/${bots[0].id}/completions/`, {
    body: { message: { content: "A trial from the console" }, test: true },
  });
  // A visitor of Support asks for a person; the owner takes over, answers and resolves. One of Sales waits.
  handedOff = (
    await first.api(`/chatbots/${bots[0].id}/completions/`, {
      body: { message: { content: "I need to talk to a person" } },
    })
  ).conversationId;
  await first.api(`/conversations/${handedOff}/take-over/`);
  await first.api("/messages/outgoing/", { body: { conversation: handedOff, content: "Hello, this is the owner." } });
  await first.api(`/conversations/${handedOff}/resolve/`);
  await first.api(`/chatbots/${bots[1].id}/completions/`, {
    body: { message: { content: "Can I speak to a real person?" } },
  });
  await first.stop({ keep: true });
  seedHistory(dataPlaneFile(first.state, org.id));
  server = await startServer({ ...options, state: first.state, key: first.key });
  browser = await launching;
}, 420_000);

afterAll(async () => {
  await launching?.then(
    (b) => b.close(),
    () => {},
  );
  await server?.stop();
});

async function statisticsPage(options) {
  const opened = await openPage(browser, options);
  await signInContext(opened.context, server.base, { apiKey: server.key });
  await opened.page.goto(`${server.base}/console/statistics`);
  await opened.page.locator(".chart canvas").nth(3).waitFor();
  return opened;
}

const get = (path, query) => server.api(`${path}?${new URLSearchParams(query)}`, { method: "GET" });
const count = (text) => Number(text.replace(/[^\d]/g, ""));

/** The range the page shows and the browser's time zone, as the page sends them. */
async function rangeOf(page) {
  return {
    startDate: await page.getByLabel("From", { exact: true }).inputValue(),
    endDate: await page.getByLabel("To", { exact: true }).inputValue(),
    timezone: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
  };
}

/** Each chart's table as [day, value] rows, by the chart's title: the overview's, or those of `charts` (a section). */
async function chartTables(page, charts = page.locator("#stats-overview ~ .charts .chart")) {
  return charts.evaluateAll((figures) =>
    Object.fromEntries(
      figures.map((f) => [
        f.querySelector("figcaption").textContent,
        [...f.querySelectorAll("tbody tr")].map((tr) => [
          tr.querySelector("th").textContent,
          tr.querySelector("td").textContent,
        ]),
      ]),
    ),
  );
}

function expectTablesEqual(tables, results) {
  for (const [title, key] of METRICS) {
    expect(
      tables[title].map(([day, value]) => [day, count(value)]),
      title,
    ).toEqual(results.map((b) => [b.time, b[key]]));
  }
}

describe("Statistics in Chromium", () => {
  it("takes the screenshots of docs/console/", async () => {
    await screenshots(browser, server.base, "/console/statistics", "statistics", {
      signIn: (context) => signInContext(context, server.base, { apiKey: server.key }),
      act: (page) => page.locator(".chart canvas").nth(3).waitFor(),
    });
  });

  it(
    "draws the charts, and each chart's table equals the API's numbers, for the organization and for one " +
      "assistant",
    async () => {
      const { context, page, errors } = await statisticsPage();
      const range = await rangeOf(page);
      const summary = await get(`/organizations/${org.id}/usage-statistics/chatbots/summary/`, {
        ...range,
        timeGranularity: "day",
      });
      // The fixture: seven days with traffic (six seeded, and today's live completions), three assistants.
      expect(summary.results.filter((b) => b.messagesCount > 0).length).toBe(7);
      expect(summary.total.failedRepliesCount).toBeGreaterThan(0);
      expectTablesEqual(await chartTables(page), summary.results);
      const totals = await page.$$eval("#stats-overview ~ .totals .total", (tiles) =>
        tiles.map((t) => [t.querySelector("dt").textContent, t.querySelector("dd").textContent]),
      );
      expect(totals.map(([label, value]) => [label, count(value)])).toEqual(
        METRICS.map(([label, key]) => [label, summary.total[key]]),
      );
      // Each canvas has pixels drawn (the series line, not only a blank plot).
      const inked = await page.$$eval("#stats-overview ~ .charts .chart canvas", (canvases) =>
        canvases.map((c) =>
          c
            .getContext("2d")
            .getImageData(0, 0, c.width, c.height)
            .data.some((v, i) => i % 4 === 3 && v > 0),
        ),
      );
      expect(inked).toEqual([true, true, true, true]);

      await page.getByLabel("Assistant", { exact: true }).selectOption({ label: "Sales" });
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await page.getByRole("heading", { name: "Per day: Sales" }).waitFor();
      const series = await get(`/organizations/${org.id}/usage-statistics/chatbots/`, {
        ...range,
        chatbot: bots[1].id,
        includeTime: "true",
      });
      await expect
        .poll(async () => (await chartTables(page)).Messages.map(([, v]) => count(v)))
        .toEqual(series.map((b) => b.messagesCount));
      expectTablesEqual(await chartTables(page), series);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("the usage per assistant and per member equal the API's pages", async () => {
    const { context, page } = await statisticsPage();
    const range = await rangeOf(page);
    const query = { ...range, sortBy: "messagesCount", sortOrder: "desc", pageSize: "10" };
    const rowsOf = (name) =>
      page
        .getByRole("region", { name })
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    const byBot = await get(`/organizations/${org.id}/usage-statistics/chatbots/`, query);
    await expect.poll(() => rowsOf("Usage per assistant")).toHaveLength(3);
    expect((await rowsOf("Usage per assistant")).map((r) => [r[0], count(r[1]), count(r[2]), count(r[3])])).toEqual(
      byBot.results.map((b) => [b.name, b.conversationsCount, b.messagesCount, b.totalTokens]),
    );
    const byMember = await get(`/organizations/${org.id}/usage-statistics/members/`, query);
    const members = await rowsOf("Usage per member");
    expect(members.map((r) => [r[0], r[1], count(r[3])])).toEqual(
      byMember.results.map((m) => [m.name, m.email, m.messagesCount]),
    );
    expect(byMember.results[0].messagesCount).toBeGreaterThan(0);
    await context.close();
  });

  it("filters the questions and answers, and downloads the same rows as a valid .xlsx and as CSV", async () => {
    const { context, page } = await statisticsPage();
    const range = await rangeOf(page);
    const records = page.getByRole("region", { name: "Questions and answers" });
    await page.getByLabel("Questions of").selectOption({ label: "Support" });
    await page.getByLabel("Question contains").fill("refund");
    await page.getByRole("button", { name: "Filter" }).click();
    const filtered = { ...range, userMessage: "refund" };
    const api = await get(`/chatbots/${bots[0].id}/records/`, { ...filtered, pageSize: "100" });
    expect(api.count).toBe(7);
    await expect.poll(() => records.locator("tbody tr").count()).toBe(api.count);
    const shown = await records
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
    expect(shown).toEqual(api.results.map((r) => [r.inputMessage, r.outputMessage]));
    // The scores of a scored record, as the API words them.
    const scored = api.results.find((r) => r.faithfulnessDisplay && r.faithfulnessDisplay !== "-");
    expect(await records.getByRole("row", { name: scored.inputMessage }).textContent()).toContain(
      `Faithfulness${scored.faithfulnessDisplay}`,
    );

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download .xlsx" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`records-${range.startDate}-${range.endDate}.xlsx`);
    const rows = readXlsx(await downloadedBytes(download));
    expect(rows[0].slice(0, 3)).toEqual(["Asked at", "Question", "Answer"]);
    expect(rows.slice(1).map((r) => [r[1], r[2]])).toEqual(api.results.map((r) => [r.inputMessage, r.outputMessage]));
    // The same rows as CSV, which holds every record however many (UTF-8 with its byte order mark).
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download .csv" }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(`records-${range.startDate}-${range.endDate}.csv`);
    const text = (await downloadedBytes(csv)).toString("utf8");
    expect(text.startsWith("\uFEFFAsked at,Question,Answer,")).toBe(true);
    // Each record's line starts with its time (an answer's own line breaks are inside quotes), in the list's order.
    expect(text.match(/\r\n\d{4}-\d\d-\d\dT/g)).toHaveLength(api.count);
    const at = api.results.map((r) => text.indexOf(`,${r.inputMessage},`));
    expect(at.every((i, n) => i > 0 && (n === 0 || i > at[n - 1]))).toBe(true);
    await context.close();
  });

  it("works from the keyboard alone: choose an assistant, show it, open a chart's table", async () => {
    const { context, page } = await statisticsPage();
    // From the page's heading, Tab to the assistant filter (the date fields hold several stops each).
    await page.locator("h1").focus();
    for (
      let i = 0;
      i < 20 && (await page.evaluate(() => document.activeElement.getAttribute("name"))) !== "chatbot";
      i++
    )
      await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement.getAttribute("name"))).toBe("chatbot");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: /^Per day: / }).waitFor();
    const toggle = page.getByRole("button", { name: "Show the data as a table" }).first();
    await toggle.focus();
    await page.keyboard.press("Enter");
    const table = page.locator(".chart").first().locator(".chart-table");
    await table.waitFor();
    expect(
      await page
        .locator(".chart")
        .first()
        .getByRole("button", { name: "Hide the table" })
        .getAttribute("aria-expanded"),
    ).toBe("true");
    await context.close();
  });

  it(
    "leaves the try-it's test conversations out of an assistant's conversation counts unless the switch " +
      "includes them",
    async () => {
      const { context, page, errors } = await statisticsPage();
      const range = await rangeOf(page);
      await page.getByLabel("Assistant", { exact: true }).selectOption({ label: "Support" });
      await page.getByRole("button", { name: "Show", exact: true }).click();
      const section = page.getByRole("region", { name: "Conversations of the assistant" });
      const conversations = () => section.locator('[data-count="conversationsCount"] dd').textContent().then(count);
      const query = { datetimeFrom: range.startDate, datetimeTo: range.endDate, timezone: range.timezone };
      const without = await get(`/chatbots/${bots[0].id}/statistics/`, query);
      const withTests = await get(`/chatbots/${bots[0].id}/statistics/`, { ...query, includeTests: "true" });
      expect(withTests.total.conversationsCount).toBe(without.total.conversationsCount + 1);
      await expect.poll(conversations).toBe(without.total.conversationsCount);
      // Off by default, as the API.
      const toggle = section.getByLabel("Include test conversations");
      expect(await toggle.isChecked()).toBe(false);
      const asked = page.waitForRequest(
        (r) =>
          r.url().includes(`/chatbots/${bots[0].id}/statistics/`) &&
          new URL(r.url()).searchParams.get("includeTests") === "true",
      );
      await toggle.check();
      await asked;
      await expect.poll(conversations).toBe(withTests.total.conversationsCount);
      const tiles = await section
        .locator(".total")
        .evaluateAll((items) => items.map((i) => [i.dataset.count, i.querySelector("dd").textContent]));
      expect(tiles.map(([key, value]) => [key, count(value)])).toEqual(
        tiles.map(([key]) => [key, withTests.total[key]]),
      );
      expect(await axeViolations(page)).toEqual([]);
      await toggle.uncheck();
      await expect.poll(conversations).toBe(without.total.conversationsCount);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "the human handoff section: totals, charts and the table per agent or assistant equal the API's figures; " +
      "Export downloads them",
    async () => {
      const { context, page, errors } = await statisticsPage();
      const range = await rangeOf(page);
      const human = page.getByRole("region", { name: "Human handoff" });
      const byDay = await get(`/organizations/${org.id}/human-statistics/`, { ...range, groupBy: "day" });
      // Six seeded days and today's two handoffs (one answered and resolved, one waiting).
      expect(byDay.total).toMatchObject({
        handoffsCount: 8,
        resolvedCount: 7,
        firstResponseTime: { count: 7 },
        csat: { count: 1, average: 4 },
      });
      const tile = (label) =>
        human
          .locator(".total")
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator("dd");
      await expect.poll(() => tile("Handoffs").textContent()).toBe("8");
      expect(await tile("Resolved").textContent()).toBe("7");
      expect(await tile("Satisfaction (1-5)").textContent()).toBe("4.00");
      // The median of the day's medians' stretches: 1..6 minutes and today's quick reply; the API's median, worded.
      expect(byDay.total.firstResponseTime.median).toBeGreaterThan(60);
      expect(await tile("Median first response").textContent()).toMatch(/^\d+ min( \d+ s)?$|^\d+ s$/);

      const tables = await chartTables(page, human.locator(".chart"));
      expect(tables["Handoffs per day"]).toEqual(byDay.results.map((d) => [d.key, String(d.handoffsCount)]));
      const seededDays = byDay.results.filter((d) => d.handoffsCount === 1 && d.key !== range.endDate);
      expect(seededDays).toHaveLength(6);
      expect(Object.fromEntries(tables["Median first response per day"])).toMatchObject(
        Object.fromEntries(seededDays.map((d) => [d.key, `${d.firstResponseTime.median / 60} min`])),
      );
      expect(tables["Median first response per day"].filter(([, v]) => v === "—")).toHaveLength(
        byDay.results.filter((d) => d.firstResponseTime.median === null).length,
      );
      const inked = await human.locator(".chart canvas").evaluateAll((canvases) =>
        canvases.map((c) =>
          c
            .getContext("2d")
            .getImageData(0, 0, c.width, c.height)
            .data.some((v, i) => i % 4 === 3 && v > 0),
        ),
      );
      expect(inked).toEqual([true, true]);
      // The durations' y axis is as wide as its labels ("1 min 40 s"): none is cut at the canvas's left edge,
      // where nothing but a label can be drawn (the x axis's dates are below the rows looked at).
      const edgeInked = await human
        .locator(".chart canvas")
        .nth(1)
        .evaluate((c) => {
          const ratio = c.width / c.getBoundingClientRect().width;
          const { data } = c
            .getContext("2d")
            .getImageData(0, 0, Math.ceil(3 * ratio), Math.floor(c.height - 50 * ratio));
          return data.some((v, i) => i % 4 === 3 && v > 0);
        });
      expect(edgeInked).toBe(false);

      const rows = () =>
        human
          .getByRole("region", { name: "Human handoff" })
          .locator("tbody tr")
          .evaluateAll((trs) =>
            trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent, tr.children[2].textContent]),
          );
      const byAgent = await get(`/organizations/${org.id}/human-statistics/`, { ...range, groupBy: "agent" });
      expect(byAgent.results.map((g) => [g.key, g.handoffsCount])).toEqual([
        [owner.id, 7],
        [null, 1],
      ]);
      await expect
        .poll(rows)
        .toEqual(
          byAgent.results.map((g) => [g.name ?? "Unassigned", String(g.handoffsCount), String(g.resolvedCount)]),
        );
      await human.getByLabel("Per", { exact: true }).selectOption({ label: "Assistant" });
      const byAssistant = await get(`/organizations/${org.id}/human-statistics/`, { ...range, groupBy: "assistant" });
      await expect.poll(rows).toEqual([
        ["Support", "7", "7"],
        ["Sales", "1", "0"],
      ]);
      expect(byAssistant.results.map((g) => [g.name, g.handoffsCount, g.resolvedCount])).toEqual([
        ["Support", 7, 7],
        ["Sales", 1, 0],
      ]);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        human.getByRole("button", { name: "Export the human handoff figures as .xlsx" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`human-statistics-assistant-${range.startDate}-${range.endDate}.xlsx`);
      const sheet = readXlsx(await downloadedBytes(download));
      expect(sheet[0].slice(0, 4)).toEqual(["Assistant", "Id", "Handoffs", "Resolved"]);
      expect(sheet.slice(1).map((r) => r.slice(0, 4))).toEqual([
        ["Support", bots[0].id, 7, 7],
        ["Sales", bots[1].id, 1, 0],
        ["Total", null, 8, 7],
      ]);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("takes the screenshots of the human handoff section (docs/console/statistics-human-*.png)", async () => {
    for (const [look, options] of [
      ["light", { theme: "light" }],
      ["dark", { theme: "dark" }],
      ["zh-TW", { theme: "light", locale: "zh-TW" }],
    ]) {
      const { context, page } = await statisticsPage(options);
      const human = page.locator('[data-section="human"]');
      await human.locator(".chart canvas").nth(1).waitFor();
      await human.locator("tbody tr").first().waitFor();
      if (look === "zh-TW") expect(await human.locator("h2").textContent()).toBe("轉接真人");
      else expect(await axeViolations(page)).toEqual([]);
      await human.screenshot({ path: `${SHOTS}/statistics-human-${look}.png` });
      await context.close();
    }
  });

  it.each(["light", "dark"])("axe-core finds no serious or critical violation (%s)", async (theme) => {
    const { context, page } = await statisticsPage({ theme });
    await page.locator(".chart").first().getByRole("button", { name: "Show the data as a table" }).click();
    await page.getByRole("region", { name: "Questions and answers" }).locator("tbody tr").first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
