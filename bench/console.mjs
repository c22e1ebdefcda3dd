// `npm run bench -- console [measure ...]`: what the operator console costs, one measure per file
// of bench/console/ (all of them without arguments). Each exports `run(ctx)` and prints its own
// figures; `ctx.app()` starts one `wrangler dev` with Chromium, shared by the measures that need it
// (test/browser/console-helpers.mjs startConsole: the bootstrap owner signed in with a key).
// A page's measure is a new file there, e.g. bench/console/assistants-list.mjs.
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startConsole } from "../test/browser/console-helpers.mjs";

const dir = path.join(import.meta.dirname, "console");

export default async function (args) {
  const available = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .map((f) => f.slice(0, -4))
    .sort();
  const wanted = args.length ? args : available;
  const unknown = wanted.filter((m) => !available.includes(m));
  if (unknown.length) throw new Error(`unknown measure(s) ${unknown.join(", ")}; available: ${available.join(", ")}`);
  let app;
  const ctx = { app: async () => (app ??= await startConsole()) };
  try {
    for (const name of wanted) {
      const measure = await import(pathToFileURL(path.join(dir, `${name}.mjs`)).href);
      console.log(`\n# ${name}`);
      await measure.run(ctx);
    }
  } finally {
    await app?.close();
  }
}
