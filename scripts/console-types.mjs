#!/usr/bin/env node
// `npm run console:types`: regenerates console/src/api/schema.d.ts and widget/src/api-schema.d.ts
// (openapi-typescript) from the API's OpenAPI document, so the console's and the widget's requests
// and responses are typed by the routes' own zod schemas and a schema change breaks `npm run typecheck`. The document
// is produced offline: the
// worker's app (src/app.ts) is bundled for Node and asked for /api/v1/openapi.json, which touches no
// binding. test/conventions/console-types.test.ts fails when the served document no longer matches
// the hash written into the generated files.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildVendor } from "./build-vendor.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const SCHEMA_FILE = path.join(root, "console", "src", "api", "schema.d.ts");
export const WIDGET_SCHEMA_FILE = path.join(root, "widget", "src", "api-schema.d.ts");
/** The widget calls only its web chat's public endpoints (src/routes/widget). */
const WIDGET_PATHS = "/api/v1/web-chats/{id}/public/";

/** Workers-only modules the document never reaches at run time (sockets, Durable Object base classes). */
const workersStubs = {
  name: "workers-stubs",
  setup(b) {
    b.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: "workers-stub" }));
    b.onLoad({ filter: /.*/, namespace: "workers-stub" }, () => ({
      contents:
        "export class DurableObject {} export class WorkerEntrypoint {} export const env = {}; export " +
        "function waitUntil() {} export function connect() { throw new Error('Workers only'); } export class " +
        "EmailMessage {}",
    }));
  },
};

/** The OpenAPI document as the worker serves it, without `servers` (which names the request's origin). */
export async function openApiDocument() {
  await buildVendor({ quiet: true }); // src/app.ts reaches src/vendor/manifest.json (see scripts/typecheck.mjs)
  const result = await build({
    entryPoints: [path.join(root, "src", "app.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "error",
    plugins: [workersStubs],
    loader: { ".wasm": "empty" },
    // CommonJS dependencies require Node's built-ins.
    banner: {
      js:
        "import { createRequire as __createRequire } from 'node:module'; const require = " +
        "__createRequire(import.meta.url);",
    },
  });
  const dir = mkdtempSync(path.join(tmpdir(), "console-types-"));
  const file = path.join(dir, "app.mjs");
  writeFileSync(file, result.outputFiles[0].contents);
  let fetchApp;
  try {
    ({ fetchApp } = await import(pathToFileURL(file).href));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The API's middleware wraps the D1 binding before any route; the document never queries it.
  const ctx = { waitUntil() {}, passThroughOnException() {} };
  const res = await fetchApp(new Request("http://localhost/api/v1/openapi.json"), { DB: {} }, ctx);
  if (!res.ok) throw new Error(`openapi.json: ${res.status}`);
  const doc = await res.json();
  delete doc.servers;
  return doc;
}

/** What the staleness test compares: the SHA-256 of the document's JSON text. */
export const documentHash = (doc) => createHash("sha256").update(JSON.stringify(doc)).digest("hex");

/** The document with only the paths `keep` accepts, and only the components those paths reach. */
function onlyPaths(doc, keep) {
  const paths = Object.fromEntries(Object.entries(doc.paths).filter(([p]) => keep(p)));
  if (!doc.components) return { ...doc, paths };
  // "#/components/<kind>/<name>" references, followed through the components they name.
  const reached = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/") && !reached.has(v)) {
        reached.add(v);
        const [kind, name] = v.slice("#/components/".length).split("/");
        visit(doc.components[kind]?.[name]);
      } else visit(v);
    }
  };
  visit(paths);
  const components = {};
  for (const [kind, entries] of Object.entries(doc.components)) {
    // Security schemes are named by operations (`security`), not referenced.
    const kept = Object.entries(entries).filter(
      ([name]) => kind === "securitySchemes" || reached.has(`#/components/${kind}/${name}`),
    );
    if (kept.length) components[kind] = Object.fromEntries(kept);
  }
  return { ...doc, paths, components };
}

async function writeTypes(file, doc, hash, command) {
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const types = astToString(await openapiTS(doc));
  const header =
    `// Generated by \`${command}\` from the API's OpenAPI document; do not edit.\n// openapi-sha256: ` + `${hash}\n\n`;
  writeFileSync(file, header + types);
}

export async function generateConsoleTypes({ quiet = false } = {}) {
  const doc = await openApiDocument();
  const hash = documentHash(doc);
  // The console calls /api/v1 only; the /api twins of every path would double the file.
  const v1 = { ...doc, paths: Object.fromEntries(Object.entries(doc.paths).filter(([p]) => p.startsWith("/api/v1/"))) };
  await writeTypes(SCHEMA_FILE, v1, hash, "npm run console:types");
  const widget = onlyPaths(doc, (p) => p.startsWith(WIDGET_PATHS));
  await writeTypes(WIDGET_SCHEMA_FILE, widget, hash, "npm run console:types");
  if (!quiet) {
    console.log(`${path.relative(root, SCHEMA_FILE)}: ${Object.keys(doc.paths).length} paths`);
    console.log(`${path.relative(root, WIDGET_SCHEMA_FILE)}: ${Object.keys(widget.paths).length} paths`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await generateConsoleTypes();
  // Module-level timers of the bundled app would keep Node waiting.
  process.exit(0);
}
