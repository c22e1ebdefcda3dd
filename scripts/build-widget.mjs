#!/usr/bin/env node
// Builds the embeddable chat (widget/src) into the worker's static assets folder (dist/assets, see
// scripts/build-assets.mjs, which runs every builder): widget.js, minified.
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Writes widget.js into `out`; returns its sizes and the headers it is served with (by path pattern). */
export async function buildWidget({ out, quiet = false }) {
  mkdirSync(out, { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, "widget", "src", "main.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    legalComments: "none",
    write: false,
  });
  const js = result.outputFiles[0].contents;
  writeFileSync(path.join(out, "widget.js"), js);
  const gzip = gzipSync(js, { level: 9 }).length;
  if (!quiet) console.log(`widget.js: ${js.length} bytes, ${gzip} bytes gzip`);
  // Sites embed the script from anywhere; a short cache so that a new version reaches them soon.
  const headers = {
    "/widget.js": {
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
    },
  };
  return { bytes: js.length, gzip, headers };
}
