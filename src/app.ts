import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { getPath } from "hono/utils/url";
import { createMiddleware } from "hono/factory";
import type { Context, ExecutionContext } from "hono";
import type { AppEnv, Bindings } from "./env";
import { getDb } from "./db";
import { ApiError, objectInterrupted } from "./lib/errors";
import { isOpenAiPath, withOpenAiError } from "./lib/openai-errors";
import { jsonBody } from "./middleware/json-body";
import { requestId } from "./middleware/request-id";
import { requestLog } from "./middleware/request-log";
import { authenticate } from "./middleware/auth";
import { rateLimit } from "./middleware/rate-limit";
import { WIDGET_PUBLIC_PATH, widgetCors } from "./middleware/widget-cors";
import { registerWidgetPages } from "./routes/widget/pages";
import { registerStaticFiles } from "./routes/static-files";
import { registerChannelWebhooks } from "./routes/channel-webhooks";
import { MCP_PATHS, registerMcpServer } from "./routes/mcp-server";
import { createRouter, type Router } from "./lib/openapi";
import { ROUTE_GROUPS, routesFor } from "./routes";
import { resourceProblems, settingProblems } from "./services/settings";

/** Paths (after the prefix) that need no API key (CONTRACT section 3). */
const PUBLIC_PATHS = new Set(["/auth/registration/", "/auth/login/", "/openapi.json", "/schema/", "/docs/"]);
/** Public path prefixes: stored files meant for browsers (logos, avatars), under an unguessable key; upload targets and
 * downloads that carry their own signature. */
const PUBLIC_PREFIXES = ["/files/public/", "/uploads/"];
const PREFIX = /^\/api(?:\/v1)?(?=\/)/;
/** Signing in to the console (POST) needs no credentials; its other methods do. */
const SIGN_IN = "/auth/sessions/";
function isPublic(path: string, method: string) {
  const rest = path.replace(PREFIX, "");
  return (
    PUBLIC_PATHS.has(rest) ||
    (rest === SIGN_IN && method === "POST") ||
    PUBLIC_PREFIXES.some((p) => rest.startsWith(p)) ||
    WIDGET_PUBLIC_PATH.test(path)
  );
}

export const OPENAPI_CONFIG = {
  openapi: "3.1.0",
  info: {
    title: "Conversational Assistant Platform API",
    version: "1.0.0",
    description:
      "Every path answers under `/api/v1` and `/api`. Authenticate with `Authorization: Api-Key <key>` " +
      "(the operator console uses the session cookie that `POST /auth/sessions/` sets instead). " +
      "A request acts in the key's organization, or in the one `X-Organization-Id` names (you must be a member; " +
      "else 404); paths under `/organizations/{id}/` name theirs. " +
      "Request bodies and query strings accept camelCase or snake_case keys. Errors are `{detail, code}`.",
  },
  security: [{ ApiKey: [] }, { ConsoleSession: [] }] as Record<string, string[]>[],
};

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
      re: new RegExp(
        `^${r.path
          .replace(/:\w+\{([^}]+)\}/g, "($1)")
          .replace(/:\w+/g, "[^/]+")
          .replace(/\*/g, ".*")}$`,
      ),
    }));
  return (path: string) => [...new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method))];
}

/** How a client authenticates, as the OpenAPI document names it: an API key, or the console's session cookie. */
export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>) {
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
    description:
      "The operator console's session (`POST /auth/sessions/`); requests that change data must also send the " +
      "console's own `Origin`.",
  });
}

/**
 * The whole app with the given API routes (none, one segment's, or all of them: `routesFor`). Each
 * app has every middleware and route outside the API, so a request answers the same in any of them.
 */
function buildApp(registerApi: ((r: Router) => void) | null) {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestId(), requestLog());
  app.use("/api/*", widgetCors(), withDb, jsonBody(), authenticate(isPublic), rateLimit());

  const api = createRouter();
  registerApi?.(api);
  app.route("/api/v1", api);
  app.route("/api", api);

  registerSecuritySchemes(app);
  const document = async (c: Context) => c.json(await openApiDocument(new URL(c.req.url).origin));
  app.get("/api/v1/openapi.json", document);
  app.get("/api/openapi.json", document);
  app.get("/api/schema/", document);

  // No authentication or storage (the baseline of `npm run bench -- auth`); lists settings and
  // bound resources the deployment lacks, so an operator sees them before a client meets them.
  app.get("/health", (c) => {
    const settings = settingProblems(c.env);
    const resources = resourceProblems(c.env);
    return c.json({ status: settings.length || resources.length ? "degraded" : "ok", settings, resources });
  });

  registerWidgetPages(app);
  registerStaticFiles(app);
  // Our assistants as an MCP server (JSON-RPC, not in the OpenAPI document), behind the same API keys. Not the
  // console's cookie: its tools call the API with the request's Authorization header.
  const mcpGuard = [withDb, authenticate(() => false, { consoleSession: false }), rateLimit()] as const;
  for (const path of MCP_PATHS) app.use(path, ...mcpGuard);
  registerMcpServer(app, fetchApp);
  app.use("/channels/*", withDb);
  registerChannelWebhooks(app);

  // Built by the first unmatched request, not with the app: most apps never answer a 405.
  let methodsFor: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    methodsFor ??= allowedMethods(app.routes);
    const allowed = methodsFor(c.req.path);
    if (allowed.length)
      throw new ApiError(405, "method_not_allowed", `Method "${c.req.method}" not allowed.`, undefined, {
        Allow: allowed.join(", "),
      });
    throw new ApiError(404, "not_found", "Not found.");
  });
  // Every error body carries the request id (as X-Request-Id does), so a customer's report can be
  // traced to its log line (src/middleware/request-log.ts, which also logs a 500's stack).
  app.onError((thrown, c) => {
    const requestId = c.get("requestId");
    const err = objectInterrupted(thrown) ?? thrown;
    // OpenAI clients of the gateway read `error.message`; everyone else reads `detail`.
    const shape = (status: number, body: { detail: string; code: string } & Record<string, unknown>) =>
      isOpenAiPath(c.req.path) ? withOpenAiError(status, { ...body, requestId }) : { ...body, requestId };
    if (err instanceof ApiError) {
      const body: { detail: string; code: string } & Record<string, unknown> = { detail: err.detail, code: err.code };
      if (err.errors) body.errors = err.errors;
      return c.json(shape(err.status, body), err.status, err.headers);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = HTTP_CODES[err.status] ?? "invalid";
      return c.json(shape(err.status, { detail: err.message || "Bad request.", code }), err.status);
    }
    return c.json(shape(500, { detail: "A server error occurred.", code: "server_error" }), 500);
  });
  return app;
}

type App = ReturnType<typeof buildApp>;

/** Per isolate: the app of each first path segment under /api ("" for every other path), once built. */
const apps = new Map<string, App>();
const building = new Map<string, Promise<App>>();
const SEGMENTS = new Set(ROUTE_GROUPS.flatMap((g) => g.segments));
const SEGMENT = /^\/api(?:\/v1)?\/([^/]*)/;

/** Which app serves a path: routes of different first segments never match the same path. */
function appKey(request: Request) {
  const segment = SEGMENT.exec(getPath(request))?.[1] ?? "";
  return SEGMENTS.has(segment) ? segment : "";
}

function appOf(key: string): Promise<App> {
  let app = building.get(key);
  if (!app) {
    app = (key ? routesFor(key) : Promise.resolve(null)).then((register) => {
      const built = buildApp(register);
      apps.set(key, built);
      return built;
    });
    app.catch(() => building.delete(key));
    building.set(key, app);
  }
  return app;
}

/**
 * Serves a request with the app of its segment, built on the first request that needs it: a cold
 * isolate builds only the routes (and zod schemas) its first requests use.
 */
export function fetchApp(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response> {
  const key = appKey(request);
  const app = apps.get(key);
  if (app) return app.fetch(request, env, ctx);
  return appOf(key).then((built) => built.fetch(request, env, ctx));
}

let documentBase: Promise<ReturnType<App["getOpenAPI31Document"]>> | undefined;

/** The OpenAPI document of every route, built on the first request for it and kept; only `servers` varies. */
async function openApiDocument(origin: string) {
  if (!documentBase) {
    documentBase = Promise.all([routesFor(), import("./routes/webhooks/payloads")]).then(([register, payloads]) => {
      const app = buildApp(register);
      // What the API sends (outgoing webhooks) is named at the document's root, under neither prefix.
      payloads.registerWebhookPayloads(app);
      return app.getOpenAPI31Document({ ...OPENAPI_CONFIG, servers: [] });
    });
    documentBase.catch(() => (documentBase = undefined));
  }
  return { ...(await documentBase), servers: [{ url: origin }] };
}
