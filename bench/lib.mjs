// Shared by the benchmarks: a local `wrangler dev` on fresh state, with the per-key rate limit
// raised so that the limiter still counts every request but does not cut the load short, and
// without wrangler's local trace recorder (X_LOCAL_OBSERVABILITY, on by default): it writes every
// request's spans to a SQLite file in the same process, which grows by megabytes a minute under
// load and slows every request more the longer a run lasts. Deployed workers have no such cost.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { applyAll } from "../scripts/d1-migrate.mjs";
import { compatibility } from "../scripts/wrangler-toml.mjs";
import { UPSTREAM_API_KEY } from "../test/support/openai-upstream.mjs";
// The service's own seeded PRNG (Node 24 strips the file's types), so every run of a bench draws the same data.
export { prng } from "../src/lib/random.ts";
export { uuidv7At } from "../test/support/ids.ts";

/** The built-in models (migrations/0001_seed_builtin_models.sql): the local chat model, embedding model, reranker. */
export const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";
export const LOCAL_EMBEDDING = "00000000-0000-7000-8000-000000000002";
export const LOCAL_RERANKER = "00000000-0000-7000-8000-000000000003";
/** A knowledge base's models, both built in: what every bench's base is made with. */
export const LOCAL_KB_MODELS = { embeddingModel: LOCAL_EMBEDDING, rerankerModel: LOCAL_RERANKER };

const ownRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

export function newKey() {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return `ak_${[...randomBytes(40)].map((b) => alphabet[b % 62]).join("")}`;
}

/**
 * Starts the worker locally on fresh state; resolves once it answers. `root` runs another checkout
 * of the project (a baseline, side by side); `inspectorPort` is wrangler's devtools port (default: `port` + 1000);
 * `devtools: false` starts it without that inspector (bench/dev-server.mjs says why); `prebuilt: true`
 * when the caller has built the static assets (scripts/build-assets.mjs) already, which wrangler.toml's
 * `[build]` would otherwise build again on every start. `bundle` (WORKER_BUNDLE in the environment by default; this
 * checkout's, with `devtools: false`): a folder, shared by the servers of one run, where the first to start saves the
 * worker as wrangler bundled it and the later ones run that bundle as it is: esbuild over src/ is ~4 s of CPU a start,
 * the same bundle each time while the sources do not change (a source changed since it was saved bundles again).
 */
export async function startServer({
  port = 8788,
  vars = {},
  state: reuse,
  key: givenKey,
  root = ownRoot,
  inspectorPort,
  devtools = true,
  prebuilt = false,
  bundle = root === ownRoot && !devtools ? process.env.WORKER_BUNDLE : undefined,
  direct = false,
} = {}) {
  // wrangler.toml's `[build]` builds the assets; a baseline checkout older than it (06f2be4) serves
  // widget/dist, which must exist before wrangler starts.
  if (!existsSync(path.join(root, "scripts", "build-assets.mjs"))) {
    await (await import(pathToFileURL(path.join(root, "scripts", "build-widget.mjs")).href)).buildWidget({
      quiet: true,
    });
  }
  // `state` (and the `key` it was bootstrapped with) restarts on the state of an earlier server stopped with `keep`.
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CI: "1",
    X_LOCAL_OBSERVABILITY: "false",
    ...(prebuilt ? { ASSETS_PREBUILT: "1" } : {}),
  };
  const state = reuse ?? (await migratedState(root, env));
  const key = givenKey ?? newKey();
  // Registration is closed by wrangler.toml; benches and browser tests register users, as `npm run dev` lets a
  // developer do.
  // No BOOTSTRAP_PASSWORD (a developer's .dev.vars has one): the browser tests give the administrator theirs.
  const allVars = {
    BOOTSTRAP_API_KEY: key,
    BOOTSTRAP_PASSWORD: "",
    ENCRYPTION_KEY: "bench",
    RATE_LIMIT_PER_MINUTE: "100000000",
    REGISTRATION_ENABLED: "true",
    ...vars,
  };
  const varArgs = Object.entries(allVars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  // A server left on the port (by a run that was killed) would answer in this one's place.
  await assertPortFree(port);
  // Not wrangler's default 9229, which the first of several servers at once would hold.
  const inspector = ["--inspector-port", String(inspectorPort ?? port + 1000)];
  const child = devtools
    ? spawn(
        "wrangler",
        // --test-scheduled: a bench may run the housekeeping cron (GET /__scheduled) when it needs its effects.
        [
          "dev",
          "--port",
          String(port),
          ...inspector,
          "--persist-to",
          state,
          "--log-level",
          "error",
          "--test-scheduled",
          ...varArgs,
        ],
        { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
      )
    : spawn(
        process.execPath,
        [
          path.join(ownRoot, "bench", "dev-server.mjs"),
          root,
          String(port),
          state,
          JSON.stringify(allVars),
          JSON.stringify(bundle ? (savedBundle(root, bundle) ? { bundle } : { saveBundle: bundle }) : {}),
        ],
        { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
      );
  running.add(child);
  child.once("exit", () => running.delete(child));
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
  // Stopped with this process, whatever ends it (a test file's timed-out hook, an interrupted bench):
  // an orphaned server would hold the port for the next one.
  const orphaned = () => child.kill("SIGTERM");
  process.once("exit", orphaned);
  const proxied = `http://127.0.0.1:${port}`;
  // Within the browser tests' 120 s for their whole setup, so that a start that never comes ends here
  // (the server stopped, its output shown) and not in a timed-out hook that leaves it running.
  // SERVER_START_TIMEOUT_MS: longer on a machine busy with other runs.
  const deadline = Date.now() + (Number(process.env.SERVER_START_TIMEOUT_MS) || 90_000);
  let up = false;
  while (!up && Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    up = await fetch(`${proxied}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 300));
  }
  if (!up) {
    process.off("exit", orphaned);
    child.kill();
    throw new Error(`server did not start:\n${output}`);
  }
  const headers = { Authorization: `Api-Key ${key}` };
  // bench/dev-server.mjs names the runtime's own address, behind wrangler's proxy worker.
  // `direct` needs it; otherwise it is waited for a moment only.
  const until = direct ? deadline : Date.now() + 5_000;
  while (!devtools && !/^ready/m.test(output) && Date.now() < until && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 50));
  const runtime = /^ready (http\S+)/m.exec(output)?.[1] ?? null;
  if (direct && !runtime)
    throw new Error(`the runtime's own URL was not named (direct needs devtools off):\n${output}`);
  // `direct`: every request straight at the runtime. wrangler's proxy in front of it took half the server's CPU per
  // request (docs/decisions.md, "The browser tests, straight at the runtime").
  const base = direct ? runtime : proxied;
  return {
    base,
    /** The port asked for: wrangler's proxy's (`base`'s unless `direct`). */
    port,
    /** The runtime's own URL, without wrangler's proxy in front (null with the DevTools inspector on). */
    runtime,
    key,
    headers,
    /** The `wrangler dev` process: its workerd processes are its descendants. */
    pid: child.pid,
    /** A JSON (or multipart `form`) request to `/api/v1${path}`; throws on a non-2xx answer, returns the parsed body.
     * */
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
      // Already gone (a chaos scenario stopped it to restart on its state): nothing to wait for.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      process.off("exit", orphaned);
      if (!keep) rmSync(state, { recursive: true, force: true });
    },
  };
}

/** Whether `dir` holds a saved bundle (bench/dev-server.mjs) newer than every source of the worker in `root`. */
function savedBundle(root, dir) {
  const saved = path.join(dir, "modules.json");
  if (!existsSync(saved)) return false;
  // The worker's code: src/ and the Durable Objects beside it.
  const sources = ["src", "durable-objects"]
    .filter((dir) => existsSync(path.join(root, dir)))
    .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
  const since = statSync(saved).mtimeMs;
  return [path.join(root, "wrangler.toml"), ...sources].every((file) => statSync(file).mtimeMs <= since);
}

/** A detached worktree of `ref` (a baseline), sharing this checkout's node_modules when the lockfiles match. */
export function baselineCheckout(ref) {
  const git = (...args) => execFileSync("git", ["-C", ownRoot, ...args], { encoding: "utf8" }).trim();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-baseline-"));
  git("worktree", "add", "--detach", "--quiet", dir, ref);
  const lock = (d) => readFileSync(path.join(d, "package-lock.json"), "utf8");
  if (lock(dir) === lock(ownRoot))
    symlinkSync(path.join(ownRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  else execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--silent"], { cwd: dir, stdio: "inherit" });
  return { dir, remove: () => git("worktree", "remove", "--force", dir) };
}

/** The servers startServer started that have not exited yet. */
const running = new Set();

/**
 * Stops every server this process started that is still running: for the tests' per-file teardown
 * (test/support/node-teardown.mjs), since a file whose setup timed out never got its server back
 * to stop it, and the server would hold its port for the worker's next file.
 */
export async function stopServers() {
  await Promise.all(
    [...running].map((child) => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      return exited;
    }),
  );
}

/** Throws when something still listens on 127.0.0.1:`port` after 10 s (a server just stopped may take a moment to let
 * it go). */
async function assertPortFree(port) {
  const { createServer } = await import("node:net");
  const free = () =>
    new Promise((resolve, reject) => {
      const probe = createServer().once("error", (err) => (err.code === "EADDRINUSE" ? resolve(false) : reject(err)));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
  for (const until = Date.now() + 10_000; !(await free()); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() > until) throw new Error(`port ${port} is in use (a server left over from an earlier run?)`);
  }
}

/**
 * A new state folder with every D1 migration applied: a copy of one migrated for this set of
 * migrations (kept in the temporary folder, named by a hash of the migrations, wrangler.toml and
 * wrangler's version). `wrangler d1 migrations apply` costs its own wrangler start and a workerd
 * runtime (seconds of CPU; 27 s of it measured on the loaded machine) before each server; a copy of
 * the same files takes milliseconds.
 */
async function migratedState(root, env) {
  const hash = createHash("sha256");
  const migrations = path.join(root, "migrations");
  // The organization shards' own migrations, in a checkout that has them (a baseline may be older).
  for (const folder of [migrations, path.join(root, "migrations-shards")].filter((f) => existsSync(f)))
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith(".sql"))
      .sort())
      hash
        .update(`${file}\0`)
        .update(readFileSync(path.join(folder, file)))
        .update("\0");
  hash.update(readFileSync(path.join(root, "wrangler.toml")));
  hash.update(readFileSync(createRequire(path.join(root, "package.json")).resolve("wrangler/package.json")));
  const template = path.join(tmpdir(), `bench-migrated-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(template)) {
    const fresh = mkdtempSync(path.join(tmpdir(), "bench-migrating-"));
    // Every D1 binding: `DB` and the organization shards (scripts/d1-migrate.mjs).
    const migrate = await applyAll(["--local", "--persist-to", fresh], { cwd: root, env });
    if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.output}`);
    // Complete or not there: another process may have made the same one meanwhile (then it is kept, and this one
    // dropped).
    try {
      renameSync(fresh, template);
    } catch (err) {
      if (!existsSync(template)) throw err;
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  const state = mkdtempSync(path.join(tmpdir(), "bench-state-"));
  cpSync(template, state, { recursive: true });
  return state;
}

/** Seeds `count - 1` members (users and memberships) besides the owner into a stopped server's D1 file; returns their
 * user ids, the owner's first. */
export function seedMembers(db, { organizationId, ownerId, count, at }) {
  const members = [ownerId, ...Array.from({ length: count - 1 }, () => randomUUID())];
  const user = db.prepare("INSERT INTO users (id, email, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)");
  const member = db.prepare(
    "INSERT INTO members (id, organization_id, user_id, is_owner, created_at) VALUES (?, ?, ?, 0, ?)",
  );
  members.slice(1).forEach((id, i) => {
    user.run(id, `member${i}@bench.example`, `Member ${i}`, at, at);
    member.run(randomUUID(), organizationId, id, at);
  });
  return members;
}

/**
 * A bench's numbers from the environment: each name of `defaults` read from `prefix` + name (BENCH_PORT for PORT),
 * its default where that is unset. Set but empty reads as 0, as Number("") does.
 */
export function envNumbers(defaults, prefix = "BENCH_") {
  return Object.fromEntries(
    Object.entries(defaults).map(([name, fallback]) => [name, Number(process.env[prefix + name] ?? fallback)]),
  );
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * CPU time (ms, user + system) of the workerd processes under a `wrangler dev` (its `pid`), from
 * /proc: the runtime that serves the worker, its Durable Objects and local D1, and wrangler's proxy
 * in front of it. The difference of two readings over a load, divided by the requests served, is
 * the server's CPU per request. `mainThreads` holds each process's main thread alone: the runtime
 * runs all JavaScript (worker, objects, local D1) on that one thread, which bounds throughput at
 * 1000 / (its ms per request) requests a second however many cores there are.
 */
export function workerdCpuMs(pid) {
  return workerdCpu(pid).total;
}

export function workerdCpu(pid) {
  const procs = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(`/proc/${entry}/stat`);
    if (stat) procs.push({ pid: Number(entry), ...stat });
  }
  const under = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!under.has(p.pid) && under.has(p.ppid)) under.add(p.pid), (grew = true);
  }
  const workerd = procs.filter((p) => under.has(p.pid) && p.comm === "workerd");
  const ms = (ticks) => (ticks * 1000) / CLOCK_TICKS;
  return {
    total: workerd.reduce((sum, p) => sum + ms(p.ticks), 0),
    // Every process of the server, wrangler's Node process too: on two cores their sum bounds a run, not the runtime
    // thread alone.
    tree: procs.filter((p) => under.has(p.pid)).reduce((sum, p) => sum + ms(p.ticks), 0),
    mainThreads: Object.fromEntries(
      workerd.map((p) => [p.pid, ms(readStat(`/proc/${p.pid}/task/${p.pid}/stat`)?.ticks ?? 0)]),
    ),
  };
}

/** The busiest main thread between two `workerdCpu` readings (the runtime's), in ms. */
export const busiestThreadMs = (before, after) =>
  Math.max(0, ...Object.entries(after.mainThreads).map(([pid, ms]) => ms - (before.mainThreads[pid] ?? 0)));

function readStat(path) {
  try {
    const stat = readFileSync(path, "utf8");
    // The command name is in parentheses and may hold spaces: fields count from the last ")".
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return {
      comm: stat.slice(stat.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return null; // the process ended while being read
  }
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** Our compatibility date and flags as `wrangler` arguments, for the bare workers the benchmarks run beside ours. */
export function compatibilityArgs(root) {
  const { compatibilityDate, compatibilityFlags } = compatibility(root);
  return [
    "--compatibility-date",
    compatibilityDate,
    ...compatibilityFlags.flatMap((f) => ["--compatibility-flags", f]),
  ];
}

export { compatibility };

/**
 * A web chat open to anonymous visitors whose assistant answers from `upstream` (test/support/openai-upstream.mjs)
 * as its model `modelName`: the model, assistant and inbox are named `name` upstream, `name` and `name` site.
 * Returns the web chat's id.
 */
export async function upstreamWebChat(server, upstream, { name, modelName }) {
  const model = await server.api("/large-language-models/", {
    body: {
      name: `${name} upstream`,
      provider: "openai_compatible",
      modelName,
      baseUrl: `${upstream.url}/v1`,
      apiKey: UPSTREAM_API_KEY,
    },
  });
  const { id } = await createWebChat(server, {
    assistant: { name, largeLanguageModel: model.id },
    inbox: { name: `${name} site` },
    webChat: { enableAnonymous: true },
  });
  return id;
}

/**
 * An assistant (`assistant`: its fields) with a web inbox "Website" (`inbox`: more fields) whose web chat gets the
 * settings `webChat`. Returns the assistant and the web chat's id.
 */
export async function createWebChat(server, { assistant, inbox = {}, webChat = {} }) {
  const bot = await server.api("/chatbots/", { body: assistant });
  const created = await server.api("/inboxes/", {
    body: { name: "Website", channelType: "web", chatbot: { id: bot.id }, ...inbox },
  });
  await server.api(`/web-chats/${created.channel.id}/`, { method: "PATCH", body: webChat });
  return { bot, id: created.channel.id };
}

/**
 * Two assistants on the built-in model, alike but for `tool`: an agent named `name` that may call it, and a normal
 * one to measure what the agent's turn adds against. `timed(bot, content)` asks assistant `bot` (an id) and answers
 * `{ ms, reply }`: the completion's body and how long it took.
 */
export async function agentBesideNormal(server, tool, name) {
  const agent = await server.api("/chatbots/", {
    body: { name, largeLanguageModel: LOCAL_LLM, replyMode: "agent", tools: [{ id: tool.id }] },
  });
  const normal = await server.api("/chatbots/", { body: { name: "normal", largeLanguageModel: LOCAL_LLM } });
  // `conversation`: a later turn of that conversation; a new conversation without.
  const timed = async (bot, content, conversation) => {
    const t0 = performance.now();
    const body = { message: { content }, ...(conversation ? { conversation } : {}) };
    const reply = await server.api(`/chatbots/${bot}/completions/`, { body });
    return { ms: performance.now() - t0, reply };
  };
  return { agent, normal, timed };
}

/**
 * A streamed completion "hello" of assistant `botId` on `server` (`body`: more of the request, e.g. its conversation),
 * as `fetch`'s arguments.
 */
export const streamedHello = (server, botId, body = {}) => [
  `${server.base}/api/v1/chatbots/${botId}/completions/`,
  {
    method: "POST",
    headers: { ...server.headers, "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, message: { content: "hello" }, isStreaming: true }),
  },
];

/**
 * Every result of a list the API answers a page at a time (a cursor's or a number's), following each page's `next`:
 * `get(path)` answers the body of a GET of `path` (under /api/v1).
 */
export async function allPages(get, path) {
  const all = [];
  for (let url = path; url; ) {
    const page = await get(url);
    all.push(...page.results);
    url = page.next?.slice(page.next.indexOf("/api/v1") + "/api/v1".length);
  }
  return all;
}

/** Flags for Debian's Chromium on this machine (its closed network refuses Google's background connections). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Headless Debian Chromium through playwright-core (never a downloaded browser). In the Node test suite, a connection
 * to the Chromium its worker was given (test/support/chromium-servers.mjs): its `close()` closes what it opened.
 * `backForwardCache`: a browser of its own with the back/forward cache on, as people's browsers have it (Playwright
 * turns it off).
 */
export async function launchChromium({ backForwardCache = false } = {}) {
  const { chromium } = await import("playwright-core");
  const endpoints = process.env.CHROMIUM_ENDPOINTS ? JSON.parse(process.env.CHROMIUM_ENDPOINTS) : [];
  const endpoint = endpoints[(Number(process.env.VITEST_POOL_ID) || 1) - 1];
  if (endpoint && !backForwardCache) return chromium.connect(endpoint, { timeout: 30_000 });
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: 30_000,
    ignoreDefaultArgs: backForwardCache ? ["--disable-back-forward-cache"] : [],
  });
}
