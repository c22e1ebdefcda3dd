#!/usr/bin/env node
// Builds everything the worker serves statically: each front end into dist/assets, then those files
// as modules of their own, src/vendor/static-<front end>.js, which wrangler uploads beside the script
// (`find_additional_modules`) and src/routes/static-files.ts imports on the first request for one of
// them. The worker serves them itself, not through wrangler's `[assets]`: the asset router in front
// of the worker cost every API request ~0.5 ms (docs/decisions.md, "The streamed first byte").
// wrangler.toml's `[build]` runs this file, so bare `wrangler dev`, `wrangler deploy` and
// `wrangler deploy --dry-run` build them on a fresh clone; the vitest configs call buildAssets()
// themselves. It runs under whatever `node` is first on PATH (Node 20 included).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { buildWidget } from "./build-widget.mjs";
import { buildConsole } from "./build-console.mjs";
import { buildApiDocs } from "./build-api-docs.mjs";
import { buildVendor, writeIfChanged } from "./build-vendor.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const ASSETS_DIR = path.join(root, "dist", "assets");
const MODULES_DIR = path.join(root, "src", "vendor");

/**
 * One line per static front end: each writes its files under `out` (its own file or folder, whose
 * name names its module) and returns the headers they are served with, by path pattern (`/x/*`: every
 * path under /x/); a file gets every rule that matches it, in order, a later one over an earlier.
 */
const builders = [
  (options) => buildWidget({ ...options, out: ASSETS_DIR }),
  (options) => buildConsole({ ...options, outDir: ASSETS_DIR }),
  (options) => buildApiDocs({ ...options, outDir: ASSETS_DIR }),
];

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};
const TEXT = /^(text\/|application\/json|image\/svg)/;

export async function buildAssets({ quiet = false } = {}) {
  // The worker's own lazily imported modules (src/vendor; docs/decisions.md, "Cold start") too: `npm install` builds
  // them, but a checkout switched since then, or a copy made without the install, still gets them.
  await buildVendor({ quiet: true });
  mkdirSync(ASSETS_DIR, { recursive: true });
  // What older builds left for wrangler's asset router (its `_headers`), which nothing reads now.
  rmSync(path.join(ASSETS_DIR, "_headers"), { force: true });
  const built = [];
  for (const build of builders) built.push(await build({ quiet }));
  writeStaticModules(Object.assign({}, ...built.map((b) => b.headers)));
  return built;
}

/** The headers of the file at `urlPath`: its type, its ETag and every rule whose pattern matches it. */
function headersOf(urlPath, content, rules) {
  const type = TYPES[path.extname(urlPath)] ?? "application/octet-stream";
  const headers = {
    "Content-Type": type,
    ETag: `"${createHash("sha256").update(content).digest("base64url").slice(0, 22)}"`,
  };
  for (const [pattern, values] of Object.entries(rules)) {
    if (pattern.endsWith("/*") ? urlPath.startsWith(pattern.slice(0, -1)) : urlPath === pattern)
      Object.assign(headers, values);
  }
  return headers;
}

/** src/vendor/static-<name>.js for each file or folder at the top of dist/assets: URL path -> headers and body. */
function writeStaticModules(rules) {
  for (const top of readdirSync(ASSETS_DIR, { withFileTypes: true })) {
    const files = top.isDirectory()
      ? readdirSync(path.join(ASSETS_DIR, top.name), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.relative(ASSETS_DIR, path.join(e.parentPath, e.name)))
      : [top.name];
    const entries = {};
    for (const file of files.sort()) {
      const urlPath = `/${file.split(path.sep).join("/")}`;
      const content = readFileSync(path.join(ASSETS_DIR, file));
      const headers = headersOf(urlPath, content, rules);
      entries[urlPath] = TEXT.test(headers["Content-Type"])
        ? { headers, body: content.toString("utf8") }
        : { headers, base64: content.toString("base64") };
    }
    const name = path.basename(top.name, path.extname(top.name));
    writeIfChanged(path.join(MODULES_DIR, `static-${name}.js`), `export default ${JSON.stringify(entries)};\n`);
  }
}

// ASSETS_PREBUILT=1: the caller built them already (the Node tests' `wrangler dev`s, bench/lib.mjs
// startServer's `prebuilt`): each server start would otherwise build them again, and two at once
// would write the same files under each other's reads.
if (import.meta.url === `file://${process.argv[1]}` && process.env.ASSETS_PREBUILT !== "1") await buildAssets();
