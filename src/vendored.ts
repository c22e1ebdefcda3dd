// Without this file the build fails ("Could not resolve ./vendor/manifest.json"): the modules
// were not built. `npm install` builds them, or `npm run build:vendor` (scripts/build-vendor.mjs).
import built from "./vendor/manifest.json";
import { lazy } from "./lib/lazy";

/** What each module of src/vendor exports. */
interface Vendored {
  pdf: Pick<typeof import("unpdf"), "extractTextItems" | "getDocumentProxy" | "getMeta">;
  postgres: { default: typeof import("postgres") };
  xlsx: typeof import("write-excel-file/node");
  postalMime: { default: typeof import("postal-mime").default };
  grammy: Pick<typeof import("grammy/web"), "Api" | "GrammyError" | "HttpError">;
  /** The code of the Dynamic Worker function tools run in, as text, the worker's compatibility date and a hash of both
   * (scripts/build-vendor.mjs). */
  functionIsolate: { default: string; compatibilityDate: string; version: string };
}

const PATHS: Record<keyof Vendored, string> = {
  pdf: "./vendor/pdf.js",
  postgres: "./vendor/postgres.js",
  xlsx: "./vendor/xlsx.js",
  postalMime: "./vendor/postalMime.js",
  grammy: "./vendor/grammy.js",
  functionIsolate: "./vendor/functionIsolate.js",
};

/**
 * A library uploaded as a module of its own, imported by its first user: whatever is in the worker's
 * script is compiled at every cold start, and the node: modules it imports statically are evaluated
 * then, used or not (docs/decisions.md, "Cold start"). The specifier is a variable, so that the bundler
 * leaves the import to workerd; it is resolved against this file, which sits beside src/vendor both
 * in the sources (tests) and in the upload (the script's root).
 */
export function vendored<K extends keyof Vendored>(name: K): Promise<Vendored[K]> {
  const load = vendoredModules[name];
  if (!load) throw new Error(`src/vendor/${name}.js was not built: run npm run build:vendor.`);
  return load() as Promise<Vendored[K]>;
}

/** The built ones, each imported once (src/lib/lazy.ts). */
const vendoredModules: Partial<Record<keyof Vendored, () => Promise<unknown>>> = Object.fromEntries(
  Object.keys(built).map((name) => {
    const specifier = PATHS[name as keyof Vendored];
    return [name, lazy(() => import(/* @vite-ignore */ specifier))];
  }),
);

/** A file of a front end (scripts/build-assets.mjs): its headers and its text, or its bytes in base64. */
export interface StaticFile {
  headers: Record<string, string>;
  body?: string;
  base64?: string;
}

/** The front ends served by the worker: src/vendor/static-<name>.js, URL path -> file. */
export type StaticFront = "widget" | "console" | "api-docs";

/** A front end's files, imported on the first request for one (its module is not compiled before). */
export async function staticFiles(name: StaticFront): Promise<Record<string, StaticFile>> {
  return (await staticModules[name]()).default;
}

const staticModules = Object.fromEntries(
  (["widget", "console", "api-docs"] as const).map((name) => [
    name,
    lazy(() => {
      const specifier = `./vendor/static-${name}.js`;
      return import(/* @vite-ignore */ specifier);
    }),
  ]),
) as Record<StaticFront, () => Promise<{ default: Record<string, StaticFile> }>>;
