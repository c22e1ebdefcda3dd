/// <reference types="vite/types/importMeta.d.ts" />
import { describe, expect, it } from "vitest";

/**
 * What a cold isolate evaluates is the worker's script from src/index.ts through static imports
 * (docs/decisions.md, "Cold start"). These libraries are imported on first use, and these node: modules
 * (which the bundler hoists to the top of the script, so workerd evaluates them at every start) are
 * never imported statically. No timing here: `npm run bench -- startup` measures.
 */
const LAZY_PACKAGES = [
  "@modelcontextprotocol/sdk",
  "node-sql-parser",
  "quickjs-emscripten-core",
  "@jitl/quickjs-wasmfile-release-sync",
  "unpdf",
  "postgres",
  "write-excel-file",
  "@huggingface/jinja",
  "yaml",
  "htmlparser2",
  "papaparse",
  "fflate",
  "postal-mime",
  "grammy",
];
const HEAVY_NODE_MODULES = ["node:stream", "node:fs", "node:events", "node:child_process"];

const SOURCES: Record<string, string> = {
  ...import.meta.glob("../../src/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../durable-objects/**/*.ts", { query: "?raw", import: "default", eager: true }),
};

/** Value imports and re-exports (not `import type`), with their specifiers. */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    if (!m[1]) found.push(m[2]);
  }
  return found;
}

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  const base = parts.join("/");
  return [`${base}.ts`, `${base}/index.ts`].find((f) => f in SOURCES) ?? null;
}

/** Every source file a cold start evaluates, and what each imports from outside. */
function startupGraph() {
  const seen = new Set<string>();
  const external = new Map<string, string[]>();
  const queue = ["../../src/index.ts"];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(SOURCES[file])) {
      const target = resolve(file, specifier);
      if (target) queue.push(target);
      else if (!specifier.startsWith(".")) external.set(file, [...(external.get(file) ?? []), specifier]);
    }
  }
  return { seen, external };
}

describe("cold start", () => {
  it("reads the sources and follows the imports of the entry", () => {
    const { seen } = startupGraph();
    expect(seen.has("../../src/app.ts")).toBe(true);
    expect(seen.has("../../durable-objects/conversation-entry.ts")).toBe(true);
    // Route groups are imported by their first request, the built-in model by its first reply, the conversation
    // object's body (and the pipeline with it) by the object's first call.
    expect(seen.has("../../durable-objects/conversation.ts")).toBe(false);
    expect(seen.has("../../src/services/conversation/turn.ts")).toBe(false);
    expect([...seen].some((f) => f.includes("/src/routes/chatbots/"))).toBe(false);
    expect(seen.has("../../src/services/llm/local.ts")).toBe(false);
  });

  it("imports no heavy library and no heavy node: module from the script's start", () => {
    const offending = [...startupGraph().external].flatMap(([file, specifiers]) =>
      specifiers
        .filter((s) => HEAVY_NODE_MODULES.includes(s) || LAZY_PACKAGES.some((p) => s === p || s.startsWith(`${p}/`)))
        .map((s) => `${file.slice(6)} -> ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it("the check sees a static import, and not a type import or a dynamic one", () => {
    expect(
      staticImports(
        'import { a } from "x";\nimport type { B } from "y";\nexport { c } from "./z";\nconst d = await ' +
          'import("w");\nimport "./side";',
      ),
    ).toEqual(["x", "./z", "./side"]);
  });
});
