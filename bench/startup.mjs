// `npm run bench -- startup`: startup CPU of our worker beside a bare Hono worker
// (bench/data/bare-hono), both built by the same wrangler in this run. Each round profiles each
// bundle with `wrangler check startup` (module evaluation in workerd under the inspector's sampling
// profiler), the two alternating so that drift of the machine hits both alike. Prints each round,
// the medians, where our startup time went, and our bundle's size (raw and gzip, as wrangler counts it).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { median } from "./lib.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** BENCH_PROFILE_DIR keeps each round's CPU profile (open them in Chrome DevTools). */
const KEEP = process.env.BENCH_PROFILE_DIR;

function wrangler(args, cwd) {
  const run = spawnSync(path.join(root, "node_modules/.bin/wrangler"), args, { cwd, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" } });
  if (run.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** Our compatibility date and flags, for the bare worker too. */
function compatibility() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = [.../^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1].matchAll(/"([^"]+)"/g) ?? []].map((m) => m[1]);
  return ["--compatibility-date", date, ...flags.flatMap((f) => ["--compatibility-flags", f])];
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

/** The bundle's modules (script and WebAssembly, no source map), raw and gzip, as `wrangler check startup` counts them. */
async function bundleSize(file) {
  const bytes = readFileSync(file);
  const boundary = bytes.subarray(2, bytes.indexOf(10)).toString().trim();
  const form = await new Response(bytes, { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } }).formData();
  const parts = [...form.values()].filter((v) => v instanceof Blob && v.type !== "application/source-map");
  const all = Buffer.from(await new Blob(parts).arrayBuffer());
  return { raw: all.length, gzip: gzipSync(all).length, modules: parts.length };
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

export default async function () {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-startup-"));
  const profiles = KEEP ? path.resolve(KEEP) : dir;
  mkdirSync(profiles, { recursive: true });
  try {
    console.log("building both workers ...");
    const ours = build(root, path.join(dir, "ours.bundle"));
    const bare = build(path.join(root, "bench/data/bare-hono"), path.join(dir, "bare.bundle"), compatibility());
    const rows = { ours: [], bare: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which goes first, so that neither always runs on a machine the other just warmed.
      const order = round % 2 ? ["ours", "bare"] : ["bare", "ours"];
      const result = {};
      for (const name of order) result[name] = profileStartup(name === "ours" ? ours : bare, path.join(profiles, `${name}-${round}.cpuprofile`));
      rows.ours.push(result.ours);
      rows.bare.push(result.bare);
      console.log(`round ${round}: ours ${fmt(result.ours.active)} (gc ${fmt(result.ours.gc)}) | bare Hono ${fmt(result.bare.active)} (gc ${fmt(result.bare.gc)})`);
    }
    const size = await bundleSize(ours);
    const bareSize = await bundleSize(bare);
    const m = median(rows.ours.map((r) => r.active));
    console.log(`\nstartup CPU, median of ${ROUNDS} rounds (wrangler check startup, active time):`);
    console.log(`  ours:      ${fmt(m)} (gc ${fmt(median(rows.ours.map((r) => r.gc)))})  target <= 100 ms ${m <= 100 ? "PASS" : "FAIL"}`);
    console.log(`  bare Hono: ${fmt(median(rows.bare.map((r) => r.active)))} (gc ${fmt(median(rows.bare.map((r) => r.gc)))})`);
    console.log(`bundle: ours ${kib(size.raw)} raw, ${kib(size.gzip)} gzip (${size.modules} modules) | bare Hono ${kib(bareSize.raw)} raw, ${kib(bareSize.gzip)} gzip`);
    if (KEEP) console.log(`profiles: ${profiles}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
