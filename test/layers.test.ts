/// <reference types="vite/types/importMeta.d.ts" />
import { describe, expect, it } from "vitest";

/**
 * Data flows down: routes use services, never the reverse. Nothing below a route (services, queue
 * consumers, lib, middleware, the database schema, Durable Objects) may import a route file.
 * Vite reads the sources at build time, so this runs in the Workers pool without a file system.
 */
const LOWER_LAYERS: Record<string, string> = {
  ...import.meta.glob("../src/services/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../src/queues/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../src/lib/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../src/middleware/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../src/db/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../durable-objects/**/*.ts", { query: "?raw", import: "default", eager: true }),
};

/** `from "…/routes/…"`, `import("…/routes/…")` and `export … from "…/routes/…"`. */
const ROUTE_IMPORT = /(?:from\s+|import\s*\(\s*)["'][^"']*routes\//;

function routeImports(sources: Record<string, string>): string[] {
  return Object.entries(sources)
    .filter(([, source]) => ROUTE_IMPORT.test(source))
    .map(([file]) => file)
    .sort();
}

describe("layers", () => {
  it("reads the sources of every lower layer", () => {
    const files = Object.keys(LOWER_LAYERS);
    for (const folder of [
      "src/services/",
      "src/queues/",
      "src/lib/",
      "src/middleware/",
      "src/db/",
      "durable-objects/",
    ]) {
      expect(
        files.some((f) => f.includes(folder)),
        folder,
      ).toBe(true);
    }
    expect(Object.values(LOWER_LAYERS).every((source) => typeof source === "string" && source.length > 0)).toBe(true);
  });

  it("nothing below a route imports from src/routes", () => {
    expect(routeImports(LOWER_LAYERS)).toEqual([]);
  });

  it("the check recognises a route import", () => {
    expect(
      routeImports({
        "a.ts": 'import { messageRecord } from "../src/routes/messages/schema";',
        "b.ts": "export { x } from '../../routes/x';",
        "c.ts": 'const m = await import("../routes/y");',
        "d.ts": 'import { ms } from "../lib/time"; // see routes/messages',
      }),
    ).toEqual(["a.ts", "b.ts", "c.ts"]);
  });
});
