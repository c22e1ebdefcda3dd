// `npm test`: every check, in two stages that keep a 2-core machine busy (docs/decisions.md, "The test run in two
// stages"). The Workers suite computes on one core and waits on the other (timeouts it provokes, the model stand-in,
// queues), so beside it run the typecheck, then the lint, and, in one worker, Node-side tests: a fresh clone's first
// hour (test/node: `npm install`, `npm run dev`, the README's commands) and the browser files of BESIDE_WORKERS. Then
// the other browser files, two at a time. The Workers suite's output and the browser files' show as they run; the
// other checks' are printed whole when each ends, so no two interleave. A stage that fails ends the run, as a chain
// of `&&` would.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { buildAssets } from "./build-assets.mjs";

/**
 * Browser files run beside the Workers suite: the widget's two longest, which mostly wait (on replies, on a visitor's
 * retries, on a conversation of several minutes). More slow the Workers suite more than they save (docs/decisions.md,
 * "The test run in two stages").
 */
const BESIDE_WORKERS = ["test/browser/widget-live.test.mjs", "test/browser/widget.test.mjs"];
const NODE_CONFIG = ["--config", "vitest.node.config.mjs"];

/**
 * workerd's native stack lines: addresses in its binary, unreadable without a symbolizer, one under each message it
 * logs (the tests that cut connections on purpose make hundreds). The message, the line before, stays.
 */
const NATIVE_STACK = /^stack: \S*workerd@[0-9a-f]+(\s|;|$)/;

/** Runs `command`; its output goes to ours as it comes (`live`) or whole at its end, after a heading. */
function run(title, command, args, { live = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      // The assets are built once below: two configs building them at once would write the same files together.
      // Colours as the terminal would have them: the child writes to a pipe.
      env: { ...process.env, TEST_ASSETS_BUILT: "1", ...(live && process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
    });
    let output = "";
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      if (!live) from.on("data", (d) => (output += d));
      // workerd, started by the suite, writes to the suite's own output.
      else
        createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
          if (!NATIVE_STACK.test(line)) to.write(`${line}\n`);
        });
    }
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

function failed(results) {
  const failures = results.filter((r) => !r.ok);
  for (const { title } of failures) console.error(`npm test: ${title} failed`);
  return failures.length > 0;
}

await buildAssets({ quiet: true });
const first = await Promise.all([
  run("the Workers suite", "vitest", ["run"], { live: true }),
  run("the Node-side tests beside it", "vitest", [
    "run",
    ...NODE_CONFIG,
    "--maxWorkers",
    "1",
    "test/node/",
    ...BESIDE_WORKERS,
  ]),
  inOrder(["typecheck", "lint"]),
]);
if (failed(first)) process.exit(1);
const browser = await run(
  "the browser tests",
  "vitest",
  ["run", ...NODE_CONFIG, "test/browser/", ...BESIDE_WORKERS.flatMap((file) => ["--exclude", file])],
  { live: true },
);
if (failed([browser])) process.exit(1);
