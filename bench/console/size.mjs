// What a first visit downloads, gzip: the shell (its JS with its static chunks, and the CSS) and
// the first page's chunk. Target: shell + first page <= 120 kB.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildConsole } from "../../scripts/build-console.mjs";

const TARGET = 120 * 1024;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

export async function run() {
  const outDir = mkdtempSync(path.join(tmpdir(), "console-size-"));
  try {
    const built = await buildConsole({ quiet: true, outDir });
    const shell = built.jsGzip + built.cssGzip;
    console.log(`shell: ${kb(built.jsGzip)} JS + ${kb(built.cssGzip)} CSS = ${kb(shell)} gzip`);
    for (const [page, bytes] of Object.entries(built.pages)) {
      const total = shell + bytes;
      console.log(
        `shell + ${page} page: ${kb(total)} gzip (page chunk ${kb(bytes)}; target <= ${kb(TARGET)}) ` +
          `${total <= TARGET ? "PASS" : "FAIL"}`,
      );
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
