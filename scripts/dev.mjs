#!/usr/bin/env node
// `npm run dev`: applies the D1 migrations to the local state, bootstraps a development API key
// (kept in .wrangler/dev-api-key so it survives restarts with the same local state) and starts
// `wrangler dev` on port 8787 with every binding local.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const port = process.env.PORT ?? "8787";
const keyFile = ".wrangler/dev-api-key";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function newKey() {
  return "ak_" + [...randomBytes(40)].map((b) => BASE62[b % 62]).join("");
}

mkdirSync(".wrangler", { recursive: true });
const key = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : newKey();
writeFileSync(keyFile, key + "\n");

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "" };
const migrate = spawnSync("wrangler", ["d1", "migrations", "apply", "DB", "--local"], { stdio: "inherit", env, input: "y\n" });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

console.log(`
  Assistant platform, local development
  -------------------------------------
  API:        http://localhost:${port}/api/v1/   (also /api/)
  Docs:       http://localhost:${port}/api/docs   OpenAPI: http://localhost:${port}/api/v1/openapi.json
  Admin key:  ${key}

  curl -H "Authorization: Api-Key ${key}" http://localhost:${port}/api/v1/users/current/
`);

const args = ["dev", "--port", port, "--var", `BOOTSTRAP_API_KEY:${key}`, "--var", `ENCRYPTION_KEY:${process.env.ENCRYPTION_KEY ?? "local-development-only"}`, ...process.argv.slice(2)];
const child = spawn("wrangler", args, { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
