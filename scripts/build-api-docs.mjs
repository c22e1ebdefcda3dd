#!/usr/bin/env node
// The interactive API reference (`/api/docs/`): Swagger UI from the swagger-ui-dist package, copied
// into the worker's static assets folder (dist/assets/api-docs, see scripts/build-assets.mjs) with a
// page and a start script of our own, so the browser loads nothing from a CDN.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const { version } = JSON.parse(readFileSync(path.join(dist, "package.json"), "utf8"));

/**
 * Swagger UI's own script and styles may be inline attributes (`style=`) and `data:` images; every
 * script is one of these files, and the page reads and calls only this origin.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const page = (bundle, styles) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Assistant Platform API</title>
    <link rel="stylesheet" href="/api-docs/${styles}" />
    <link rel="icon" type="image/png" href="/api-docs/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="/api-docs/${bundle}"></script>
    <script src="/api-docs/start.js"></script>
  </body>
</html>
`;

// The document of this origin; "Try it out" sends the key given under Authorize (`Api-Key <key>`).
// Every operation is served under both /api/v1 and /api, and the document lists both: the page shows
// the /api/v1 form once, which halves what Swagger UI parses and draws (all of it, on a busy machine's
// Chromium, took over 30 s before the filter box showed). Some 170 operations: a box filters them by
// tag. No badge from Swagger's online validator: the page calls no other site.
const START = `fetch("/api/v1/openapi.json")
  .then((res) => res.json())
  .then((doc) => {
    const once = ([path]) => !path.startsWith("/api/") || path.startsWith("/api/v1/");
    doc.paths = Object.fromEntries(Object.entries(doc.paths).filter(once));
    window.ui = SwaggerUIBundle({
      spec: doc,
      dom_id: "#swagger-ui",
      deepLinking: true,
      filter: true,
      validatorUrl: null,
      persistAuthorization: true,
      presets: [SwaggerUIBundle.presets.apis],
    });
  });
`;

/** Writes the page's files into `outDir`/api-docs; returns the headers they are served with (by path pattern). */
export async function buildApiDocs({ outDir, quiet = false }) {
  const out = path.join(outDir, "api-docs");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // The version in the names: a new Swagger UI is a new URL, so browsers may keep these for good.
  const bundle = `swagger-ui-bundle-${version}.js`;
  const styles = `swagger-ui-${version}.css`;
  const withoutMap = (file) =>
    readFileSync(path.join(dist, file), "utf8")
      .replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n")
      .replace(/\/\*# sourceMappingURL=[^*]+\*\/\s*$/, "\n");
  writeFileSync(path.join(out, bundle), withoutMap("swagger-ui-bundle.js"));
  writeFileSync(path.join(out, styles), withoutMap("swagger-ui.css"));
  writeFileSync(path.join(out, "favicon-32x32.png"), readFileSync(path.join(dist, "favicon-32x32.png")));
  writeFileSync(path.join(out, "start.js"), START);
  writeFileSync(path.join(out, "index.html"), page(bundle, styles));
  if (!quiet) console.log(`api-docs: Swagger UI ${version}`);
  // Every matching rule applies, in order (scripts/build-assets.mjs): the page and the files add to the first.
  const forGood = { "Cache-Control": "public, max-age=31536000, immutable" };
  return {
    headers: {
      "/api-docs/*": {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "Cache-Control": "no-cache",
      },
      "/api-docs/index.html": { "Content-Security-Policy": CSP },
      [`/api-docs/${bundle}`]: forGood,
      [`/api-docs/${styles}`]: forGood,
    },
  };
}
