import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { notConfigured, notFound } from "../lib/errors";

/**
 * The operator console is static assets under /console/ (scripts/build-console.mjs), served before
 * the worker runs. A path there that is no file is one of the console's own pages
 * (`/console/models`, a deep link or a reload): it gets the shell, `/console/index.html`, with the
 * headers the assets' `_headers` gives every console file (its Content-Security-Policy). The shell
 * of a page's first segment (`/console/shells/assistants.html`, written by the build) also names
 * that page's chunk, so the browser asks for it beside the shell's (the plain shell otherwise).
 * Missing hashed files stay 404s, so a stale tab reloads rather than running HTML as a script.
 */
export function registerConsoleShell(app: OpenAPIHono<AppEnv>) {
  app.get("/console/*", async (c) => {
    if (c.req.path.startsWith("/console/assets/")) throw notFound();
    if (!c.env.ASSETS) throw notConfigured("The ASSETS binding (wrangler.toml [assets] binding = \"ASSETS\") is missing, so the console cannot be served.");
    const segment = /^\/console\/([\w-]+)/.exec(c.req.path)?.[1];
    let shell = segment ? await c.env.ASSETS.fetch(new URL(`/console/shells/${segment}`, c.req.url)) : null;
    if (!shell?.ok) {
      await shell?.body?.cancel();
      shell = await c.env.ASSETS.fetch(new URL("/console/", c.req.url));
    }
    if (!shell.ok) throw notFound("The console is not built: run `npm run build:console`.");
    return new Response(shell.body, { status: 200, headers: shell.headers });
  });
}
