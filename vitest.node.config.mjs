// Tests in Node against `wrangler dev`: real Chromium (test/browser) and a newcomer's first hour with
// the README's own commands (test/node). Kept apart from vitest.config.ts, whose Workers pool runs
// every test inside the worker runtime.
import { defineConfig } from "vitest/config";
import { buildAssets } from "./scripts/build-assets.mjs";

export default defineConfig(async () => {
  // Unless `npm test` (scripts/test.mjs) built them once for the runs it starts at once.
  if (!process.env.TEST_ASSETS_BUILT) await buildAssets({ quiet: true });
  return {
    test: {
      name: "node",
      environment: "node",
      include: ["test/browser/**/*.test.mjs", "test/node/**/*.test.mjs"],
      setupFiles: ["./test/support/node-teardown.mjs"],
      globalSetup: ["./test/support/worker-bundle.mjs", "./test/support/chromium-servers.mjs"],
      testTimeout: 120_000,
      // A browser's page updates after a live event or a request; with two files at once on two cores
      // that can take seconds, so a condition is polled for 10 s, not vitest's 1 s, before it fails.
      expect: { poll: { timeout: 10_000 } },
      hookTimeout: 120_000,
      // Two files at once: most of a file's time is spent waiting (on wrangler's start, on Chromium, on
      // the worker's answers), so two overlap well on two cores. Each file starts its own `wrangler
      // dev` and connects to its worker's Chromium (test/support/chromium-servers.mjs); test/support/test-ports.mjs
      // gives each worker ports of its own.
      fileParallelism: true,
      maxWorkers: 2,
    },
  };
});
