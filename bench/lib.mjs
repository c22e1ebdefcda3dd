// Shared by the benchmarks: a local `wrangler dev` on fresh state, with the per-key rate limit
// raised so that the limiter still counts every request but does not cut the load short, and
// without wrangler's local trace recorder (X_LOCAL_OBSERVABILITY, on by default): it writes every
// request's spans to a SQLite file in the same process, which grows by megabytes a minute under
// load and slows every request more the longer a run lasts. Deployed workers have no such cost.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

export function newKey() {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return "ak_" + [...randomBytes(40)].map((b) => alphabet[b % 62]).join("");
}

/** Starts the worker locally on fresh state; resolves once it answers. */
export async function startServer({ port = 8788, vars = {}, state: reuse, key: givenKey } = {}) {
  // wrangler.toml's `[assets]` (the chat widget) must exist before wrangler starts.
  await (await import("../scripts/build-widget.mjs")).buildWidget({ quiet: true });
  await (await import("../scripts/build-console.mjs")).buildConsoleBesideWidget({ quiet: true });
  // `state` (and the `key` it was bootstrapped with) restarts on the state of an earlier server stopped with `keep`.
  const state = reuse ?? mkdtempSync(path.join(tmpdir(), "bench-state-"));
  const key = givenKey ?? newKey();
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", X_LOCAL_OBSERVABILITY: "false" };
  const migrate = spawnSync("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { cwd: root, env, encoding: "utf8" });
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);
  const varArgs = Object.entries({ BOOTSTRAP_API_KEY: key, ENCRYPTION_KEY: "bench", RATE_LIMIT_PER_MINUTE: "100000000", ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn("wrangler", ["dev", "--port", String(port), "--persist-to", state, "--log-level", "error", ...varArgs], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  // BENCH_LOG=file keeps the server's own output (errors of queue consumers, say) for a look afterwards.
  if (process.env.BENCH_LOG) {
    const { createWriteStream } = await import("node:fs");
    const log = createWriteStream(process.env.BENCH_LOG);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  if (Date.now() >= deadline) {
    child.kill();
    throw new Error(`server did not start:\n${output}`);
  }
  const headers = { Authorization: `Api-Key ${key}` };
  return {
    base,
    key,
    headers,
    /** The `wrangler dev` process: its workerd processes are its descendants. */
    pid: child.pid,
    /** A JSON (or multipart `form`) request to `/api/v1${path}`; throws on a non-2xx answer, returns the parsed body. */
    async api(path, { method = "POST", body, form } = {}) {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: form ? headers : { ...headers, "Content-Type": "application/json" },
        body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 2000)}`);
      return text ? JSON.parse(text) : null;
    },
    state,
    async stop({ keep = false } = {}) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      if (!keep) rmSync(state, { recursive: true, force: true });
    },
  };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Flags for Debian's Chromium on this machine (its closed network refuses Google's background connections). */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Headless Debian Chromium through playwright-core (never a downloaded browser). */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
}
