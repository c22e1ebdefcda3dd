/// <reference types="vite/types/importMeta.d.ts" />
import { describe, expect, it } from "vitest";
import { call } from "../harness";
import { PERMISSIONS } from "../../src/services/permissions";
import { documentOf } from "../support/api";

/** Every endpoint file, as text: Vite reads them at build time, so this runs in the Workers pool. */
const ROUTE_FILES: Record<string, string> = import.meta.glob("../../src/routes/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

const CODENAMES = new Set<string>(PERMISSIONS.map((p) => p.codename));

/** The permissions a source names, each as a string of its own (`authorize(c, "…")`, `chatbotWith(c, id, "…")`). */
const named = (source: string) =>
  [...source.matchAll(/"([a-z_]+\.[a-z]+)"/g)].map(([, p]) => p).filter((p) => CODENAMES.has(p));

/**
 * The operations a file declares with a literal path (`createRoute({ method, path })`; `method` alone is a PUT and
 * PATCH pair's) and the permissions its handler names, in place or in a helper of its folder that is no endpoint
 * (`changeConversation` in routes/conversations/change.ts authorizes the operator's changes).
 */
function declared(file: string, source: string) {
  const operations = [...source.matchAll(/createRoute\(\{\s*method(?::\s*"(\w+)")?,\s*path:\s*"([^"]+)"/g)].flatMap(
    ([, method, path]) => (method ? [method] : ["put", "patch"]).map((m) => ({ method: m, path })),
  );
  const helpers = [...source.matchAll(/from "\.\/([\w-]+)"/g)]
    .map(([, name]) => ROUTE_FILES[file.replace(/[^/]+$/, `${name}.ts`)] ?? "")
    .filter((helper) => !helper.includes("createRoute("));
  const permissions = [...new Set([source, ...helpers].flatMap(named))];
  return { operations, permissions };
}

/**
 * The reference says what each endpoint needs (docs/decisions.md, "One word per concept, and where a record's shape
 * is written"): its description starts "Needs `permission`" and names every permission the handler authorizes with,
 * so the sentence a developer reads cannot drift from the check the code makes.
 */
describe("route permissions", () => {
  it("each endpoint's description starts with what it needs, naming the permissions its handler checks", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const wrong: string[] = [];
    let checked = 0;
    for (const [file, source] of Object.entries(ROUTE_FILES)) {
      const { operations, permissions } = declared(file, source);
      if (!permissions.length) continue;
      for (const { method, path } of operations) {
        const operation = doc.paths[`/api/v1${path}`]?.[method] as { description?: string } | undefined;
        const description = operation?.description ?? "";
        checked++;
        const missing = permissions.filter((p) => !description.includes(`\`${p}\``));
        if (!description.startsWith("Needs ") || missing.length)
          wrong.push(`${file} ${method.toUpperCase()} ${path}: "${description.slice(0, 60)}" (${permissions})`);
      }
    }
    expect(wrong).toEqual([]);
    // The parsing above found the endpoints: 164 name their permission in place (others check it through a helper
    // of theirs, such as a knowledge base's visibility, or need none: sign-in, the widget, the signed uploads).
    expect(checked).toBeGreaterThan(150);
  });
});
