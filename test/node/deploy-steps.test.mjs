// The README's deploy steps create every resource wrangler.toml binds: D1 databases, R2 buckets,
// queues (and their dead-letter queues), Vectorize indexes (the optional block too, commented out),
// and set every secret. wrangler.toml is read by wrangler itself.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { experimental_readRawConfig } from "wrangler";
import { readmeShellBlocks, root } from "./support/checkout.mjs";

const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
const { rawConfig: config } = experimental_readRawConfig({ config: path.join(root, "wrangler.toml") });

/** What wrangler.toml names, as the README's commands would create it. */
function resourcesOfConfig() {
  const queues = [
    ...(config.queues?.producers ?? []).map((q) => q.queue),
    ...(config.queues?.consumers ?? []).flatMap((q) => [q.queue, q.dead_letter_queue]),
  ];
  // Optional bindings are commented out until an operator enables them; their names still count.
  const commentedIndexes = [...toml.matchAll(/^#\s*index_name\s*=\s*"([^"]+)"/gm)].map((m) => m[1]);
  const secrets =
    /^# Secrets[^:]*: (.+)$/m
      .exec(toml)?.[1]
      .split(/[\s,]+/)
      .filter((s) => /^[A-Z_]+$/.test(s)) ?? [];
  return {
    d1: (config.d1_databases ?? []).map((d) => d.database_name),
    r2: (config.r2_buckets ?? []).map((b) => b.bucket_name),
    queues: queues.filter(Boolean),
    vectorize: [...(config.vectorize ?? []).map((v) => v.index_name), ...commentedIndexes],
    secrets,
  };
}

/** What the README's deploy block creates. */
function resourcesOfReadme(text) {
  const all = (re) => [...text.matchAll(re)].map((m) => m[1]);
  return {
    d1: all(/wrangler d1 create (\S+)/g),
    r2: all(/wrangler r2 bucket create (\S+)/g),
    queues: all(/wrangler queues create (\S+)/g),
    vectorize: all(/wrangler vectorize create (\S+)/g),
    secrets: all(/wrangler secret put (\S+)/g),
  };
}

const unique = (list) => [...new Set(list)].sort();

describe("the README's deploy steps and wrangler.toml", () => {
  it("create the same D1 databases, R2 buckets, queues, Vectorize indexes and secrets", () => {
    const block = readmeShellBlocks().find((b) => b.name === "deploy");
    expect(block, "README: a ```sh block after <!-- test: deploy -->").toBeTruthy();
    const wanted = resourcesOfConfig();
    const readme = resourcesOfReadme(block.text);
    for (const kind of Object.keys(wanted)) {
      const [inToml, inReadme] = [unique(wanted[kind]), unique(readme[kind])];
      const missingFromReadme = inToml.filter((name) => !inReadme.includes(name));
      const notInWranglerToml = inReadme.filter((name) => !inToml.includes(name));
      expect({ kind, missingFromReadme, notInWranglerToml }).toEqual({
        kind,
        missingFromReadme: [],
        notInWranglerToml: [],
      });
    }
    expect(wanted.queues.length).toBeGreaterThanOrEqual(3);
  });

  it("the README's bindings table names every binding wrangler.toml declares", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const table = /Bindings \(`wrangler.toml`[^\n]*\n\n((?:\|[^\n]*\n)+)/.exec(readme)?.[1] ?? "";
    const named = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    const bindings = [
      ...(config.d1_databases ?? []),
      ...(config.r2_buckets ?? []),
      ...(config.durable_objects?.bindings ?? []).map((b) => ({ binding: b.name })),
      ...(config.queues?.producers ?? []),
      ...(config.assets?.binding ? [{ binding: config.assets.binding }] : []),
    ].map((b) => b.binding);
    expect(bindings.length).toBeGreaterThan(5);
    expect(bindings.filter((b) => !named.has(b))).toEqual([]);
  });

  it("the secrets wrangler.toml lists are the settings .dev.vars.example sets", () => {
    const example = readFileSync(path.join(root, ".dev.vars.example"), "utf8");
    const set = [...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]);
    expect(unique(resourcesOfConfig().secrets)).toEqual(unique(set));
  });
});
