// `npm run typecheck`: the worker, the console and the widget, each its own tsc project, checked at once (a tsc run
// is one thread; one after another they left a core idle for most of the check). Each project's output is printed
// whole, after all are done, so the messages of two projects never interleave.
import { spawn } from "node:child_process";
import { buildVendor } from "./build-vendor.mjs";

// The worker imports src/vendor/manifest.json: built by `npm install`, but a checkout switched since, or a copy made
// without the install, lacks it (as scripts/build-assets.mjs says).
await buildVendor({ quiet: true });
const projects = [".", "console", "widget"];
const checks = projects.map(
  (project) =>
    new Promise((resolve, reject) => {
      const child = spawn("tsc", ["--noEmit", "-p", project], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.once("error", reject);
      child.once("close", (code) => resolve({ project, code, output }));
    }),
);
let failed = false;
for (const { project, code, output } of await Promise.all(checks)) {
  if (output) process.stdout.write(output);
  if (code !== 0) {
    failed = true;
    console.error(`tsc -p ${project}: exit ${code}`);
  }
}
if (!failed) console.log(`typecheck: ${projects.map((p) => (p === "." ? "worker" : p)).join(", ")}: no errors`);
process.exit(failed ? 1 : 0);
