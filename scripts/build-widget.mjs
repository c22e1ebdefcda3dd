#!/usr/bin/env node
// Builds the embeddable chat (widget/src) into widget/dist, the worker's static assets (wrangler
// `[assets]`): widget.js, minified. Run by `npm run dev`, `npm test` (vitest.config.ts) and deploy.
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const out = path.join(root, "widget", "dist");

export async function buildWidget({ quiet = false } = {}) {
  mkdirSync(out, { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, "widget", "src", "main.ts")],
    outfile: path.join(out, "widget.js"),
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    legalComments: "none",
    write: false,
  });
  const js = result.outputFiles[0].contents;
  writeFileSync(path.join(out, "widget.js"), js);
  // Sites embed the script from anywhere; a short cache so that a new version reaches them soon.
  writeFileSync(path.join(out, "_headers"), "/widget.js\n  Cache-Control: public, max-age=300\n  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n");
  const gzip = gzipSync(js, { level: 9 }).length;
  if (!quiet) console.log(`widget.js: ${js.length} bytes, ${gzip} bytes gzip`);
  return { bytes: js.length, gzip };
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWidget();
