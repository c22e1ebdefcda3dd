// The front ends the worker serves itself (the widget's script, the console, the API reference), from the modules
// scripts/build-assets.mjs writes (docs/decisions.md, "The streamed first byte").
import { notConfigured } from "../lib/errors";
import { fromBase64 } from "../lib/base64";
import { staticFiles, type StaticFile, type StaticFront } from "../vendored";

/** A file ready to answer with: its headers and its bytes, encoded once per isolate. */
export interface Served {
  headers: Record<string, string>;
  bytes: Uint8Array;
}

const fronts = new Map<StaticFront, Promise<Map<string, Served>>>();

function encode(file: StaticFile): Served {
  const bytes = file.base64 !== undefined ? fromBase64(file.base64) : new TextEncoder().encode(file.body ?? "");
  return { headers: file.headers, bytes };
}

/** A front end's files by URL path; a build without them is the operator's problem, named. */
function filesOf(name: StaticFront): Promise<Map<string, Served>> {
  let files = fronts.get(name);
  if (!files) {
    files = staticFiles(name).then(
      (all) => new Map(Object.entries(all).map(([path, file]) => [path, encode(file)])),
      () => {
        fronts.delete(name);
        throw notConfigured(
          `The ${name}'s files (src/vendor/static-${name}.js) were not built: run \`npm run build:assets\`.`,
        );
      },
    );
    fronts.set(name, files);
  }
  return files;
}

/** The file of front end `name` at URL `path`, if there is one. */
export async function staticFile(name: StaticFront, path: string): Promise<Served | undefined> {
  return (await filesOf(name)).get(path);
}

/**
 * The console's file for `path`: a hashed asset as it is (missing ones stay 404s, so a stale tab reloads rather than
 * running HTML as a script); any other path is one of the console's own pages (`/console/models`, a deep link or a
 * reload), which gets the shell of its first segment when the build wrote one (`/console/shells/assistants.html`,
 * which also names that page's chunk, so the browser asks for it beside the shell's), else `/console/index.html`.
 */
export async function consoleFile(path: string): Promise<Served | undefined> {
  const files = await filesOf("console");
  if (path.startsWith("/console/assets/")) return files.get(path);
  const segment = /^\/console\/([\w-]+)/.exec(path)?.[1];
  return (segment && files.get(`/console/shells/${segment}.html`)) || files.get("/console/index.html");
}

/** Whether the client's `If-None-Match` holds this version of the file (its ETag): then 304. */
export const heldByClient = (file: Served, ifNoneMatch: string | undefined): boolean =>
  !!ifNoneMatch
    ?.split(/\s*,\s*/)
    .some((tag) => tag === file.headers.ETag || tag === `W/${file.headers.ETag}` || tag === "*");
