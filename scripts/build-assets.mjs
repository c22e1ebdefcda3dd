#!/usr/bin/env node
// Builds everything the worker serves statically into dist/assets (wrangler.toml `[assets]`).
// wrangler.toml's `[build]` runs this file, so bare `wrangler dev`, `wrangler deploy` and
// `wrangler deploy --dry-run` build the assets on a fresh clone; the vitest configs call
// buildAssets() themselves. It runs under whatever `node` is first on PATH (Node 20 included).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildWidget } from "./build-widget.mjs";
import { buildConsole } from "./build-console.mjs";
import { buildVendor } from "./build-vendor.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const ASSETS_DIR = path.join(root, "dist", "assets");

/** One line per static front end: each writes its files under `out` and returns its `_headers` lines. */
const builders = [
  (options) => buildWidget({ ...options, out: ASSETS_DIR }),
  (options) => buildConsole({ ...options, outDir: ASSETS_DIR }),
];

export async function buildAssets({ quiet = false } = {}) {
  // The worker's own lazily imported modules (src/vendor, issue 26) too: `npm install` builds them,
  // but a checkout switched since then, or a copy made without the install, still gets them.
  await buildVendor({ quiet: true });
  mkdirSync(ASSETS_DIR, { recursive: true });
  const built = [];
  for (const build of builders) built.push(await build({ quiet }));
  // Cloudflare reads one `_headers` file at the root of the assets (and never serves it).
  writeFileSync(path.join(ASSETS_DIR, "_headers"), built.map((b) => b.headers ?? "").join(""));
  return built;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildAssets();
