// A global setup of vitest.node.config.mjs: one folder for the run's saved worker bundle (WORKER_BUNDLE, read by
// bench/lib.mjs's startServer), so the suite's ~25 `wrangler dev` starts run esbuild over src/ once or twice (the
// first files, at once), not each time. Each server still starts on a fresh state of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "worker-bundle-"));
  // Not made here: the first server to start saves its bundle as this folder, whole (bench/dev-server.mjs).
  process.env.WORKER_BUNDLE = path.join(dir, "worker");
  return () => rmSync(dir, { recursive: true, force: true });
}
