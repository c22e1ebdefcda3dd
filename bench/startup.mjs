// `npm run bench -- startup`: startup CPU of our worker beside a bare Hono worker
// (bench/data/bare-hono), both built by the same wrangler in this run. Each round profiles each
// bundle with `wrangler check startup` (module evaluation in workerd under the inspector's sampling
// profiler), the two alternating so that drift of the machine hits both alike. Prints each round,
// the medians and our bundle's size (raw and gzip, as wrangler counts it). Routes are built on
// their first request (docs/decisions.md, "Cold start"), so it also profiles a fresh isolate's startup
// plus its first request, for a route outside the API and for an API route, the same way.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { compatibilityArgs, median } from "./lib.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** BENCH_PROFILE_DIR keeps each round's CPU profiles (open them in Chrome DevTools). */
const KEEP = process.env.BENCH_PROFILE_DIR;

function wrangler(args, cwd) {
  const run = spawnSync(path.join(root, "node_modules/.bin/wrangler"), args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
  });
  if (run.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** What `wrangler deploy` would upload; assets are left out (an empty directory): they are not part of the script. */
function build(cwd, out, extra = []) {
  const assets = mkdtempSync(path.join(tmpdir(), "startup-assets-"));
  try {
    wrangler(["deploy", "--dry-run", "--outfile", out, "--assets", assets, ...extra], cwd);
  } finally {
    rmSync(assets, { recursive: true, force: true });
  }
  return out;
}

/** The upload wrangler built: `wrangler deploy --outfile` writes it as multipart form data. */
async function readBundle(file) {
  const bytes = readFileSync(file);
  const boundary = bytes.subarray(2, bytes.indexOf(10)).toString().trim();
  return new Response(bytes, { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } }).formData();
}

/** The bundle's modules (script and WebAssembly, no source map), raw and gzip, as `wrangler check startup` counts them.
 * */
async function bundleSize(file) {
  const form = await readBundle(file);
  const parts = [...form.values()].filter((v) => v instanceof Blob && v.type !== "application/source-map");
  const all = Buffer.from(await new Blob(parts).arrayBuffer());
  return { raw: all.length, gzip: gzipSync(all).length, modules: parts.length };
}

const MODULE_TYPES = { "application/javascript+module": "ESModule", "application/wasm": "CompiledWasm" };

/**
 * Active CPU of a fresh isolate importing the worker and answering one request (no API key: the
 * route's app is built, then authentication answers 401 without storage), profiled as
 * `wrangler check startup` profiles the import alone.
 */
async function profileFirstRequest(file, path, outfile) {
  const form = await readBundle(file);
  const metadata = JSON.parse(form.get("metadata"));
  const modules = [];
  for (const [name, part] of form) {
    if (!(part instanceof Blob) || !MODULE_TYPES[part.type]) continue;
    modules.push({
      type: MODULE_TYPES[part.type],
      path: name.replace(/^\.\//, ""),
      contents: new Uint8Array(await part.arrayBuffer()),
    });
  }
  const bindings = Object.fromEntries(
    metadata.bindings.filter((b) => b.type === "plain_text").map((b) => [b.name, b.text]),
  );
  const entry =
    `export default { async fetch(request, env, ctx) { const { default: worker } = await ` +
    `import(${JSON.stringify(metadata.main_module)}); return worker.fetch(request, env, ctx); } };`;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: "first-request",
      compatibilityDate: metadata.compatibility_date,
      compatibilityFlags: metadata.compatibility_flags,
      modulesRoot: "/",
      modules: [{ type: "ESModule", path: "first-request-entry.js", contents: entry }, ...modules],
      bindings,
      d1Databases: ["DB"],
      inspectorPort: 0,
      handleStructuredLogs: () => undefined,
    }),
  );
  try {
    await mf.ready;
    const socket = new WebSocket(new URL("/core:user:first-request", await mf.getInspectorURL()));
    await new Promise((resolve, reject) => ((socket.onopen = resolve), (socket.onerror = reject)));
    let id = 0;
    const waiting = new Map();
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      waiting.get(message.id)?.(message.result);
    };
    const send = (method) =>
      new Promise((resolve) => (waiting.set(++id, resolve), socket.send(JSON.stringify({ id, method }))));
    await send("Profiler.enable");
    await send("Profiler.start");
    const res = await mf.dispatchFetch(`https://example.com${path}`);
    await res.arrayBuffer();
    const { profile } = await send("Profiler.stop");
    socket.close();
    if (outfile) writeFileSync(outfile, JSON.stringify(profile));
    return { ...summarize(profile), status: res.status };
  } finally {
    await mf.dispose();
  }
}

/** Active CPU ms of a startup profile (sampled time less idle), and the garbage collector's share. */
function summarize(profile) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let active = 0;
  let gc = 0;
  profile.timeDeltas.forEach((dt, i) => {
    const name = names.get(profile.samples[i]);
    if (name === "(idle)") return;
    active += dt;
    if (name === "(garbage collector)") gc += dt;
  });
  return { active: active / 1000, gc: gc / 1000 };
}

function profileStartup(bundle, outfile) {
  wrangler(["check", "startup", "--worker", bundle, "--outfile", outfile], path.dirname(bundle));
  return summarize(JSON.parse(readFileSync(outfile, "utf8")));
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;

/**
 * BENCH_BASELINE_REF (e.g. main): that commit's worker too, built from a temporary git worktree
 * sharing our node_modules, for before/after figures from one run.
 */
function buildBaseline(ref, dir) {
  const tree = path.join(dir, "baseline");
  const git = (args, cwd = root) => {
    const run = spawnSync("git", args, { cwd, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${run.stderr}`);
  };
  git(["worktree", "add", "--detach", tree, ref]);
  try {
    symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"));
    if (existsSync(path.join(tree, "scripts/build-vendor.mjs")))
      spawnSync(process.execPath, ["scripts/build-vendor.mjs"], { cwd: tree, stdio: "ignore" });
    return build(tree, path.join(dir, "baseline.bundle"));
  } finally {
    git(["worktree", "remove", "--force", tree]);
  }
}

const stats = (rows) => `${fmt(median(rows.map((r) => r.active)))} (gc ${fmt(median(rows.map((r) => r.gc)))})`;

export default async function () {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-startup-"));
  const profiles = KEEP ? path.resolve(KEEP) : dir;
  mkdirSync(profiles, { recursive: true });
  const baselineRef = process.env.BENCH_BASELINE_REF;
  try {
    console.log("building the workers ...");
    const workers = [
      { name: "ours", bundle: build(root, path.join(dir, "ours.bundle")), api: true },
      {
        name: "bare Hono",
        bundle: build(path.join(root, "bench/data/bare-hono"), path.join(dir, "bare.bundle"), compatibilityArgs(root)),
      },
    ];
    if (baselineRef)
      workers.push({ name: `baseline ${baselineRef}`, bundle: buildBaseline(baselineRef, dir), api: true });
    const startup = new Map(workers.map((w) => [w, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      // Rotate which goes first, so that none always runs on a machine another just warmed.
      const order = workers.map((_, i) => workers[(i + round) % workers.length]);
      for (const w of order)
        startup
          .get(w)
          .push(profileStartup(w.bundle, path.join(profiles, `${w.name.replace(/\W+/g, "-")}-${round}.cpuprofile`)));
      const latest = workers.map((w) => {
        const { active, gc } = startup.get(w).at(-1);
        return `${w.name} ${fmt(active)} (gc ${fmt(gc)})`;
      });
      console.log(`round ${round}: ${latest.join(" | ")}`);
    }
    // Startup plus the first request: outside the API (no route group), and one API resource.
    const FIRST = ["/health", "/api/v1/chatbots/"];
    const api = workers.filter((w) => w.api);
    const first = new Map(api.flatMap((w) => FIRST.map((p) => [`${w.name} ${p}`, []])));
    for (let round = 1; round <= ROUNDS; round++) {
      const line = [];
      for (const w of round % 2 ? api : [...api].reverse()) {
        for (const p of FIRST) {
          const r = await profileFirstRequest(
            w.bundle,
            p,
            KEEP && path.join(profiles, `${w.name.replace(/\W+/g, "-")}${p.replace(/\W+/g, "-")}${round}.cpuprofile`),
          );
          first.get(`${w.name} ${p}`).push(r);
          line.push(`${w.name} GET ${p} ${r.status} ${fmt(r.active)}`);
        }
      }
      console.log(`round ${round}, startup + first request: ${line.join(" | ")}`);
    }
    const m = median(startup.get(workers[0]).map((r) => r.active));
    console.log(`\nstartup CPU, median of ${ROUNDS} rounds (wrangler check startup, active time):`);
    for (const w of workers)
      console.log(
        `  ${w.name.padEnd(16)} ${stats(startup.get(w))}` +
          (w === workers[0] ? `  target <= 100 ms ${m <= 100 ? "PASS" : "FAIL"}` : ""),
      );
    console.log("startup + first request (no API key), median:");
    for (const w of api)
      console.log(
        `  ${w.name.padEnd(16)} ${FIRST.map((p) => `GET ${p} ${stats(first.get(`${w.name} ${p}`))}`).join(", ")}`,
      );
    for (const w of workers) {
      const size = await bundleSize(w.bundle);
      console.log(`bundle ${w.name.padEnd(16)} ${kib(size.raw)} raw, ${kib(size.gzip)} gzip (${size.modules} modules)`);
    }
    if (KEEP) console.log(`profiles: ${profiles}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
