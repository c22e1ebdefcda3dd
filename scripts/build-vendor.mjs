#!/usr/bin/env node
// Builds libraries the worker uses rarely, and that cost every cold start when bundled into the
// script (by their size, or by the node: modules they import), into modules of their own,
// src/vendor/*.js, which wrangler uploads beside the script (wrangler.toml
// `find_additional_modules`) and src/vendored.ts imports on first use. Run by `npm install`
// (postinstall), so they follow the installed versions; `npm run build:vendor` by hand.
// docs/decisions.md, "Cold start".
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compatibility } from "./wrangler-toml.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const out = path.join(root, "src", "vendor");

/**
 * Module name -> what it exports. pdf.js (through unpdf) was a third of the worker's script; the
 * PostgreSQL driver and the spreadsheet writer import node:stream, node:fs and node:events, which
 * the bundler hoists to the top of the script, so workerd evaluated them at every cold start.
 */
export const VENDOR_MODULES = {
  pdf: `export { extractTextItems, getDocumentProxy, getMeta } from "unpdf";`,
  postgres: `export { default } from "postgres";`,
  xlsx: `export { default } from "write-excel-file/node";`,
  // ~78 KB, of which 46 KB are HTML entities; only e-mail inboxes read MIME (services/channels/email.ts).
  postalMime: `export { default } from "postal-mime";`,
  // grammY's Bot API client (~45 KB): only Telegram inboxes call it (services/channels/telegram.ts).
  grammy: `export { Api, GrammyError, HttpError } from "grammy/web";`,
};

/**
 * Module name -> a source file bundled into the text the module exports (with wrangler.toml's `compatibilityDate` and
 * a hash of both, `version`): the code of
 * a Dynamic Worker, which the Worker Loader takes as text. Function tools run in one, QuickJS bundled in, its
 * WebAssembly left to the module "quickjs.wasm" the worker hands over (docs/decisions.md, "Function tools: an isolate
 * of their own").
 */
export const ISOLATE_MODULES = {
  functionIsolate: "src/services/tools/function-isolate.ts",
};

/** The QuickJS WebAssembly, imported by the isolate from the module the worker gives it. */
const quickJsWasm = {
  name: "quickjs-wasm",
  setup(build) {
    build.onResolve({ filter: /quickjs-wasmfile-release-sync\/wasm$/ }, () => ({
      path: "./quickjs.wasm",
      external: true,
    }));
  },
};

/**
 * write-excel-file removes from every text what it takes for invalid in XML, silently, and more than XML forbids:
 * U+FFFD, the C1 controls and the noncharacters went too. Its remover is replaced by src/lib/xml-characters.ts, which
 * keeps what XML allows and puts U+FFFD for the rest, so a cell shows where a character could not be written.
 */
const xmlCharacters = {
  name: "xml-characters",
  setup(build) {
    let replaced = false;
    build.onResolve({ filter: /\/removeInvalidXmlCharacters\.js$/ }, (args) => {
      if (!args.importer.includes(`${path.sep}write-excel-file${path.sep}`)) return undefined;
      replaced = true;
      return { path: path.join(root, "src", "lib", "xml-characters.ts") };
    });
    // A new version that moved the remover would drop the characters again without a word.
    build.onEnd((result) => {
      if (!replaced && result.errors.length === 0)
        throw new Error("build-vendor: write-excel-file's removeInvalidXmlCharacters.js was not found to replace");
    });
  },
};

export async function buildVendor({ quiet = false } = {}) {
  const { build } = await import("esbuild");
  mkdirSync(out, { recursive: true });
  const manifest = {};
  const bundle = async (entry) => {
    const result = await build({
      ...entry,
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      // As wrangler resolves packages for workerd.
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["browser", "module", "main"],
      target: "es2022",
      // Provided by workerd (nodejs_compat), imported when the module is.
      external: ["node:*", "cloudflare:*"],
      legalComments: "none",
      write: false,
      logLevel: "error",
    });
    return result.outputFiles[0].contents;
  };
  const write = (name, js) => {
    writeIfChanged(path.join(out, `${name}.js`), js);
    manifest[name] = js.length;
    if (!quiet) console.log(`src/vendor/${name}.js: ${js.length} bytes`);
  };
  for (const [name, source] of Object.entries(VENDOR_MODULES)) {
    const plugins = name === "xlsx" ? [xmlCharacters] : [];
    write(name, await bundle({ stdin: { contents: source, resolveDir: root, loader: "js" }, plugins }));
  }
  for (const [name, file] of Object.entries(ISOLATE_MODULES)) {
    const text = Buffer.from(await bundle({ entryPoints: [path.join(root, file)], plugins: [quickJsWasm] })).toString();
    // The isolate runs on the worker's own runtime: a new date is a new isolate, as new code is.
    const { compatibilityDate } = compatibility(root);
    const version = createHash("sha256").update(`${compatibilityDate}\n${text}`).digest("hex").slice(0, 16);
    write(
      name,
      `export const version = "${version}";\nexport const compatibilityDate = "${compatibilityDate}";\n` +
        `export default ${JSON.stringify(text)};\n`,
    );
  }
  // Imported by src/vendored.ts, so that a build without the modules fails with a clear error.
  writeIfChanged(path.join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Unchanged files keep their time, so `wrangler dev` does not reload for nothing. */
export function writeIfChanged(file, contents) {
  let current;
  try {
    current = readFileSync(file);
  } catch {
    current = null;
  }
  if (!current || Buffer.compare(current, Buffer.from(contents)) !== 0) writeFileSync(file, contents);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await buildVendor();
  } catch (err) {
    // An install without devDependencies (no esbuild) must not fail; building the worker then
    // reports the missing modules (src/vendored.ts).
    if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    console.warn(`build-vendor: skipped (${err.message.split("\n")[0]})`);
  }
}
