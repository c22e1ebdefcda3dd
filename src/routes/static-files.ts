import type { Context } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { consoleFile, heldByClient, type Served, staticFile } from "../services/static-files";

/** The file with its headers; 304 when the client holds this version (its ETag). HEAD: Hono drops the body. */
function serve(c: Context<AppEnv>, file: Served | undefined) {
  if (!file) throw notFound();
  if (heldByClient(file, c.req.header("If-None-Match")))
    return new Response(null, { status: 304, headers: file.headers });
  return new Response(file.bytes, { headers: file.headers });
}

/**
 * The widget's script, the operator console and the API reference (Swagger UI), built by
 * scripts/build-assets.mjs into modules the worker imports on the first request for them. The
 * worker serves them itself: wrangler's asset router in front of it cost every API request ~0.5 ms
 * (docs/decisions.md, "The streamed first byte"). A path under /console/ that is no file is one of the console's own
 * pages (services/static-files.ts, `consoleFile`).
 */
export function registerStaticFiles(app: OpenAPIHono<AppEnv>) {
  app.get("/widget.js", async (c) => serve(c, await staticFile("widget", "/widget.js")));
  // The interactive API reference: its page under the API's prefixes, its files under /api-docs/.
  const reference = async (c: Context<AppEnv>) => serve(c, await staticFile("api-docs", "/api-docs/index.html"));
  app.get("/api/docs/", reference);
  app.get("/api/v1/docs/", reference);
  app.get("/api-docs/*", async (c) => serve(c, await staticFile("api-docs", c.req.path)));
  app.get("/console/*", async (c) => serve(c, await consoleFile(c.req.path)));
}
