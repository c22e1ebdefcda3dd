// `node bench/dev-server.mjs <root> <port> <state> <vars JSON> [options JSON]`: the worker of checkout `root` as
// `wrangler dev` runs it, started through wrangler's own API with its DevTools inspector off (the
// CLI has no switch for it). With the inspector on and no DevTools window open, wrangler's relay
// parses every console line the worker writes, posts it to wrangler's Node process as a debug log
// and keeps it in a buffer drained only when DevTools connect: ~1.4 ms of CPU per request line here,
// which a deployed worker does not pay (docs/decisions.md, "One conversation again"). bench/lib.mjs's
// startServer({ devtools: false }) runs it; it prints one line `ready <the runtime's own URL>` once the worker answers,
// and stops the worker on SIGTERM.
// Two options of its own (not wrangler's) run it without bundling the worker each time: `saveBundle`, a folder
// (that does not exist yet) to save the worker as wrangler bundled it, and `bundle`, such a folder to run as it is
// (bench/lib.mjs, startServer's `bundle`, says why).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [root, port, state, vars, optionsJson = "{}"] = process.argv.slice(2);
const { saveBundle, bundle: saved, ...options } = JSON.parse(optionsJson);
/** The names of wrangler's module rules (wrangler.toml's `[[rules]]`) by the module types of a bundle. */
const RULE_TYPES = {
  esm: "ESModule",
  commonjs: "CommonJS",
  "compiled-wasm": "CompiledWasm",
  text: "Text",
  buffer: "Data",
};
/** A saved bundle's modules: their types by name (its modules.json, written by `save` below). */
const savedTypes = saved ? JSON.parse(readFileSync(path.join(saved, "modules.json"), "utf8")) : {};
// This checkout's wrangler, as `wrangler dev` on the benchmark's PATH is for every side.
const own = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const wrangler = await import(pathToFileURL(path.join(own, "node_modules/wrangler/wrangler-dist/cli.js")).href);
process.chdir(root); // wrangler.toml's [build] runs where `wrangler dev` would run it
const bindings = Object.fromEntries(
  Object.entries(JSON.parse(vars)).map(([name, value]) => [name, { type: "plain_text", value: String(value) }]),
);
// The runtime's own address, behind wrangler's proxy worker (which `wrangler dev` puts in front of
// every request, and a deployed worker does not have): printed for measures that leave it out.
const devEnv = new wrangler.unstable_DevEnv();
let runtimeUrl = null;
devEnv.on("reloadComplete", (event) => {
  const { protocol, hostname, port } = event.proxyData?.userWorkerUrl ?? {};
  if (hostname) runtimeUrl = `${protocol}//${hostname}:${port}`;
  // Saved once the runtime has loaded it (seconds after `ready` below, which is wrangler's proxy's).
  if (saveBundle && !saved && event.bundle && !existsSync(saveBundle)) save(event.bundle, saveBundle);
  // A saved module the rules did not find would fail only when the worker imports it: stopped now instead.
  const found = new Set(event.bundle?.modules.map((m) => path.posix.normalize(m.name)));
  const missing = saved && event.bundle ? Object.keys(savedTypes).filter((name) => !found.has(name)) : [];
  if (missing.length > 0) {
    console.error(`the saved bundle ${saved} ran without ${missing.join(", ")}`);
    process.exit(1);
  }
});
// A saved bundle is as old as this start: a source changed while wrangler bundled is newer, and bundles again.
const started = new Date();
const worker = await devEnv.startWorker({
  config: path.join(root, "wrangler.toml"),
  dev: { server: { hostname: "127.0.0.1", port: Number(port) }, inspector: false, persist: state, logLevel: "error" },
  bindings,
  ...(saved ? savedBundle(saved, savedTypes) : {}),
  ...options, // e.g. compatibilityDate and compatibilityFlags for a wrangler.toml without them
});
await worker.ready;
// The event that names it may come just after `ready` (seconds after, on a busy machine).
for (const until = Date.now() + 60_000; !runtimeUrl && Date.now() < until; )
  await new Promise((r) => setTimeout(r, 20));
console.log(`ready ${runtimeUrl ?? ""}`.trim());
process.once("SIGTERM", () => worker.dispose().finally(() => process.exit(0)));

/**
 * Writes the bundle wrangler ran (its entry point and every module beside it, by the names it imports them by) into
 * the folder `dir`, whole or not at all: several servers starting at once may each save theirs, and the first kept.
 */
function save({ entry, entrypointSource, modules }, dir) {
  // Not saved: a worker that is not an ES module, or a kind of module no rule can name.
  if (!entry.exports?.includes("default") || modules.some((m) => !RULE_TYPES[m.type])) return;
  const partial = `${dir}.${process.pid}`;
  mkdirSync(partial, { recursive: true });
  // The bundle is a module of its own, and the entry point names its exports: wrangler reads the entry point's
  // exports with esbuild at each start, 1.6 s of CPU over the 6 MB bundle and nothing over these lines.
  writeFileSync(path.join(partial, "worker.js"), entrypointSource);
  writeFileSync(path.join(partial, "index.js"), `export { ${entry.exports.join(", ")} } from "./worker.js";\n`);
  const types = { "worker.js": "ESModule" };
  for (const module of modules) {
    const name = path.posix.normalize(module.name);
    mkdirSync(path.dirname(path.join(partial, name)), { recursive: true });
    writeFileSync(path.join(partial, name), module.content ?? readFileSync(module.filePath));
    types[name] = RULE_TYPES[module.type];
  }
  writeFileSync(path.join(partial, "modules.json"), JSON.stringify(types));
  utimesSync(path.join(partial, "modules.json"), started, started);
  try {
    renameSync(partial, dir);
  } catch (err) {
    if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST") throw err;
    rmSync(partial, { recursive: true, force: true }); // another server's saved already
  }
}

/**
 * startWorker's options to run a bundle `save` wrote as it is: no `[build]` command, no esbuild; each module found
 * beside the entry point by its name in a rule of the type it had in the bundle.
 */
function savedBundle(dir, types) {
  return {
    entrypoint: path.join(dir, "index.js"),
    build: {
      bundle: false,
      custom: { command: "" },
      // One rule a type: wrangler keeps only the first of several rules of one type (without `fallthrough`).
      moduleRules: Object.values(RULE_TYPES)
        .map((type) => ({
          type,
          globs: Object.keys(types).filter((name) => types[name] === type),
        }))
        .filter((rule) => rule.globs.length > 0),
    },
  };
}
