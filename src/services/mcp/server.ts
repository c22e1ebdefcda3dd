import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type CallToolResult,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MAX_PAGE_SIZE } from "../../lib/pagination";
import { decodePosition, encodePosition } from "./list-cursor";

/**
 * Calls one of our own API routes as the MCP client's key (same authentication, organization,
 * permissions and rate limit as a direct request), so every tool below means exactly what the API
 * means. `path` is below /api/v1.
 */
export type ApiDispatch = (method: "GET" | "POST", path: string, body?: unknown) => Promise<Response>;

const MAX_TEXT = 100_000;

type Row = Record<string, unknown>;
/** A list route's answer, as far as the tools read it. */
type Page = { count?: number; next?: string | null; results?: Row[] };

/** The route's JSON answer shaped by `shape`, which names the part of the route's response it reads. */
async function answer<T>(res: Response, shape: (body: T) => unknown): Promise<CallToolResult> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text
  }
  if (!res.ok)
    return {
      isError: true,
      content: [
        {
          type: "text",
          text: `HTTP ${res.status}: ${detailOf(body) || text.slice(0, 2000)}`,
        },
      ],
    };
  const value = shape(body as T);
  const json = JSON.stringify(value, null, 2);
  return {
    content: [{ type: "text", text: json.length > MAX_TEXT ? `${json.slice(0, MAX_TEXT)} [truncated]` : json }],
    structuredContent: Array.isArray(value) ? { results: value } : (value as Record<string, unknown>),
  };
}

/** The list tools' way on past their first page, as MCP pages its own lists. */
const cursorInput = {
  cursor: z
    .string()
    .max(2000)
    .optional()
    .describe("The nextCursor of the answer before: reads the list's next page (with that answer's filter)"),
};

/** A list tool's answer: one page of the API's list, and while more follow, the cursor that reads the next. */
const listOutput = <T extends z.ZodRawShape>(item: T) => ({
  count: z.number().int().describe("How many the whole list holds, over all its pages"),
  results: z.array(z.object(item)).describe(`This page's items (${MAX_PAGE_SIZE} at most)`),
  nextCursor: z.string().optional().describe("Present while more follow: call again with it as cursor"),
});

/**
 * The page of the API's list at `path` that `cursor` names (the first page of `query` without one), each row shaped
 * by `item`. The API pages by number; the cursor keeps the number and the filter, so a client only passes it back.
 */
async function listPage(
  dispatch: ApiDispatch,
  path: string,
  args: { cursor?: string; query?: string },
  item: (row: Row) => Record<string, unknown>,
): Promise<CallToolResult> {
  const at = args.cursor === undefined ? { page: 1, query: args.query } : decodePosition(args.cursor);
  if (!at) return { isError: true, content: [{ type: "text", text: "Invalid cursor: give an answer's nextCursor." }] };
  const q = new URLSearchParams({ page: String(at.page), pageSize: String(MAX_PAGE_SIZE) });
  if (at.query) q.set("query", at.query);
  return answer(await dispatch("GET", `${path}?${q}`), (b: Page) => ({
    count: b.count ?? 0,
    results: (b.results ?? []).map(item),
    ...(b.next ? { nextCursor: encodePosition({ ...at, page: at.page + 1 }) } : {}),
  }));
}

/**
 * Our platform as an MCP server: the businesses' assistants and knowledge for any MCP
 * client. Built per request (stateless Streamable HTTP), acting through `dispatch`.
 */
/** An API error's `detail` (the problem+json body every refusal has). */
const detailOf = (body: unknown) =>
  body && typeof body === "object" && "detail" in body && body.detail ? body.detail : undefined;

/** The requests the server below answers, by method, with the schema the SDK parses them with. */
const ANSWERED = new Map(
  [InitializeRequestSchema, PingRequestSchema, ListToolsRequestSchema, CallToolRequestSchema].map((schema) => [
    schema.shape.method.value as string,
    schema,
  ]),
);

/**
 * JSON-RPC's -32602 for a request whose params the method does not take, else null. The SDK parses a request's
 * params inside the method's handler, and answers a failed parse as -32603 (an internal error): it is the client's.
 */
export function invalidParams(request: JSONRPCRequest): JSONRPCErrorResponse | null {
  const parsed = ANSWERED.get(request.method)?.safeParse(request);
  if (!parsed || parsed.success) return null;
  const problems = parsed.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problems.join("; ").slice(0, 500)}` },
  };
}

export function platformMcpServer(dispatch: ApiDispatch): McpServer {
  const server = new McpServer(
    { name: "assistant-platform", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );

  server.registerTool(
    "list_assistants",
    {
      title: "List assistants",
      description:
        "The assistants (chatbots) you can use, with their ids, names and reply modes, newest first, " +
        `${MAX_PAGE_SIZE} at a time: while more follow, the answer has a nextCursor to pass back as cursor.`,
      inputSchema: {
        query: z.string().max(200).optional().describe("Only assistants whose name contains this"),
        ...cursorInput,
      },
      outputSchema: listOutput({
        id: z.string(),
        name: z.string(),
        description: z.string(),
        replyMode: z.string().nullable(),
      }),
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      listPage(dispatch, "/chatbots/", args, (a) => ({
        id: a.id,
        name: a.name,
        description: a.description ?? "",
        replyMode: a.replyMode ?? null,
      })),
  );

  server.registerTool(
    "ask_assistant",
    {
      title: "Ask an assistant",
      description:
        "Sends a message to an assistant and returns its reply. Give conversationId to continue a " +
        "conversation; the reply names the conversation.",
      inputSchema: {
        assistantId: z.uuid().describe("The assistant's id (see list_assistants)"),
        message: z.string().min(1).max(20_000).describe("What to ask"),
        conversationId: z.uuid().optional().describe("A conversation to continue"),
      },
    },
    async ({ assistantId, message, conversationId }) =>
      answer(
        await dispatch("POST", `/chatbots/${assistantId}/completions/`, {
          message: { content: message },
          ...(conversationId ? { conversation: conversationId } : {}),
        }),
        (b: { conversationId?: string; content?: string; message?: { citations?: Row[] } }) => ({
          conversationId: b.conversationId,
          content: b.content,
          citations: (b.message?.citations ?? []).map((f) => ({
            id: f.id,
            filename: f.filename ?? f.name ?? null,
          })),
        }),
      ),
  );

  server.registerTool(
    "search_knowledge_base",
    {
      title: "Search knowledge",
      description: "Searches a knowledge base, or every knowledge base of an assistant, and returns the best passages.",
      inputSchema: {
        query: z.string().min(1).max(2000).describe("What to search for"),
        knowledgeBaseId: z.uuid().optional().describe("The knowledge base to search"),
        assistantId: z.uuid().optional().describe("Or: search the knowledge of this assistant"),
        limit: z.number().int().min(1).max(50).optional().describe("At most this many passages (default 5)"),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ query, knowledgeBaseId, assistantId, limit }) => {
      if (!knowledgeBaseId === !assistantId)
        return {
          isError: true,
          content: [{ type: "text", text: "Give knowledgeBaseId or assistantId (one of them)." }],
        };
      const pageSize = String(limit ?? 5);
      const path = knowledgeBaseId
        ? `/knowledge-bases/${knowledgeBaseId}/search/?pageSize=${pageSize}`
        : `/chatbots/${assistantId}/search/?pageSize=${pageSize}`;
      return answer(await dispatch("POST", path, { query }), (b: Page) =>
        (b.results ?? []).map((r) => ({
          text: r.text,
          score: r.score,
          knowledgeBase: r.knowledgeBase,
          file: r.knowledgeBaseFile,
          pageStart: r.pageStart,
          faq: r.faq,
        })),
      );
    },
  );

  server.registerTool(
    "list_knowledge_bases",
    {
      title: "List knowledge bases",
      description:
        "The knowledge bases you can search, with their ids and names, newest first, " +
        `${MAX_PAGE_SIZE} at a time: while more follow, the answer has a nextCursor to pass back as cursor.`,
      inputSchema: cursorInput,
      outputSchema: listOutput({ id: z.string(), name: z.string(), description: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      listPage(dispatch, "/knowledge-bases/", args, (k) => ({
        id: k.id,
        name: k.name,
        description: k.description ?? "",
      })),
  );
  return server;
}
