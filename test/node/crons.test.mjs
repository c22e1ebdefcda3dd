// The worker's scheduled handler tells its two jobs apart by the cron string (src/index.ts FOLD_CRON folds the
// conversation search's pending terms; any other runs housekeeping): the strings in wrangler.toml must be those.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { experimental_readRawConfig } from "wrangler";
import { root } from "./support/checkout.mjs";

const { rawConfig: config } = experimental_readRawConfig({ config: path.join(root, "wrangler.toml") });
const source = readFileSync(path.join(root, "src/index.ts"), "utf8");

describe("wrangler.toml's cron triggers", () => {
  it("include the fold cron the scheduled handler compares with, and one more for housekeeping", () => {
    const fold = /const FOLD_CRON = "([^"]+)";/.exec(source)?.[1];
    expect(fold, "src/index.ts declares FOLD_CRON").toBeTruthy();
    const crons = config.triggers?.crons ?? [];
    expect(crons).toContain(fold);
    expect(crons.filter((c) => c !== fold)).toHaveLength(1);
  });
});
