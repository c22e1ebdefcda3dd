// Time from dropping a file on the "Knowledge bases" page to its upload finished (the progress bar
// full, the file attached) and to its row showing "Done" (ingestion followed by polling, once a
// second), in Chromium on `wrangler dev` with the built-in models. One file at a time, a fresh one each.
import { percentile, LOCAL_KB_MODELS } from "../lib.mjs";
import { openPage, signInContext } from "../../test/browser/console-helpers.mjs";

const FILES = Number(process.env.BENCH_KNOWLEDGE_FILES ?? 10);
/** About 20 kB of prose, different for each file. */
const text = (i) =>
  Array.from(
    { length: 200 },
    (_, j) => `Paragraph ${j} of article ${i}: parcels ship from the warehouse and refunds take fourteen days.`,
  ).join("\n");
const f = (xs, p) => percentile(xs, p).toFixed(0);

export async function run(ctx) {
  const app = await ctx.app();
  const kb = await app.server.api("/knowledge-bases/", {
    body: {
      name: "Bench uploads",
      ...LOCAL_KB_MODELS,
    },
  });
  const { context, page } = await openPage(app.browser);
  await signInContext(context, app.base, { apiKey: app.owner.key });
  await page.goto(`${app.base}/console/knowledge-bases/${kb.id}`);
  await page.locator(".kb-drop").waitFor();
  const uploaded = [];
  const done = [];
  for (let i = 0; i < FILES; i++) {
    const name = `article-${i}.txt`;
    const started = await page.evaluate(
      ([name, body]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([body], name, { type: "text/plain" }));
        const at = performance.now();
        document
          .querySelector(".kb-drop")
          .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
        return at;
      },
      [name, text(i)],
    );
    await page.locator(".kb-upload", { hasText: name }).getByText("Uploaded; ingestion below").waitFor();
    uploaded.push((await page.evaluate(() => performance.now())) - started);
    await page
      .getByRole("row", { name: new RegExp(name) })
      .getByText("Done", { exact: true })
      .waitFor({ timeout: 60_000 });
    done.push((await page.evaluate(() => performance.now())) - started);
  }
  await context.close();
  console.log(
    `drop -> uploaded and attached (20 kB file): p50 ${f(uploaded, 50)} ms, p95 ${f(uploaded, 95)} ms (${FILES} files)`,
  );
  console.log(`drop -> "Done" shown (upload, ingestion, 1 s polling): p50 ${f(done, 50)} ms, p95 ${f(done, 95)} ms`);
}
