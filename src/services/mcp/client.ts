import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { lazy } from "../../lib/lazy";
import { describeFetchFailure } from "../../lib/outbound-errors";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import type { Bindings } from "../../env";

export const MCP_TIMEOUT_MS = 30_000;
/** Every response body of a session is cut here (as api tools' are); the call then fails. */
export const MCP_MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_LISTED_TOOLS = 500;
const MAX_LISTED_PAGES = 50;
const CLIENT_INFO = { name: "assistant-platform", version: "1.0.0" };
type Sdk = typeof import("./sdk");
/** The MCP SDK, imported by the first session. */
export const mcpSdk = lazy(() => import("./sdk"));

export type McpProblemKind =
  | "refused"
  | "unreachable"
  | "timeout"
  | "unauthorized"
  | "not_mcp"
  | "bad_headers"
  | "too_large";

/** Why a server could not be used, in words a person configuring the tool can act on. */
export class McpConnectError extends Error {
  constructor(
    readonly kind: McpProblemKind,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export interface McpSession {
  client: Client;
  transport: "streamable-http" | "sse";
  server: { name: string; version: string };
  /** Whether some response of the session went over MCP_MAX_RESPONSE_BYTES (and was cut). */
  overflowed(): boolean;
  close(): Promise<void>;
}

export const mcpTimeoutMs = (env: Bindings) => Number(env.TOOL_TIMEOUT_MS) || MCP_TIMEOUT_MS;

/** A header object as MCP tools and connectors store it: names are tokens, values strings on one line. */
export function headerProblem(headers: unknown): string | null {
  if (headers === null || headers === undefined) return null;
  if (typeof headers !== "object" || Array.isArray(headers))
    return "Headers must be an object of header names to string values.";
  for (const [k, v] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k)) return `Not a valid header name: ${k.slice(0, 60)}.`;
    if (typeof v !== "string" || /[\r\n\0]/.test(v) || v.length > 8000)
      return `The value of ${k.slice(0, 60)} must be a string on one line.`;
  }
  return null;
}

/**
 * The fetch of a session: every request (redirects included, which the SDK follows only within
 * the origin) passes the outbound address guard first, and every response body is cut at the cap.
 */
function guardedFetch(env: Bindings, state: { overflow: boolean }) {
  const allowed = outboundAllowedHosts(env);
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = input.toString();
    const problem = webhookUrlProblem(url, allowed);
    if (problem) throw new McpConnectError("refused", `Refused by the outbound address guard: ${problem}`);
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (err) {
      // The session's own deadline or close: the SDK's to report. Anything else names the host or port
      // (lib/outbound-errors.ts).
      if (init?.signal?.aborted) throw err;
      throw new McpConnectError(
        "unreachable",
        `Could not reach the MCP server: ${await describeFetchFailure(err, url)}.`,
      );
    }
    if (!res.body) return res;
    let size = 0;
    const cap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > MCP_MAX_RESPONSE_BYTES) {
          state.overflow = true;
          controller.error(
            new McpConnectError("too_large", `The server's answer is over ${MCP_MAX_RESPONSE_BYTES} bytes.`),
          );
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(cap), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

function newClient({ Client, CfWorkerJsonSchemaValidator }: Sdk) {
  return new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
}

/** Rejects after `ms` (then `onTimeout` runs), so a server that accepts and never answers cannot hold a request. */
async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Once the deadline has won, the abandoned work's own failure is expected: not an unhandled rejection.
  work.catch(() => {});
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new McpConnectError("timeout", `The server did not answer within ${ms / 1000} s.`));
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** An HTTP status the server answered the transport with, when the error carries one. */
function statusOf(err: unknown, { StreamableHTTPError, SseError }: Sdk): number | undefined {
  if (err instanceof StreamableHTTPError || err instanceof SseError)
    return typeof err.code === "number" && err.code >= 100 ? err.code : undefined;
  const m = /HTTP (\d{3})|\((\d{3})\)|status(?: code)? (\d{3})/i.exec(String((err as Error)?.message ?? ""));
  return m ? Number(m[1] ?? m[2] ?? m[3]) : undefined;
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url);

function classify(err: unknown, url: string, sdk: Sdk): McpConnectError {
  if (err instanceof McpConnectError) return err;
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof McpConnectError) return cause;
  const message = String((err as Error)?.message ?? err);
  const status = statusOf(err, sdk);
  if (status === 401 || status === 403)
    return new McpConnectError("unauthorized", `The MCP server refused the credentials (HTTP ${status}).`);
  if (/timed? ?out|RequestTimeout|-32001/i.test(message))
    return new McpConnectError("timeout", "The MCP server did not answer in time.");
  if (/fetch failed|ECONNREFUSED|connect|network|ENOTFOUND|DNS|socket|reset/i.test(message) && status === undefined)
    return new McpConnectError("unreachable", `Could not reach ${hostOf(url)}: ${message.slice(0, 200)}`);
  return new McpConnectError(
    "not_mcp",
    `${url.slice(0, 200)} does not answer as an MCP server${status ? ` (HTTP ${status})` : ""}: ` +
      message.slice(0, 200),
  );
}

/** Whether a failed Streamable HTTP attempt may be an older server that speaks HTTP+SSE. */
const mayBeSse = (err: unknown, sdk: Sdk) => {
  if (err instanceof McpConnectError) return false;
  const status = statusOf(err, sdk);
  return status === undefined
    ? /content type|Unexpected|invalid|JSON/i.test(String((err as Error)?.message ?? ""))
    : status >= 400 && status < 500 && status !== 401 && status !== 403;
};

/**
 * Opens a session with an MCP server through the SDK: Streamable HTTP first, then the older
 * HTTP+SSE transport when the server answers like one that does not know Streamable HTTP. The
 * whole handshake has `timeoutMs`; failures are McpConnectError naming what went wrong.
 */
export async function openMcpSession(
  env: Bindings,
  url: string,
  headers: Record<string, string>,
  timeoutMs = mcpTimeoutMs(env),
): Promise<McpSession> {
  const headerIssue = headerProblem(headers);
  if (headerIssue) throw new McpConnectError("bad_headers", headerIssue);
  const problem = webhookUrlProblem(url, outboundAllowedHosts(env));
  if (problem) throw new McpConnectError("refused", `Refused by the outbound address guard: ${problem}`);
  const sdk = await mcpSdk();
  const { StreamableHTTPClientTransport, SSEClientTransport } = sdk;
  const state = { overflow: false };
  const fetchFn = guardedFetch(env, state);
  const started = Date.now();
  const attempt = async (kind: McpSession["transport"]) => {
    const client = newClient(sdk);
    const transport: Transport =
      kind === "streamable-http"
        ? new StreamableHTTPClientTransport(new URL(url), {
            fetch: fetchFn,
            requestInit: { headers },
            reconnectionOptions: {
              maxRetries: 0,
              initialReconnectionDelay: 1000,
              maxReconnectionDelay: 1000,
              reconnectionDelayGrowFactor: 1,
            },
          })
        : new SSEClientTransport(new URL(url), { fetch: fetchFn, requestInit: { headers } });
    const left = Math.max(1, timeoutMs - (Date.now() - started));
    try {
      await withDeadline(client.connect(transport, { timeout: left }), left, () => void client.close().catch(() => {}));
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
    const version = client.getServerVersion();
    return {
      client,
      transport: kind,
      server: { name: version?.name ?? "", version: version?.version ?? "" },
      overflowed: () => state.overflow,
      // Ends the server's session too (a DELETE), so the server need not wait for it to expire.
      close: async () => {
        if (transport instanceof StreamableHTTPClientTransport && transport.sessionId)
          await withDeadline(transport.terminateSession(), 1000, () => {}).catch(() => {});
        await client.close().catch(() => {});
      },
    } satisfies McpSession;
  };
  try {
    return await attempt("streamable-http");
  } catch (first) {
    if (!mayBeSse(first, sdk)) throw classify(first, url, sdk);
    try {
      return await attempt("sse");
    } catch (second) {
      const err = classify(second, url, sdk);
      // The SSE attempt's complaint hides the first one's when both say "not MCP".
      throw err.kind === "not_mcp" ? classify(first, url, sdk) : err;
    }
  }
}

/**
 * The server's tools, every page (at most MAX_LISTED_TOOLS in MAX_LISTED_PAGES pages), all pages
 * within `timeoutMs`: a server paging slowly or without end cannot hold a reply.
 */
export async function listAllTools(session: McpSession, timeoutMs: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  const deadline = Date.now() + timeoutMs;
  let cursor: string | undefined;
  try {
    for (let pages = 0; pages < MAX_LISTED_PAGES; pages++) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new McpConnectError("timeout", `The server did not list its tools within ${timeoutMs / 1000} s.`);
      const page = await session.client.listTools(cursor ? { cursor } : undefined, { timeout: left });
      tools.push(...page.tools);
      cursor = page.nextCursor;
      if (!cursor || tools.length >= MAX_LISTED_TOOLS) break;
    }
  } catch (err) {
    if (session.overflowed())
      throw new McpConnectError("too_large", `The server's tool list is over ${MCP_MAX_RESPONSE_BYTES} bytes.`);
    throw classify(err, "the server", await mcpSdk());
  }
  return tools.slice(0, MAX_LISTED_TOOLS);
}
