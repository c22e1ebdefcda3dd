#!/usr/bin/env node
// Applies the migrations of every D1 binding of wrangler.toml (`DB` and the organization shards `CONVERSATIONS_n`, each
// with its `migrations_dir`): `node scripts/d1-migrate.mjs --local|--remote [wrangler flags]`, run by `npm run dev`
// (as `applyAll`), `npm run deploy` and `npm run db:migrate:local`. The bindings are read from wrangler.toml, so a
// shard added there is migrated everywhere.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The `binding` of each `[[d1_databases]]` table of a wrangler.toml, in order. */
export function d1Bindings(toml) {
  return [...toml.matchAll(/^\[\[d1_databases\]\]\s*\nbinding\s*=\s*"(\w+)"/gm)].map((m) => m[1]);
}

/** `wrangler ...args` in `cwd`, its exit status and everything it printed (under the command). */
function wrangler(args, { cwd, env }) {
  return new Promise((resolve) => {
    const child = spawn("wrangler", args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let output = `wrangler ${args.join(" ")}\n`;
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.stdin.end("y\n");
    child.on("error", (err) => resolve({ status: 1, output: `${output}${err}\n` }));
    child.on("close", (code) => resolve({ status: code ?? 1, output }));
  });
}

/**
 * `wrangler d1 migrations apply <binding> ...args` for each binding, in `cwd`, all at once (each wrangler start costs
 * seconds; the databases are separate files). On a fresh local state the runs can meet in the files they share
 * (SQLITE_BUSY, seen on a clean clone's first `npm run dev`): a binding that failed so is applied again on its own.
 * Resolves to `{ status, output, applied }`: the first failure's exit status (0 for none), everything they printed,
 * each binding's under its command (a binding applied again, both runs'), and how many migrations were applied.
 */
export async function applyAll(args, { cwd = process.cwd(), env = process.env } = {}) {
  const bindings = d1Bindings(readFileSync(path.join(cwd, "wrangler.toml"), "utf8"));
  const apply = (b) => wrangler(["d1", "migrations", "apply", b, ...args], { cwd, env });
  const runs = await Promise.all(bindings.map(apply));
  for (const [i, run] of runs.entries())
    if (run.status !== 0 && run.output.includes("SQLITE_BUSY")) {
      // The log keeps both: what the first run applied before it met the other, then the rest.
      const again = await apply(bindings[i]);
      runs[i] = { status: again.status, output: `${run.output}\n${again.output}` };
    }
  return {
    status: runs.find((r) => r.status !== 0)?.status ?? 0,
    output: runs.map((r) => r.output).join("\n"),
    applied: runs.reduce((n, r) => n + appliedIn(r.output), 0),
  };
}

/** The migrations one database's run applied: wrangler prints its table again after each, so each name once. */
const appliedIn = (output) => new Set([...output.matchAll(/│\s*(\d{4}_[\w-]+\.sql)\s*│\s*✅/g)].map((m) => m[1])).size;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { status, output } = await applyAll(process.argv.slice(2));
  process.stdout.write(output);
  process.exit(status);
}
