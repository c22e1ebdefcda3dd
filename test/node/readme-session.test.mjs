// The README's session runs as written: on a fresh clone (test/node/support/checkout.mjs), the
// server is started as the README's "Two commands" say (`npm run dev`, on a port of this suite's
// range through PORT), then every ```sh block without a `<!-- test: ... -->` marker runs, in the
// README's order and then docs/reference.md's (which continues the session), in one bash with `set -euo pipefail`. curl
// fails on any answer of 400 or above
// (`--fail-with-body`), so a step the service refuses stops the session and names its README line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { copyCheckout, freePort, readmeShellBlocks, root, startServer } from "./support/checkout.mjs";

let checkout;
let server;
let standIn;
let port;

beforeAll(async () => {
  const start = readmeShellBlocks().find((b) => b.name === "two commands");
  expect(start?.text, "README: a ```sh block after <!-- test: two commands -->").toMatch(
    /^npm install && npm run dev\b/m,
  );
  checkout = copyCheckout();
  port = await freePort();
  // README "Try a channel locally": the Telegram stand-in, and the lines it prints in .dev.vars before the server
  // starts.
  const channels = readmeShellBlocks().find((b) => b.name === "channels stand-in");
  expect(channels?.text, "README: a ```sh block after <!-- test: channels stand-in -->").toMatch(
    /^npm run stand-in -- telegram --port (\d+)$/m,
  );
  const standInPort = /--port (\d+)/.exec(channels.text)[1];
  standIn = await startServer("bash", ["-c", channels.text], {
    cwd: checkout.dir,
    url: `http://127.0.0.1:${standInPort}/__requests`,
  });
  const printed = () =>
    standIn
      .output()
      .split("\n")
      .filter((line) => /^[A-Z_]+=\S+$/.test(line));
  for (let i = 0; i < 50 && printed().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  const settings = printed();
  expect(settings.map((line) => line.split("=")[0])).toEqual(["TELEGRAM_API_ORIGIN", "OUTBOUND_ALLOWED_HOSTS"]);
  appendFileSync(path.join(checkout.dir, ".dev.vars"), `${settings.join("\n")}\n`);
  // `npm run dev` migrates every D1 binding first (DB and the organization shards: a wrangler start each, at once).
  server = await startServer("npm", ["run", "dev"], {
    cwd: checkout.dir,
    env: { PORT: String(port) },
    url: `http://127.0.0.1:${port}/health`,
    timeoutMs: 180_000,
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await standIn?.stop();
  checkout?.remove();
});

/** The session as one bash script, and the file and line of each of its lines. */
function sessionScript() {
  const lines = [
    "set -eEuo pipefail",
    'curl() { command curl --fail-with-body "$@"; }',
    // Only the session's own shell reports (command substitutions inherit the trap with -E).
    `trap '[ "$BASH_SUBSHELL" = 0 ] && echo "::failed $LINENO: $BASH_COMMAND" >&2' ERR`,
  ];
  const readmeLine = lines.map(() => null);
  for (const file of ["README.md", "docs/reference.md"]) {
    for (const block of readmeShellBlocks(path.join(root, file)).filter((b) => b.name === null)) {
      block.text.split("\n").forEach((line, i) => {
        lines.push(line);
        readmeLine.push(`${file} line ${block.line + i}`);
      });
    }
  }
  return { script: `${lines.join("\n")}\n`, readmeLine };
}

function runBash(script, options) {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], options);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the README's curl session", () => {
  it("runs from the first command to the last against `npm run dev` on a fresh clone", async () => {
    const { script, readmeLine } = sessionScript();
    const run = await runBash(script, { cwd: checkout.dir, env: { ...process.env, PORT: String(port) } });
    const failed = /::failed (\d+): (.*)/.exec(run.stderr);
    const where = failed ? `${readmeLine[Number(failed[1]) - 1] ?? "?"}: ${failed[2]}` : "";
    expect(
      { exitCode: run.code, where },
      `stdout:\n${run.stdout.slice(-4000)}\nstderr:\n${run.stderr.slice(-4000)}`,
    ).toEqual({ exitCode: 0, where: "" });
    // What a newcomer should see: the handbook found and cited, the human's reply, the failed delivery.
    expect(run.stdout).toContain("two-year warranty");
    expect(run.stdout).toContain('"filename": "handbook.pdf"');
    expect(run.stdout).toContain('"status": "failure"');
    // The failed delivery says why, in words a person can act on (docs/decisions.md, "Outbound errors a person can act
    // on").
    expect(run.stdout).toMatch(/"error": "(could not resolve host hooks\.example\.com|timed out after 30 s)"/);
  }, 300_000);

  it(
    "`npm run dev` printed a short summary with the administrator's sign-in, the migrations in a log, no DNS " +
      "noise",
    async () => {
      const output = server.output();
      const lines = output.split("\n");
      const keyLine = lines.findIndex((l) => /API key:\s+ak_/.test(l));
      expect(keyLine, output).toBeGreaterThan(0);
      expect(keyLine, output.slice(0, 3000)).toBeLessThan(30);
      expect(output).not.toMatch(/getaddrinfo|ENOTFOUND/);
      expect(output).not.toMatch(/Migrations to be applied/);
      expect(readFileSync(path.join(checkout.dir, ".wrangler", "migrations.log"), "utf8")).toMatch(
        /0001_seed_builtin_models\.sql/,
      );
      const email = /E-mail:\s+(\S+)/.exec(output)?.[1];
      const password = /Password:\s+(\S+)/.exec(output)?.[1];
      expect(email).toBe("admin@example.com");
      // The console's sign-in takes the printed e-mail and password.
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/sessions/`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(await res.json()).toMatchObject({ user: { email: "admin@example.com", isStaff: true } });
    },
  );
});
