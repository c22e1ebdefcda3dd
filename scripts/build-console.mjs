#!/usr/bin/env node
// Builds the operator console (console/src) into `outDir`/console, served by the worker at
// /console/ (src/routes/static-files.ts; deep links get the shell of their page).
// Preact + signals bundled by esbuild: one entry, a chunk per page (loaded when first visited),
// content-hashed file names under console/assets/, and one CSS file made of every .css under
// console/src (so a page adds styles by adding a file in its folder, imported by nobody).
// The shell's code is one chunk, and the HTML of a page's address names that page's chunk too
// (console/shells/<segment>.html, which the worker serves for /console/<segment>/...), so a first
// visit asks for its files in one round: HTML, then CSS, entry, shell chunk, page chunk, session.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const src = path.join(root, "console", "src");

/**
 * The console's Content-Security-Policy: only its own scripts, styles, fonts and API; no inline
 * script or style; images from the API and https (organization logos, avatars); no framing of it.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Every .css file under console/src, in path order, as one stylesheet (the `console:styles` import of main.tsx). */
const allStyles = {
  name: "console-styles",
  setup(b) {
    b.onResolve({ filter: /^console:styles$/ }, () => ({ path: "styles.css", namespace: "console-styles" }));
    b.onLoad({ filter: /.*/, namespace: "console-styles" }, () => {
      const files = readdirSync(src, { recursive: true })
        .filter((f) => f.endsWith(".css"))
        .sort();
      return {
        contents: files.map((f) => `@import ${JSON.stringify(path.join(src, f))};`).join("\n"),
        loader: "css",
        resolveDir: src,
        watchFiles: files.map((f) => path.join(src, f)),
      };
    });
  },
};

/**
 * Every module of console/src loaded by `import()` (the pages, the CSV reader) imports the shell's
 * modules (main.tsx's imports but the styles), so esbuild puts them all in one chunk shared by the
 * shell and those chunks. Without this, each set of pages that shares a module with the shell got a
 * chunk of its own: 14 small files for the shell, 4 rounds of requests on the 6 connections a
 * browser opens to wrangler dev (HTTP/1.1), 300-400 ms of a cold load.
 */
const shellOnce = {
  name: "console-shell-once",
  setup(b) {
    b.onResolve({ filter: /^console:shell$/ }, () => ({ path: "shell", namespace: "console-shell" }));
    b.onLoad({ filter: /.*/, namespace: "console-shell" }, () => {
      const main = readFileSync(path.join(src, "main.tsx"), "utf8");
      const modules = [...main.matchAll(/^import\s+(?:[^"]*\sfrom\s+)?"([^"]+)";/gm)]
        .map((m) => m[1])
        .filter((m) => m !== "console:styles");
      return { contents: modules.map((m) => `import ${JSON.stringify(m)};`).join("\n"), loader: "js", resolveDir: src };
    });
    const lazy = new Set();
    for (const file of readdirSync(src, { recursive: true }).filter((f) => /\.tsx?$/.test(f))) {
      const dir = path.dirname(path.join(src, file));
      for (const m of readFileSync(path.join(src, file), "utf8").matchAll(/import\("(\.{1,2}\/[^"]+)"\)/g))
        lazy.add(path.resolve(dir, m[1]));
    }
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (!lazy.has(args.path.replace(/\.tsx?$/, ""))) return undefined;
      return {
        contents: `import "console:shell";\n${readFileSync(args.path, "utf8")}`,
        loader: args.path.endsWith("x") ? "tsx" : "ts",
      };
    });
  },
};

/** The first segment of each page's address and its folder, from the page registry (pages/index.ts, as Biome lays it
 * out). */
function pagePaths() {
  const registry = readFileSync(path.join(src, "pages", "index.ts"), "utf8");
  // Each entry's `path` and, later in the same entry (no brace between), its `load`.
  const found = [...registry.matchAll(/path: "\/([\w-]+)[^"]*",[^{}]*?load: \(\) => import\("\.\/([\w-]+)\/page"\)/g)];
  const declared = registry.match(/\bpath: "/g)?.length ?? 0;
  if (found.length !== declared)
    throw new Error(`pages/index.ts: ${declared} pages declare a path, ${found.length} were read with their load`);
  return found.map((m) => ({ segment: m[1], folder: m[2] }));
}

const html = ({ js, css, preload }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Console</title>
<link rel="icon" href="${ICON}">
<link rel="stylesheet" href="/console/${css}">
<link rel="preload" href="/api/v1/auth/sessions/current/" as="fetch" crossorigin="anonymous">
${preload.map((p) => `<link rel="modulepreload" href="/console/${p}">`).join("\n")}
<script type="module" src="/console/${js}"></script>
</head>
<body>
<div id="app"></div>
<noscript><p>The console needs JavaScript.</p></noscript>
</body>
</html>
`;

// In the HTML (img-src allows data:): one request fewer beside the ones a first visit waits for.
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4338ca"/>' +
  '<path d="M9 11h14v8H15l-4 4v-4H9z" fill="#fff"/></svg>';
const ICON = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;

/** Builds into `outDir`/console; returns the figures and the headers its files are served with (by path pattern). */
export async function buildConsole({ quiet = false, outDir }) {
  const out = path.join(outDir, "console");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, "assets"), { recursive: true });
  const result = await build({
    entryPoints: { app: path.join(src, "main.tsx") },
    outdir: path.join(out, "assets"),
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    metafile: true,
    logLevel: "error",
    plugins: [allStyles, shellOnce],
  });
  const outputs = result.metafile.outputs;
  const rel = (file) => path.relative(out, path.join(root, file)).split(path.sep).join("/");
  const [entryFile, entry] = Object.entries(outputs).find(([, o]) => o.entryPoint?.endsWith("main.tsx"));
  const statics = (file) => outputs[file].imports.filter((i) => i.kind === "import-statement").map((i) => i.path);
  const shellFiles = [entryFile, ...statics(entryFile)];
  if (shellFiles.length > 2)
    throw new Error(
      `the console's shell is ${shellFiles.length} files, not 2 (see shellOnce): ${shellFiles.join(", ")}`,
    );
  // A page's chunk and the chunks only it needs.
  const pageFiles = (file) => [file, ...statics(file)].filter((f) => !shellFiles.includes(f));
  const pageEntries = Object.entries(outputs).filter(([, o]) => o.entryPoint?.includes("console/src/pages/"));
  const folderFiles = Object.fromEntries(
    pageEntries.map(([file, o]) => [o.entryPoint.split("/").slice(-2, -1)[0], pageFiles(file)]),
  );
  const shell = (pageFilesToo = []) =>
    html({ js: rel(entryFile), css: rel(entry.cssBundle), preload: [...statics(entryFile), ...pageFilesToo].map(rel) });
  const paths = pagePaths();
  const unknown = paths.filter((p) => !folderFiles[p.folder]);
  if (!paths.length || unknown.length)
    throw new Error(
      `pages/index.ts: no chunk for ` +
        `${unknown.map((p) => p.folder).join(", ") || "any page (is the registry's form changed?)"}`,
    );
  // /console/ opens the start page, the registry's first for most members.
  writeFileSync(path.join(out, "index.html"), shell(folderFiles[paths[0].folder]));
  // Another build of this checkout (a test run beside `npm run dev`) may have made it: both write the same files.
  mkdirSync(path.join(out, "shells"), { recursive: true });
  for (const { segment, folder } of paths)
    writeFileSync(path.join(out, "shells", `${segment}.html`), shell(folderFiles[folder]));
  // What a first visit downloads before any page (the shell's JS with its static chunks, and the
  // CSS), and what each page adds when first visited (its chunk and the chunks only it needs).
  const gzip = (file) => gzipSync(readFileSync(path.join(root, file)), { level: 9 }).length;
  const pages = Object.fromEntries(
    Object.entries(folderFiles).map(([folder, files]) => [folder, files.reduce((n, f) => n + gzip(f), 0)]),
  );
  const figures = { jsGzip: shellFiles.reduce((n, f) => n + gzip(f), 0), cssGzip: gzip(entry.cssBundle), pages };
  if (!quiet)
    console.log(
      `console: shell ${figures.jsGzip} B JS + ${figures.cssGzip} B CSS, pages ${JSON.stringify(pages)} (bytes gzip)`,
    );
  const headers = {
    "/console/*": {
      "Content-Security-Policy": CONSOLE_CSP,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    },
    // Hashed names change with their content: cached for good. The shells are asked again each time
    // (their ETag answers 304 when unchanged), so a new build reaches an open browser at its next load.
    "/console/assets/*": { "Cache-Control": "public, max-age=31536000, immutable" },
    "/console/index.html": { "Cache-Control": "no-cache" },
    "/console/shells/*": { "Cache-Control": "no-cache" },
  };
  return { ...figures, headers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Into the assets folder of scripts/build-assets.mjs (not imported: it imports this file).
  await buildConsole({ outDir: path.join(root, "dist", "assets") });
}
