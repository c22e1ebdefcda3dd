#!/usr/bin/env node
// `npm run bench -- <name>`: runs bench/<name>.mjs, which prints its own figures.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const dir = path.dirname(fileURLToPath(import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && !["run.mjs", "lib.mjs"].includes(f))
  .map((f) => f.slice(0, -4));
const name = process.argv[2];
if (!name || !existsSync(path.join(dir, `${name}.mjs`))) {
  console.error(`usage: npm run bench -- <name>\navailable: ${available.join(", ")}`);
  process.exit(2);
}
const mod = await import(pathToFileURL(path.join(dir, `${name}.mjs`)).href);
await mod.default(process.argv.slice(3));
