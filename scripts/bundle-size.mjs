#!/usr/bin/env node
// `npm run bundle-size` (and .ci/run): what `wrangler deploy` would upload, from
// `wrangler deploy --dry-run --outdir <tmp>`, in bytes and gzip bytes. Fails above the Workers
// free plan's limit, 3 MiB after compression (paid plans allow 10 MiB).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const GZIP_LIMIT = 3 * 1024 * 1024;

/** The dry run's modules (source maps and wrangler's README left out): bytes and gzip bytes. */
export function bundleSize() {
  const outdir = mkdtempSync(path.join(tmpdir(), "bundle-"));
  try {
    const run = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
    // Modules wrangler finds beside the script (src/vendor, `find_additional_modules`) are in folders.
    const modules = readdirSync(outdir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith(".map") && e.name !== "README.md")
      .map((e) => path.relative(outdir, path.join(e.parentPath, e.name)));
    let bytes = 0;
    let gzip = 0;
    for (const file of modules) {
      const content = readFileSync(path.join(outdir, file));
      bytes += content.length;
      gzip += gzipSync(content).length;
    }
    return { modules, bytes, gzip };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { modules, bytes, gzip } = bundleSize();
  const mib = (n) => (n / 1024 / 1024).toFixed(2);
  const ok = gzip <= GZIP_LIMIT;
  console.log(
    `worker bundle (${modules.length} modules): ${mib(bytes)} MiB, ${mib(gzip)} MiB gzip (limit ` +
      `${mib(GZIP_LIMIT)} MiB gzip) ${ok ? "OK" : "TOO LARGE"}`,
  );
  if (!ok) process.exit(1);
}
