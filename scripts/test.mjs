// `npm test`: every check, arranged to keep a 2-core machine busy (docs/decisions.md, "The test run in two stages").
// The Workers suite computes on one core and waits on the other (timeouts it provokes, the model stand-in, queues), so
// beside it run the typecheck, then the lint, and, one file at a time, Node-side tests: a fresh clone's first hour
// (test/node: `npm install`, `npm run dev`, the README's commands), the browser files of BESIDE_WORKERS, then further
// browser files taken one by one for as long as the Workers suite runs. When it ends, the browser files left run two
// at a time, beside the one the Node side is finishing. The Workers suite's output and the browser files' left show as
// they run; the other checks' are printed whole when each ends, so no two interleave. A failure before the Workers
// suite ends starts no browser file after it, as a chain of `&&` would.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildAssets } from "./build-assets.mjs";

/** Browser files run first beside the Workers suite: the widget's conversation of several minutes, which mostly
 * waits, and one that computes. */
const BESIDE_WORKERS = ["test/browser/widget-live.test.mjs", "test/browser/console-knowledge.test.mjs"];
const NODE_CONFIG = ["--config", "vitest.node.config.mjs"];
/**
 * The Node side's files beside the Workers suite run as vitest workers of slot 2 and up (test/support/test-ports.mjs):
 * the files left after it run in slots 0 and 1 while the Node side finishes its last, each on ports of its own.
 */
const BESIDE_SLOTS = "2";

/** Runs `command`; its output goes to ours as it comes (`live`) or whole at its end, after a heading. */
function run(title, command, args, { live = false, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", live ? "inherit" : "pipe", live ? "inherit" : "pipe"],
      env: { ...process.env, ...env },
    });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("close", (code) => {
      if (!live) process.stdout.write(`\n---- ${title} ----\n${output}`);
      resolve({ title, ok: code === 0 });
    });
  });
}

/** `npm run <script>`s one after the other, as one check: the first that fails ends it. */
async function inOrder(scripts) {
  for (const script of scripts) {
    const result = await run(`npm run ${script}`, "npm", ["run", "--silent", script]);
    if (!result.ok) return result;
  }
  return { ok: true };
}

const failed = (results) => results.filter((r) => !r.ok);

await buildAssets({ quiet: true });
// The assets are built: two configs building them at once would write the same files together. One folder for the
// worker bundle of every `wrangler dev` the Node-side runs start (test/support/worker-bundle.mjs).
const bundles = mkdtempSync(path.join(tmpdir(), "worker-bundle-"));
Object.assign(process.env, { TEST_ASSETS_BUILT: "1", WORKER_BUNDLE: path.join(bundles, "worker") });

const browserFiles = readdirSync("test/browser")
  .filter((name) => name.endsWith(".test.mjs"))
  .map((name) => `test/browser/${name}`)
  .filter((file) => !BESIDE_WORKERS.includes(file));
const results = [];
let workersRunning = true;
const workers = run("the Workers suite", "vitest", ["run"], { live: true }).then((result) => {
  workersRunning = false;
  return result;
});
const checks = inOrder(["typecheck", "lint"]).then((result) => void results.push(result));
const besideNode = async (title, files) => {
  const result = await run(title, "vitest", ["run", ...NODE_CONFIG, "--maxWorkers", "1", ...files], {
    env: { TEST_SLOT_OFFSET: BESIDE_SLOTS },
  });
  results.push(result);
  return result.ok;
};
const beside = (async () => {
  if (!(await besideNode("the Node-side tests beside it", ["test/node/", ...BESIDE_WORKERS]))) return;
  while (workersRunning && browserFiles.length && !failed(results).length) {
    const file = browserFiles.shift();
    if (!(await besideNode(`${file}, beside it`, [file]))) return;
  }
})();

results.push(await workers);
// The browser files left, two at a time: unless a check has failed by now.
if (!failed(results).length && browserFiles.length) {
  results.push(await run("the browser tests", "vitest", ["run", ...NODE_CONFIG, ...browserFiles], { live: true }));
}
await Promise.all([beside, checks]);
rmSync(bundles, { recursive: true, force: true });
for (const { title } of failed(results)) console.error(`npm test: ${title} failed`);
process.exit(failed(results).length ? 1 : 0);
