// `node bench/dev-server.mjs <root> <port> <state> <vars JSON>`: the worker of checkout `root` as
// `wrangler dev` runs it, started through wrangler's own API with its DevTools inspector off (the
// CLI has no switch for it). With the inspector on and no DevTools window open, wrangler's relay
// parses every console line the worker writes, posts it to wrangler's Node process as a debug log
// and keeps it in a buffer drained only when DevTools connect: ~1.4 ms of CPU per request line here,
// which a deployed worker does not pay (docs/decisions.md, "One conversation again"). bench/lib.mjs's
// startServer({ devtools: false }) runs it; it prints one line `ready` once the worker answers,
// and stops the worker on SIGTERM.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [root, port, state, vars] = process.argv.slice(2);
// This checkout's wrangler, as `wrangler dev` on the benchmark's PATH is for every side.
const own = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { unstable_startWorker } = await import(pathToFileURL(path.join(own, "node_modules/wrangler/wrangler-dist/cli.js")).href);
process.chdir(root); // wrangler.toml's [build] runs where `wrangler dev` would run it
const bindings = Object.fromEntries(Object.entries(JSON.parse(vars)).map(([name, value]) => [name, { type: "plain_text", value: String(value) }]));
const worker = await unstable_startWorker({
  config: path.join(root, "wrangler.toml"),
  dev: { server: { hostname: "127.0.0.1", port: Number(port) }, inspector: false, persist: state, logLevel: "error" },
  bindings,
});
await worker.ready;
console.log("ready");
process.once("SIGTERM", () => worker.dispose().finally(() => process.exit(0)));
