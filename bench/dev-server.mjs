// `node bench/dev-server.mjs <root> <port> <state> <vars JSON> [options JSON]`: the worker of checkout `root` as
// `wrangler dev` runs it, started through wrangler's own API with its DevTools inspector off (the
// CLI has no switch for it). With the inspector on and no DevTools window open, wrangler's relay
// parses every console line the worker writes, posts it to wrangler's Node process as a debug log
// and keeps it in a buffer drained only when DevTools connect: ~1.4 ms of CPU per request line here,
// which a deployed worker does not pay (docs/decisions.md, "One conversation again"). bench/lib.mjs's
// startServer({ devtools: false }) runs it; it prints one line `ready <the runtime's own URL>` once the worker answers,
// and stops the worker on SIGTERM.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [root, port, state, vars, options = "{}"] = process.argv.slice(2);
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
});
const worker = await devEnv.startWorker({
  config: path.join(root, "wrangler.toml"),
  dev: { server: { hostname: "127.0.0.1", port: Number(port) }, inspector: false, persist: state, logLevel: "error" },
  bindings,
  ...JSON.parse(options), // e.g. compatibilityDate and compatibilityFlags for a wrangler.toml without them
});
await worker.ready;
// The event that names it may come just after `ready`.
for (const until = Date.now() + 5_000; !runtimeUrl && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
console.log(`ready ${runtimeUrl ?? ""}`.trim());
process.once("SIGTERM", () => worker.dispose().finally(() => process.exit(0)));
