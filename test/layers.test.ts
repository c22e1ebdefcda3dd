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

const ROUTES: Record<string, string> = import.meta.glob("../src/routes/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** A route file that reads or writes the database itself instead of calling its service. */
const QUERY_IN_ROUTE = new RegExp(
  [
    /from\s+["']drizzle-orm/,
    /from\s+["'][^"']*db\/schema/,
    /\bDB\.prepare\(/,
    /\b(db|DB)\.(select|insert|update|delete|batch|exec)\(/,
  ]
    .map((r) => r.source)
    .join("|"),
);

const routeQueries = (sources: Record<string, string>) =>
  Object.entries(sources)
    .filter(([, source]) => QUERY_IN_ROUTE.test(source))
    .map(([file]) => file)
    .sort();

describe("routes hold no queries", () => {
  it("reads every route file", () => {
    expect(Object.keys(ROUTES).length).toBeGreaterThan(250);
  });

  it("no route file imports drizzle or the tables, or queries D1: its service does", () => {
    expect(routeQueries(ROUTES)).toEqual([]);
  });

  it("the check recognises a query in a route", () => {
    expect(
      routeQueries({
        "a.ts": 'import { eq } from "drizzle-orm";',
        "b.ts": 'import { chatbots } from "../../db/schema";',
        "c.ts": 'await c.env.DB.prepare("SELECT 1").first();',
        "d.ts": "const rows = await db.select().from(x);",
        "e.ts": 'import { listLabels } from "../../services/labels";',
      }),
    ).toEqual(["a.ts", "b.ts", "c.ts", "d.ts"]);
  });
});
