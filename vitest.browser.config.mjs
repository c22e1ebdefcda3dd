// The browser tests (test/browser): real Chromium against `wrangler dev`, in Node. Kept apart from
// vitest.config.ts, whose Workers pool runs every test inside the worker runtime.
import { defineConfig } from "vitest/config";
import { buildWidget } from "./scripts/build-widget.mjs";
import { buildConsoleBesideWidget } from "./scripts/build-console.mjs";

export default defineConfig(async () => {
  await buildWidget({ quiet: true });
  await buildConsoleBesideWidget({ quiet: true });
  return {
    test: {
      name: "browser",
      environment: "node",
      include: ["test/browser/**/*.test.mjs"],
      testTimeout: 90_000,
      hookTimeout: 120_000,
      fileParallelism: false,
    },
  };
});
