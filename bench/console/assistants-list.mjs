// The Assistants list with 10,000 assistants, in Chromium on `wrangler dev`:
// - time to render a list page: from pressing "Next"/"Previous" to the first animation frame after
//   the new rows are in the DOM, measured in the page; target p95 <= 100 ms. The list is paged by the
//   API (20 a page) and the page fetches the neighbours of the page it shows; a search's first page
//   (which nothing fetched ahead) is timed too, from submitting to its rows.
// - time from navigation start to an interactive list (rows shown, "New assistant" enabled), cold
//   cache (a new browser context each load) and warm (reloads); goal <= 1 s.
// The 10,000 assistants: the last one is created through the API (POST /chatbots/); the others are
// copies of its rows (the assistant and its default inbox, every column but id, name and times)
// written straight into the stopped server's local D1, so they are exactly what the API creates
// (checked: the list's count, and one copy read through the API beside the one created). Through
// the API, 12 at a time, they took 652 s on this machine.
import { DatabaseSync } from "node:sqlite";
import os from "node:os";
import { percentile, LOCAL_LLM } from "../lib.mjs";
import { d1File } from "../../test/support/local-d1.mjs";
import { openPage, signInContext } from "../../test/browser/console-helpers.mjs";
import { uuidv7 } from "../../src/lib/ids.ts";

const ASSISTANTS = Number(process.env.BENCH_ASSISTANTS ?? 10_000);
const PAGES = Number(process.env.BENCH_LIST_PAGES ?? 60);
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 20);
const f = (xs, p) => percentile(xs, p).toFixed(0);
const nameOf = (n) => `Assistant ${String(n).padStart(5, "0")}`;

/** Copies assistant `templateId` and its default inbox as assistants `first`..`last`, one millisecond apart before it;
 * returns their ids. */
function copyAssistant(file, templateId, first, last) {
  const db = new DatabaseSync(file);
  const columns = (table) =>
    db
      .prepare(`PRAGMA table_info(${table})`)
      .all()
      .map((c) => c.name);
  // Every column from the template's row except those given here.
  const copy = (table, given, where) => {
    const names = columns(table);
    const select = names.map((c) => (c in given ? `:${given[c]}` : c));
    return db.prepare(
      `INSERT INTO ${table} (${names.join(", ")}) SELECT ${select.join(", ")} FROM ${table} WHERE ${where}`,
    );
  };
  const times = { created_at: "at", updated_at: "at" };
  const bot = copy("chatbots", { id: "id", name: "name", ...times }, "id = :template");
  const inbox = copy(
    "inboxes",
    { id: "inbox", name: "inboxName", chatbot_id: "id", ...times },
    "chatbot_id = :template AND is_default = 1",
  );
  const { created_at: at } = db.prepare("SELECT created_at FROM chatbots WHERE id = ?").get(templateId);
  const ids = [];
  db.exec("BEGIN");
  for (let n = first; n <= last; n++) {
    const created = at - (last + 1 - n);
    const row = { template: templateId, id: uuidv7(created), name: nameOf(n), at: created };
    bot.run(row);
    inbox.run({ template: templateId, id: row.id, at: created, inbox: uuidv7(created), inboxName: `${row.name} API` });
    ids.push(row.id);
  }
  db.exec("COMMIT");
  db.close();
  return ids;
}

/** An assistant as the API shows it, without what differs between two created alike. */
const likeAnother = ({ id, name, createdAt, updatedAt, defaultInbox, ...rest }) => ({
  ...rest,
  defaultInbox: defaultInbox && { ...defaultInbox, id: "", name: "" },
});

export async function seed(app) {
  const { count } = await app.server.api("/chatbots/?pageSize=1", { method: "GET" });
  if (count >= ASSISTANTS) return count;
  const started = performance.now();
  const template = await app.server.api("/chatbots/", {
    body: { name: nameOf(ASSISTANTS), largeLanguageModel: LOCAL_LLM },
  });
  let ids = [];
  await app.restart((state) => (ids = copyAssistant(d1File(state), template.id, count + 1, ASSISTANTS - 1)));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const total = (await app.server.api("/chatbots/?pageSize=1", { method: "GET" })).count;
  if (total !== count + ids.length + 1)
    throw new Error(`seeded ${ids.length + 1} assistants but the API counts ${total - count}`);
  const copy = ids.length ? await app.server.api(`/chatbots/${ids[ids.length >> 1]}/`, { method: "GET" }) : template;
  if (JSON.stringify(likeAnother(copy)) !== JSON.stringify(likeAnother(template)))
    throw new Error(
      `a copy differs from the assistant the API created:\n${JSON.stringify(copy)}\n${JSON.stringify(template)}`,
    );
  console.log(
    `seeded ${total - count} assistants in ${seconds} s (one through the API, the rest copies of its rows in ` +
      `the stopped server's D1; ${total} in the organization; a copy reads as the API's own)`,
  );
  return total;
}

/** In the page: presses `action` (a button, or a form to submit) `rounds` times, timing each until the first row
 * changed and a frame followed. */
function timeRenders({ rounds, action }) {
  const firstRow = () => document.querySelector(".assistant-list tbody th")?.textContent;
  const once = () =>
    new Promise((resolve) => {
      const before = firstRow();
      const started = performance.now();
      const observer = new MutationObserver(() => {
        if (firstRow() === before || document.querySelector(".assistant-list[aria-busy]")) return;
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - started));
      });
      observer.observe(document.querySelector("main"), {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
      if (action === "next") [...document.querySelectorAll(".pager button")].at(-1).click();
      else if (action === "previous") document.querySelector(".pager button").click();
    });
  return (async () => {
    const times = [];
    for (let i = 0; i < rounds; i++) {
      // A person's pause between presses, in which the neighbouring pages arrive (not timed).
      await new Promise((r) => setTimeout(r, 400));
      times.push(await once());
    }
    return times;
  })();
}

/** In the page: `rounds` searches, each timed from submitting the form to the first frame after its results show (never
 * cached: each query is new). */
function timeSearches({ rounds }) {
  const input = document.querySelector(".list-search input");
  const count = () => document.querySelector(".list-count")?.textContent ?? "";
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
  return (async () => {
    const times = [];
    for (let i = 0; i < rounds; i++) {
      const query = `0${String(10 + i).padStart(2, "0")}`;
      input.value = query;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      await frame();
      const started = performance.now();
      await new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (!count().includes(`“${query}”`) || document.querySelector(".assistant-list[aria-busy]")) return;
          observer.disconnect();
          requestAnimationFrame(resolve);
        });
        observer.observe(document.querySelector("main"), {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
        input.form.requestSubmit();
      });
      times.push(performance.now() - started);
    }
    return times;
  })();
}

/**
 * Opens the list and returns, in ms since navigation start: `at`, the first frame in which it has
 * rows and "New assistant" can be pressed (read in the page); `seen`, when Playwright's own waits
 * for the same saw it (this bench's figure before the list's round trips were cut: it adds them); and the
 * load's phases from the browser's timings.
 */
async function interactive(page, url) {
  await page.goto(url, { waitUntil: "commit" });
  const ready = () => {
    const create = [...document.querySelectorAll("main button")].find((b) => b.textContent === "New assistant");
    return document.querySelector(".assistant-list tbody tr") && create && !create.disabled && performance.now();
  };
  const at = await (await page.waitForFunction(ready, null, { polling: "raf", timeout: 30_000 })).jsonValue();
  await page.locator(".assistant-list tbody tr").first().waitFor();
  await page.getByRole("button", { name: "New assistant" }).and(page.locator(":enabled")).waitFor();
  const seen = await page.evaluate(() => performance.now());
  const phases = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource");
    const end = (test) => Math.max(0, ...resources.filter((e) => test(e.name)).map((e) => e.responseEnd));
    const list = resources.find((e) => e.name.includes("/api/v1/chatbots/?page=1&"));
    return {
      html: performance.getEntriesByType("navigation")[0].responseEnd,
      "shell and page files": end((n) => n.includes("/console/assets/")),
      session: end((n) => n.includes("/auth/sessions/current/")),
      "list asked": list?.startTime ?? NaN,
      "list answered": list?.responseEnd ?? NaN,
    };
  });
  return { at, seen, phases };
}

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

export async function run(ctx) {
  const app = await ctx.app();
  const total = await seed(app);
  const url = `${app.base}/console/assistants`;

  const { context, page } = await openPage(app.browser);
  await signInContext(context, app.base, { apiKey: app.owner.key });
  await interactive(page, url);
  const forward = await page.evaluate(timeRenders, { rounds: PAGES, action: "next" });
  const backward = await page.evaluate(timeRenders, { rounds: PAGES, action: "previous" });
  const renders = [...forward, ...backward];
  // The API's own time for a page, as the browser timed its requests (fetched ahead of "Next").
  const fetches = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/api/v1/chatbots/?"))
      .map((e) => e.duration),
  );
  const searches = await page.evaluate(timeSearches, { rounds: Math.min(PAGES, 80) });
  const p95 = percentile(renders, 95);
  console.log(
    `render a list page of ${total} assistants (Next/Previous; pages fetched ahead; ${renders.length} pages): ` +
      `p50 ${f(renders, 50)} ms, p95 ${f(renders, 95)} ms, max ${Math.max(...renders).toFixed(0)} ms (target ` +
      `p95 <= 100 ms) ${p95 <= 100 ? "PASS" : "FAIL"}`,
  );
  console.log(
    `  a search's first page (never fetched ahead: submit -> rows): p50 ${f(searches, 50)} ms, p95 ` +
      `${f(searches, 95)} ms (${searches.length} searches)`,
  );
  console.log(
    `  the API's time for a page (GET /chatbots/?page=n, as the browser timed it): p50 ${f(fetches, 50)} ms, ` +
      `p95 ${f(fetches, 95)} ms`,
  );
  await context.close();

  const loadBefore = load();
  const cold = [];
  for (let i = 0; i < LOADS; i++) {
    const opened = await openPage(app.browser);
    await signInContext(opened.context, app.base, { apiKey: app.owner.key });
    cold.push(await interactive(opened.page, url));
    await opened.context.close();
  }
  const warmPage = await openPage(app.browser);
  await signInContext(warmPage.context, app.base, { apiKey: app.owner.key });
  await interactive(warmPage.page, url);
  const warm = [];
  for (let i = 0; i < LOADS; i++) warm.push(await interactive(warmPage.page, url));
  await warmPage.context.close();
  const at = (xs) => xs.map((x) => x.at);
  const seen = (xs) => xs.map((x) => x.seen);
  const p50 = percentile(at(cold), 50);
  console.log(
    `navigation -> interactive assistants list (${total} assistants), cold cache: p50 ${f(at(cold), 50)} ms, ` +
      `p95 ${f(at(cold), 95)} ms (${LOADS} loads; goal <= 1000 ms at p50) ${p50 <= 1000 ? "PASS" : "FAIL"}; ` +
      `load average ${loadBefore} before, ${load()} after`,
  );
  console.log(`  warm cache (reload): p50 ${f(at(warm), 50)} ms, p95 ${f(at(warm), 95)} ms`);
  console.log(
    `  as Playwright's waits saw it (plus their round trips): cold p50 ${f(seen(cold), 50)} ms, p95 ` +
      `${f(seen(cold), 95)} ms; warm p50 ${f(seen(warm), 50)} ms, p95 ${f(seen(warm), 95)} ms`,
  );
  const phases = Object.keys(cold[0].phases).map(
    (k) =>
      `${k} ${f(
        cold.map((x) => x.phases[k]),
        50,
      )}`,
  );
  console.log(
    `  cold load, p50 of each step's end (ms since navigation start): ${phases.join(", ")}, interactive ` +
      `${f(at(cold), 50)}`,
  );
}
