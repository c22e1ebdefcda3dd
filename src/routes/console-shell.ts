import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { notConfigured, notFound } from "../lib/errors";

/**
 * The operator console is static assets under /console/ (scripts/build-console.mjs), served before
 * the worker runs. A path there that is no file is one of the console's own pages
 * (`/console/models`, a deep link or a reload): it gets the shell, `/console/index.html`, with the
 * headers the assets' `_headers` gives every console file (its Content-Security-Policy). Missing
 * hashed files stay 404s, so a stale tab reloads rather than running HTML as a script.
 */
export function registerConsoleShell(app: OpenAPIHono<AppEnv>) {
  app.get("/console/*", async (c) => {
    if (c.req.path.startsWith("/console/assets/")) throw notFound();
    if (!c.env.ASSETS) throw notConfigured("The ASSETS binding (wrangler.toml [assets] binding = \"ASSETS\") is missing, so the console cannot be served.");
    const shell = await c.env.ASSETS.fetch(new URL("/console/", c.req.url));
    if (!shell.ok) throw notFound("The console is not built: run `npm run build:console`.");
    return new Response(shell.body, { status: 200, headers: shell.headers });
  });
}
