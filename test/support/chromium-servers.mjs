// A global setup of vitest.node.config.mjs: one Chromium for each of the suite's workers, started once for the run.
// A file connects to its worker's (bench/lib.mjs, launchChromium) instead of starting its own: a start and a first page
// cost ~5 s of CPU on this machine, 32 times a run. Each file still has contexts of its own, and its connection's
// `close()` closes every context it made (docs/decisions.md, "The browser tests, straight at the runtime").
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../../bench/lib.mjs";

/** As many as vitest.node.config.mjs runs files at once. */
export default async function setup({ config }) {
  const servers = await Promise.all(
    Array.from({ length: config.maxWorkers }, () =>
      chromium.launchServer({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS, headless: true }),
    ),
  );
  // Read by the workers, which start after the global setup with its environment.
  process.env.CHROMIUM_ENDPOINTS = JSON.stringify(servers.map((s) => s.wsEndpoint()));
  return () => Promise.all(servers.map((s) => s.close()));
}
