import type { Context } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { notConfigured, notFound } from "../lib/errors";
import { fromBase64 } from "../lib/base64";
import { staticFiles, type StaticFile, type StaticFront } from "../vendored";

/** A file ready to answer with: its headers and its bytes, encoded once per isolate. */
interface Served {
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

/** The file with its headers; 304 when the client holds this version (its ETag). HEAD: Hono drops the body. */
function serve(c: Context<AppEnv>, file: Served | undefined) {
  if (!file) throw notFound();
  const held = c.req.header("If-None-Match");
  if (
    held?.split(/\s*,\s*/).some((tag) => tag === file.headers.ETag || tag === `W/${file.headers.ETag}` || tag === "*")
  ) {
    return new Response(null, { status: 304, headers: file.headers });
  }
  return new Response(file.bytes, { headers: file.headers });
}

/**
 * The widget's script, the operator console and the API reference (Swagger UI), built by
 * scripts/build-assets.mjs into modules the worker imports on the first request for them. The
 * worker serves them itself: wrangler's asset router in front of it cost every API request ~0.5 ms
 * (docs/decisions.md, "The streamed first byte").
 *
 * A path under /console/ that is no file is one of the console's own pages (`/console/models`, a
 * deep link or a reload): it gets the shell (`/console/index.html`), or the shell of its first
 * segment when the build wrote one (`/console/shells/assistants.html`, which also names that page's
 * chunk, so the browser asks for it beside the shell's). Missing hashed files stay 404s, so a stale
 * tab reloads rather than running HTML as a script.
 */
export function registerStaticFiles(app: OpenAPIHono<AppEnv>) {
  app.get("/widget.js", async (c) => serve(c, (await filesOf("widget")).get("/widget.js")));
  // The interactive API reference: its page under the API's prefixes, its files under /api-docs/.
  const reference = async (c: Context<AppEnv>) => serve(c, (await filesOf("api-docs")).get("/api-docs/index.html"));
  app.get("/api/docs/", reference);
  app.get("/api/v1/docs/", reference);
  app.get("/api-docs/*", async (c) => serve(c, (await filesOf("api-docs")).get(c.req.path)));
  app.get("/console/*", async (c) => {
    const files = await filesOf("console");
    if (c.req.path.startsWith("/console/assets/")) return serve(c, files.get(c.req.path));
    const segment = /^\/console\/([\w-]+)/.exec(c.req.path)?.[1];
    return serve(c, (segment && files.get(`/console/shells/${segment}.html`)) || files.get("/console/index.html"));
  });
}
