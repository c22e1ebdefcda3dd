import { describe, expect, it } from "vitest";
import { createRouter } from "../../src/lib/openapi";
import { ROUTE_GROUPS, routesFor } from "../../src/routes";

/** The first path segment of a route pattern: the key of the app that serves it (src/app.ts). */
const segmentOf = (path: string) => path.split("/")[1];
const routesOf = async (segment?: string) => {
  const router = createRouter();
  (await routesFor(segment))!(router);
  return router.routes.map((r) => `${r.method} ${r.path}`);
};

/**
 * Route groups are built on the first request under one of their segments (docs/decisions.md,
 * "Cold start"). A request can only be answered as before if its segment's app holds every route that
 * could match it, in the order of the eager build.
 */
describe("route groups", () => {
  it("each group declares exactly the first segments its routes use", async () => {
    for (const group of ROUTE_GROUPS) {
      const router = createRouter();
      (await group.load())(router);
      const used = [...new Set(router.routes.map((r) => segmentOf(r.path)))].sort();
      expect(used, String(group.load)).toEqual([...group.segments].sort());
    }
  });

  it("no route starts with a parameter, so a path's first segment names the only routes that can match", async () => {
    const all = await routesOf();
    expect(all.filter((r) => /^\S+ \/[:{*]/.test(r))).toEqual([]);
  });

  it("a segment's app has the routes of that segment in the order of the whole API", async () => {
    const all = await routesOf();
    const segments = [...new Set(ROUTE_GROUPS.flatMap((g) => g.segments))];
    for (const segment of segments) {
      const own = (await routesOf(segment)).filter((r) => segmentOf(r.split(" ")[1]) === segment);
      expect(own, segment).toEqual(all.filter((r) => segmentOf(r.split(" ")[1]) === segment));
    }
    expect(await routesFor("no-such-segment")).toBeNull();
  });

  it("no route stands behind an earlier one: a fixed segment comes before a parameter in its place", async () => {
    // The router answers with the first route that matches, so `GET /x/count/` registered after `GET /x/{id}/` would
    // reach the `{id}` handler (a malformed id: 404) and never its own.
    const router = createRouter();
    (await routesFor())!(router);
    const param = /:[^/]+/g;
    const earlier: { route: string; method: string; pattern: RegExp }[] = [];
    const hidden: string[] = [];
    for (const { method, path } of router.routes) {
      const route = `${method} ${path}`;
      if (earlier.some((e) => e.route === route)) continue; // a route's validators and handler: one entry each
      const instance = path.replace(param, "some-value");
      const before = earlier.find((e) => e.method === method && e.pattern.test(instance));
      if (before) hidden.push(`${route} behind ${before.route}`);
      const source = path.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(param, "[^/]+");
      earlier.push({ route, method, pattern: new RegExp(`^${source}$`) });
    }
    expect(earlier.length).toBeGreaterThan(250);
    expect(hidden).toEqual([]);
  });
});
