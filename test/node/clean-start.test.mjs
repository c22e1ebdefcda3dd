// The README's by-hand start on a fresh clone: no dist/ (no built assets), no .wrangler/ state, no
// .dev.vars. The README's own commands run in a shell whose PATH is the machine's (no npm script's
// node_modules/.bin, so the first `node` may be Node 20); `npx wrangler dev` must build the assets
// itself (wrangler.toml `[build]`), answer /health and serve /widget.js.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { copyCheckout, freePort, readmeShellBlocks, startServer } from "./support/checkout.mjs";

/** The PATH of a shell outside npm scripts: without any node_modules/.bin. */
const plainPath = process.env.PATH.split(path.delimiter)
  .filter((p) => !p.includes(`node_modules${path.sep}.bin`))
  .join(path.delimiter);
const shell = (dir, script) =>
  execFileSync("bash", ["-euo", "pipefail", "-c", script], {
    cwd: dir,
    env: { ...process.env, PATH: plainPath },
    encoding: "utf8",
    input: "y\n",
  });

let checkout;
let commands;

beforeAll(() => {
  checkout = copyCheckout();
  const block = readmeShellBlocks().find((b) => b.name === "by-hand start");
  expect(block, "README: a ```sh block after <!-- test: by-hand start -->").toBeTruthy();
  commands = block.text
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l && !l.startsWith("#"));
});

afterAll(() => checkout?.remove());

describe("a fresh clone, started by hand as the README says", () => {
  it("`npx wrangler dev` builds the assets, answers /health and serves /widget.js and the console", async () => {
    expect(existsSync(path.join(checkout.dir, "dist"))).toBe(false);
    expect(commands.at(-1)).toBe("npx wrangler dev");
    shell(checkout.dir, commands.slice(0, -1).join("\n"));
    const port = await freePort();
    const server = await startServer("bash", ["-c", `${commands.at(-1)} --port ${port}`], {
      cwd: checkout.dir,
      env: { PATH: plainPath },
      url: `http://127.0.0.1:${port}/health`,
      timeoutMs: 120_000,
    });
    try {
      expect(server.output()).toContain("[custom build] Running: node scripts/build-assets.mjs");
      // The example's placeholders are refused: /health names them until the operator puts their own values in.
      const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
      expect(health).toMatchObject({ status: "degraded", resources: [] });
      expect(health.settings.map((s) => s.name)).toEqual(["ENCRYPTION_KEY", "BOOTSTRAP_API_KEY"]);
      for (const s of health.settings) expect(s.problem).toContain("placeholder of .dev.vars.example");
      // `/` leads a person to the console.
      const root = await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual" });
      expect(root.status).toBe(302);
      expect(root.headers.get("Location")).toBe("/console/");
      const widget = await fetch(`http://127.0.0.1:${port}/widget.js`);
      expect(widget.status).toBe(200);
      expect(widget.headers.get("Content-Type")).toMatch(/javascript/);
      // Sites on any origin load it, and a new version reaches them within minutes (scripts/build-widget.mjs).
      expect(widget.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(widget.headers.get("Cache-Control")).toBe("public, max-age=300");
      expect(await widget.text()).toContain("data-web-chat-id");
      // The operator console: its shell, and the shell again for a deep link (the worker's fallback).
      for (const page of ["/console/", "/console/models"]) {
        const console = await fetch(`http://127.0.0.1:${port}${page}`);
        expect(console.status, page).toBe(200);
        expect(await console.text(), page).toContain('<div id="app"></div>');
      }
    } finally {
      await server.stop();
    }
    // The README's commands migrate each D1 binding (DB and the organization shards), a wrangler start each.
  }, 240_000);

  it("the assets build with the node first on a plain PATH (Node 20 on this machine)", () => {
    const output = shell(checkout.dir, "node --version && node scripts/build-assets.mjs");
    expect(output).toMatch(/^v\d+\.\d+\.\d+\nwidget\.js: \d+ bytes/);
  });
});
