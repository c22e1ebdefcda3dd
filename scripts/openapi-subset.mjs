// The part of the OpenAPI document one client calls: its paths and the components they reach. Pure JavaScript, so
// `npm run console:types` (Node) and the staleness test (test/conventions/console-types.test.ts, workerd) cut the
// same part and hash the same text.

/** The widget calls only its web chat's public endpoints (src/routes/widget). */
export const WIDGET_PATHS = "/api/v1/web-chats/{id}/public/";

/** The document with only the paths `keep` accepts, and only the components those paths reach. */
export function onlyPaths(doc, keep) {
  const paths = Object.fromEntries(Object.entries(doc.paths).filter(([p]) => keep(p)));
  // The requests the API makes (`webhooks`) are no client's to send.
  const { webhooks: _, ...rest } = doc;
  doc = rest;
  if (!doc.components) return { ...doc, paths };
  // "#/components/<kind>/<name>" references, followed through the components they name.
  const reached = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/") && !reached.has(v)) {
        reached.add(v);
        const [kind, name] = v.slice("#/components/".length).split("/");
        visit(doc.components[kind]?.[name]);
      } else visit(v);
    }
  };
  visit(paths);
  const components = {};
  for (const [kind, entries] of Object.entries(doc.components)) {
    // Security schemes are named by operations (`security`), not referenced.
    const kept = Object.entries(entries).filter(
      ([name]) => kind === "securitySchemes" || reached.has(`#/components/${kind}/${name}`),
    );
    if (kept.length) components[kind] = Object.fromEntries(kept);
  }
  return { ...doc, paths, components };
}

/** The widget's part of the document (widget/src/api-schema.d.ts is generated from it). */
export const widgetDocument = (doc) => onlyPaths(doc, (p) => p.startsWith(WIDGET_PATHS));
