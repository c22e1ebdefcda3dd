// Time from navigation start to an interactive "Models and API keys" page (its models listed and
// its buttons enabled), signed in, in Chromium on `wrangler dev`: a cold cache (a new browser
// context each time), a warm one (reloads), and cold on an emulated slow phone link (150 ms round
// trips, 1.6 Mbit/s down). Target for the first page: <= 1 s (on wrangler dev).
import { percentile } from "../lib.mjs";
import { openPage, signInContext } from "../../test/browser/console-helpers.mjs";

const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 20);
const SLOW_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6e6 / 8) | 0,
  uploadThroughput: (750e3 / 8) | 0,
};
const f = (xs, p) => percentile(xs, p).toFixed(0);

/** performance.now() in the page once the list has rows and "Add model" can be pressed: ms since navigation start. */
async function interactive(page, url) {
  await page.goto(url, { waitUntil: "commit" });
  await page.locator("table tbody tr").first().waitFor();
  await page.getByRole("button", { name: "Add model" }).and(page.locator(":enabled")).waitFor();
  return page.evaluate(() => performance.now());
}

export async function run(ctx) {
  const app = await ctx.app();
  const url = `${app.base}/console/models`;
  const cold = [];
  const slow = [];
  for (let i = 0; i < LOADS; i++) {
    const { context, page } = await openPage(app.browser);
    await signInContext(context, app.base, { apiKey: app.owner.key });
    cold.push(await interactive(page, url));
    await context.close();
  }
  const { context, page } = await openPage(app.browser);
  await signInContext(context, app.base, { apiKey: app.owner.key });
  await interactive(page, url);
  const warm = [];
  for (let i = 0; i < LOADS; i++) warm.push(await interactive(page, url));
  await context.close();
  for (let i = 0; i < Math.max(3, LOADS / 4); i++) {
    const opened = await openPage(app.browser);
    await signInContext(opened.context, app.base, { apiKey: app.owner.key });
    const cdp = await opened.context.newCDPSession(opened.page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
    slow.push(await interactive(opened.page, url));
    await opened.context.close();
  }
  const p50 = percentile(cold, 50);
  console.log(
    `navigation -> interactive models page, cold cache: p50 ${f(cold, 50)} ms, p95 ${f(cold, 95)} ms ` +
      `(${LOADS} loads; target <= 1000 ms at p50) ${p50 <= 1000 ? "PASS" : "FAIL"}`,
  );
  console.log(`  warm cache (reload): p50 ${f(warm, 50)} ms, p95 ${f(warm, 95)} ms`);
  console.log(
    `  cold cache on a slow phone link (150 ms RTT, 1.6 Mbit/s): p50 ${f(slow, 50)} ms, p95 ${f(slow, 95)} ms ` +
      `(${slow.length} loads)`,
  );
}
