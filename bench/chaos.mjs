// `npm run chaos [-- <scenario> ...]`: fault scenarios at scale against `wrangler dev`, one table row
// (or more) each: fault, operations, lost, duplicated, 5xx answers, time to recover.
//
// A scenario is one file, bench/chaos/<name>.mjs (files starting with _ are helpers):
//   export const description = "...";  // one line, shown by `--list`
//   export const long = true;          // real-time scenarios run only when named, or with --all
//   export async function prepare() { return { vars, context, close } } // optional: local fakes the
//                                      // server must know (`wrangler dev --var`s), stopped by close()
//   export default async function (ctx) { return [row, ...] }
// where ctx = { server, api, request, log, ...context }: `server` is bench/lib.mjs's startServer()
// result (a fresh worker on its own state and port), `request(method, path, body?)` calls
// `/api/v1${path}` and counts 5xx answers, `api` is the same but throws on a non-2xx answer, and a
// row is { fault, operations, lost, duplicated, recovery (string), note?, serverErrors? (5xx the
// scenario saw through its own fetches) }; the runner adds the 5xx count of `request` and `api`.
//
// No scenario named: every one not marked `long`. `--all`: all of them. `--list`: names and descriptions.
// Ports: the worker of the i-th scenario on 9050 + i, its inspector on 9080 + i (CHAOS_PORT moves the 9050).
// Miniflare keeps queue messages in memory: anything that makes `wrangler dev` reload (a rebuild of
// dist/assets, which `npm test` does) drops delayed ones, so run nothing else in this checkout meanwhile.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startServer } from "./lib.mjs";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "chaos");
const PORT = Number(process.env.CHAOS_PORT ?? 9050);
const INSPECTOR_PORT = PORT + 30;

async function load() {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs") && !f.startsWith("_"))
    .map((f) => f.slice(0, -4))
    .sort();
  return Promise.all(
    names.map(async (name) => ({ name, ...(await import(pathToFileURL(path.join(dir, `${name}.mjs`)).href)) })),
  );
}

/** `request` and `api` for a scenario: JSON in and out, 5xx answers counted. */
function client(server, counts) {
  async function request(method, urlPath, body) {
    const res = await fetch(`${server.base}/api/v1${urlPath}`, {
      method,
      headers: { ...server.headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 500) counts.serverErrors++;
    const text = await res.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, json, text };
  }
  async function api(method, urlPath, body) {
    const res = await request(method, urlPath, body);
    if (res.status >= 300) throw new Error(`${method} ${urlPath}: ${res.status} ${res.text.slice(0, 500)}`);
    return res.json;
  }
  return { request, api };
}

function table(rows) {
  const head = ["fault", "operations", "lost", "duplicated", "5xx", "time to recover"];
  const lines = rows.map((r) => [r.fault, r.operations, r.lost, r.duplicated, r.serverErrors, r.recovery].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.map(line)].join("\n");
}

export default async function chaos(args = process.argv.slice(2)) {
  const scenarios = await load();
  if (args.includes("--list")) {
    for (const s of scenarios) console.log(`${s.name}${s.long ? " (long)" : ""}: ${s.description}`);
    return;
  }
  const named = args.filter((a) => !a.startsWith("--"));
  const unknown = named.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length) {
    console.error(`unknown scenario(s): ${unknown.join(", ")}\navailable: ${scenarios.map((s) => s.name).join(", ")}`);
    process.exitCode = 2;
    return;
  }
  const chosen = scenarios.filter((s) => (named.length ? named.includes(s.name) : args.includes("--all") || !s.long));
  const rows = [];
  for (const [i, scenario] of chosen.entries()) {
    const started = Date.now();
    console.log(`# ${scenario.name}: ${scenario.description}`);
    const prepared = (await scenario.prepare?.()) ?? {};
    const server = await startServer({ port: PORT + i, vars: prepared.vars ?? {}, inspectorPort: INSPECTOR_PORT + i });
    const counts = { serverErrors: 0 };
    try {
      const produced = await scenario.default({
        ...prepared.context,
        server,
        ...client(server, counts),
        log: (m) => console.log(`  ${m}`),
      });
      for (const row of produced) rows.push({ ...row, serverErrors: counts.serverErrors + (row.serverErrors ?? 0) });
    } catch (err) {
      console.error(err);
      rows.push({
        fault: `${scenario.name}: failed (${String(err.message ?? err).slice(0, 80)})`,
        operations: "-",
        lost: "-",
        duplicated: "-",
        recovery: "-",
        serverErrors: counts.serverErrors,
      });
      process.exitCode = 1;
    } finally {
      await server.stop();
      await prepared.close?.();
    }
    console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  console.log(`\n${table(rows)}`);
  for (const r of rows.filter((r) => r.note)) console.log(`- ${r.fault}: ${r.note}`);
  if (rows.some((r) => r.lost || r.duplicated || r.serverErrors)) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await chaos();
