import { OpenAPIHono } from "@hono/zod-openapi";
import { swaggerUI } from "@hono/swagger-ui";
import { HTTPException } from "hono/http-exception";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env";
import { getDb } from "./db";
import { ApiError } from "./lib/errors";
import { isOpenAiPath, withOpenAiError } from "./lib/openai-errors";
import { jsonBody } from "./middleware/json-body";
import { requestId } from "./middleware/request-id";
import { authenticate } from "./middleware/auth";
import { rateLimit } from "./middleware/rate-limit";
import { WIDGET_PUBLIC_PATH, widgetCors } from "./middleware/widget-cors";
import { registerWidgetPages } from "./routes/widget/pages";
import { registerConsoleShell } from "./routes/console-shell";
import { registerMcpServer } from "./routes/mcp-server";
import { createRouter } from "./lib/openapi";
import { forgetAccess } from "./services/access";
import { forgetSettings } from "./lib/ttl-cache";
import { registerRoutes } from "./routes";
import { settingProblems } from "./services/settings";

/** Paths (after the prefix) that need no API key (CONTRACT section 3). */
const PUBLIC_PATHS = new Set(["/auth/registration/", "/auth/login/", "/openapi.json", "/schema/", "/docs/"]);
/** Public path prefixes: stored files meant for browsers (logos, avatars), under an unguessable key; upload targets and downloads that carry their own signature. */
const PUBLIC_PREFIXES = ["/files/public/", "/uploads/"];
const PREFIX = /^\/api(?:\/v1)?(?=\/)/;
/** Signing in to the console (POST) needs no credentials; its other methods do. */
const SIGN_IN = "/auth/sessions/";
function isPublic(path: string, method: string) {
  const rest = path.replace(PREFIX, "");
  return PUBLIC_PATHS.has(rest) || (rest === SIGN_IN && method === "POST") || PUBLIC_PREFIXES.some((p) => rest.startsWith(p)) || WIDGET_PUBLIC_PATH.test(path);
}

const OPENAPI_CONFIG = {
  openapi: "3.1.0",
  info: {
    title: "Conversational Assistant Platform API",
    version: "1.0.0",
    description:
      "Every path answers under `/api/v1` and `/api`. Authenticate with `Authorization: Api-Key <key>` " +
      "(the operator console uses the session cookie that `POST /auth/sessions/` sets instead). " +
      "Request bodies and query strings accept camelCase or snake_case keys. Errors are `{detail, code}`.",
  },
  security: [{ ApiKey: [] }, { ConsoleSession: [] }] as Record<string, string[]>[],
};

/** Writes that leave cached settings as they are (docs/decisions.md, "Per-isolate caches"). */
const CONVERSATION_TRAFFIC = /^\/api(?:\/v1)?\/(?:chatbots\/[^/]+\/completions|chat\/completions|messages|conversations|contacts|web-chats\/[^/]+\/public)\//;

/**
 * After a write, this isolate forgets what it remembered that the write may have changed: access
 * (writes under /organizations/: members, groups, their permissions) and settings such as
 * assistants, models and organization switches (any write but conversation traffic).
 */
const forgetOnWrite = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.req.method === "GET" || c.req.method === "HEAD") return;
  if (c.req.path.replace(PREFIX, "").startsWith("/organizations/")) forgetAccess();
  if (!CONVERSATION_TRAFFIC.test(c.req.path)) forgetSettings();
});

const withDb = createMiddleware<AppEnv>(async (c, next) => {
  c.set("db", getDb(c.env.DB));
  await next();
});

/** Codes for errors raised by Hono itself rather than by our handlers (CONTRACT section 2). */
const HTTP_CODES: Record<number, string> = {
  400: "invalid",
  401: "not_authenticated",
  403: "permission_denied",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** For 405s: which methods a path would answer, from the registered route patterns. */
function allowedMethods(routes: { method: string; path: string }[]) {
  const patterns = routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      re: new RegExp(`^${r.path.replace(/:\w+\{([^}]+)\}/g, "($1)").replace(/:\w+/g, "[^/]+").replace(/\*/g, ".*")}$`),
    }));
  return (path: string) => [...new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method))];
}

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestId());
  app.use("/api/*", widgetCors(), withDb, jsonBody(), authenticate(isPublic), rateLimit(), forgetOnWrite);

  const api = createRouter();
  registerRoutes(api);
  app.route("/api/v1", api);
  app.route("/api", api);

  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`Api-Key <key>`",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "ConsoleSession", {
    type: "apiKey",
    in: "cookie",
    name: "console_session",
    description: "The operator console's session (`POST /auth/sessions/`); requests that change data must also send the console's own `Origin`.",
  });
  const document = (c: { req: { url: string } }) => app.getOpenAPI31Document({ ...OPENAPI_CONFIG, servers: [{ url: new URL(c.req.url).origin }] });
  app.get("/api/v1/openapi.json", (c) => c.json(document(c)));
  app.get("/api/openapi.json", (c) => c.json(document(c)));
  app.get("/api/schema/", (c) => c.json(document(c)));
  app.get("/api/docs/", swaggerUI({ url: "/api/v1/openapi.json", title: "Assistant Platform API" }));

  // No authentication or storage (the baseline of `npm run bench -- auth`); lists settings the
  // deployment lacks, so an operator sees them before a client gets a 503 for one.
  app.get("/health", (c) => {
    const settings = settingProblems(c.env);
    return c.json({ status: settings.length ? "degraded" : "ok", settings });
  });

  registerWidgetPages(app);
  registerConsoleShell(app);
  // Our assistants as an MCP server (JSON-RPC, not in the OpenAPI document), behind the same API keys.
  app.use("/mcp", withDb, authenticate(() => false), rateLimit());
  registerMcpServer(app);

  const methodsFor = allowedMethods(app.routes);
  app.notFound((c) => {
    const allowed = methodsFor(c.req.path);
    if (allowed.length) throw new ApiError(405, "method_not_allowed", `Method "${c.req.method}" not allowed.`, undefined, { Allow: allowed.join(", ") });
    throw new ApiError(404, "not_found", "Not found.");
  });
  app.onError((err, c) => {
    // OpenAI clients of the gateway read `error.message`; everyone else reads `detail`.
    const shape = (status: number, body: { detail: string; code: string } & Record<string, unknown>) =>
      isOpenAiPath(c.req.path) ? withOpenAiError(status, body) : body;
    if (err instanceof ApiError) {
      const body: { detail: string; code: string } & Record<string, unknown> = { detail: err.detail, code: err.code };
      if (err.errors) body.errors = err.errors;
      return c.json(shape(err.status, body), err.status, err.headers);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = HTTP_CODES[err.status] ?? "invalid";
      return c.json(shape(err.status, { detail: err.message || "Bad request.", code }), err.status);
    }
    const requestId = c.get("requestId");
    console.error(JSON.stringify({ level: "error", requestId, path: c.req.path, message: String(err), stack: (err as Error)?.stack }));
    return c.json({ detail: "A server error occurred.", code: "server_error", requestId }, 500);
  });
  return app;
}
