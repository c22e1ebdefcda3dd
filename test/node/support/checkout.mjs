// What a newcomer has after `git clone`: a copy of the repository's files (tracked, or new and not
// ignored) in a temporary folder, without built assets (dist/), local state (.wrangler/) or
// .dev.vars. node_modules is linked, standing in for `npm install`. Plus the README's shell blocks,
// and servers started in such a copy.
import { spawn, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { slot } from "../../support/test-ports.mjs";

export const root = path.resolve(import.meta.dirname, "../../..");

export function copyCheckout() {
  const dir = mkdtempSync(path.join(tmpdir(), "checkout-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  }).split("\0");
  for (const file of files) {
    // A tracked file deleted in the working tree is not part of what would be committed.
    if (!file || !existsSync(path.join(root, file))) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(dir, file));
  }
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The README's ```sh blocks in order, with the name of the `<!-- test: name -->` comment on the line
 * before each (null when none) and the README line of each block's first command.
 */
export function readmeShellBlocks(file = path.join(root, "README.md")) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "```sh") continue;
    const marker = /^<!--\s*test:\s*(.+?)\s*-->$/.exec(lines[i - 1]?.trim() ?? "");
    const end = lines.indexOf("```", i + 1);
    blocks.push({ name: marker?.[1] ?? null, line: i + 2, text: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return blocks;
}

/** A port of this suite's range (8850-8899; this worker's 25 of it, test/support/test-ports.mjs) that nothing listens
 * on now. */
export async function freePort(from = 8850 + 25 * slot(), to = from + 24) {
  for (
    let port = from + Math.floor(Math.random() * (to - from)), n = 0;
    n <= to - from;
    n++, port = port === to ? from : port + 1
  ) {
    const free = await new Promise((resolve) => {
      const probe = createServer().once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/**
 * Starts a long-running command (a `wrangler dev`) in its own process group, resolves once
 * `url` answers 200. `stop()` ends the group: wrangler and its workerd processes.
 */
export async function startServer(command, args, { cwd, env = {}, url, timeoutMs = 90_000 }) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await exited;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { stop, output: () => output };
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`${command} ${args.join(" ")} did not answer ${url}:\n${output}`);
}
