import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AgentTool, ToolOutcome } from "../agent/types";
import { MCP_MAX_RESPONSE_BYTES, mcpSdk, type McpSession } from "./client";

/** What the model reads of a result at most (as for api tools); the record keeps more. */
const MODEL_CHARS = 16_000;
const NAME_MAX = 64;

/** Where remote tools come from: an `mcp` tool row or a connector. */
export interface McpSource {
  /** The record's `tool` link: the tool row's id; null for connectors. */
  toolId: string | null;
  displayName: string;
  /** The namespace of its tools' names (a slug of the tool's name or the connector's name). */
  prefix: string;
}

/** A stored or requested list of tool names (`mcpAllowedTools`, `availableTools`): null when it does not narrow. */
export function nameList(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  let list: unknown = value;
  if (typeof value === "string") {
    const text = value.trim();
    if (!text) return null;
    try {
      list = text.startsWith("[") ? JSON.parse(text) : text.split(",");
    } catch {
      list = text.split(",");
    }
  } else if (!Array.isArray(value) && typeof value === "object") {
    // `{tools: [...]}` or `{name: true}` forms.
    const o = value as Record<string, unknown>;
    list = Array.isArray(o.tools) ? o.tools : Object.keys(o).filter((k) => o[k] === true);
  }
  if (!Array.isArray(list)) return null;
  const names = list
    .map((n) =>
      typeof n === "string"
        ? n.trim()
        : typeof (n as { name?: unknown })?.name === "string"
          ? (n as { name: string }).name
          : "",
    )
    .filter(Boolean);
  return names.length ? names : null;
}

/** The tools every list allows (a null list allows all). */
export const filterTools = (tools: Tool[], ...lists: (string[] | null)[]) =>
  tools.filter((t) => lists.every((l) => !l || l.includes(t.name)));

export const slug = (text: string, max = 24) =>
  text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, max) || "mcp";

/**
 * The name the model calls: `<prefix>__<remote name>`, so two servers' tools of the same name
 * never collide; cut to 64 characters with a short hash when too long, and a counter for the
 * rare clash that remains.
 */
export function namespacedName(prefix: string, remote: string, used: Set<string>): string {
  let name = `${prefix}__${slug(remote, NAME_MAX)}`;
  if (name.length > NAME_MAX) name = `${name.slice(0, NAME_MAX - 7)}_${hash(remote)}`;
  for (let i = 2; used.has(name); i++) name = `${name.slice(0, NAME_MAX - 3)}_${i}`;
  used.add(name);
  return name;
}

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).padStart(6, "0").slice(-6);
}

const objectSchema = (schema: Tool["inputSchema"] | undefined): Record<string, unknown> => {
  const s = { ...(schema ?? {}) } as Record<string, unknown>;
  delete s.$schema;
  return { ...s, type: "object", properties: s.properties ?? {} };
};

/**
 * A remote tool as the agent loop sees it. `session` is the reply's one session with that server
 * (opened when the tools were listed): every call of the reply goes over it.
 */
export function remoteAgentTool(
  source: McpSource,
  tool: Tool,
  name: string,
  session: McpSession,
  timeoutMs: number,
): AgentTool {
  return {
    name,
    description: (tool.description ?? tool.title ?? tool.name).slice(0, 4000),
    parameters: objectSchema(tool.inputSchema),
    displayName: `${source.displayName}: ${tool.title ?? tool.annotations?.title ?? tool.name}`.slice(0, 200),
    kind: "mcp",
    toolId: source.toolId,
    hints: `${tool.name.replace(/[_-]+/g, " ")} ${tool.title ?? ""} ${tool.description ?? ""}`,
    run: (args, ctx) => callRemoteTool(session, tool.name, args, timeoutMs, ctx.signal),
  };
}

export async function callRemoteTool(
  session: McpSession,
  remoteName: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  try {
    const result = (await session.client.callTool({ name: remoteName, arguments: args }, undefined, {
      timeout: timeoutMs,
      signal,
    })) as CallToolResult;
    return resultOutcome(result);
  } catch (err) {
    if (session.overflowed())
      return { status: "failure", error: `The server's answer is over ${MCP_MAX_RESPONSE_BYTES} bytes.` };
    const { ErrorCode, McpError } = await mcpSdk();
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
      return { status: "timeout", error: `The MCP server did not answer within ${timeoutMs / 1000} s.` };
    return { status: "failure", error: `The MCP call failed: ${String((err as Error)?.message ?? err).slice(0, 500)}` };
  }
}

/** A call's result: text parts joined (other parts named), structured content when the server gives it. */
export function resultOutcome(result: CallToolResult): ToolOutcome {
  const parts = (result.content ?? []).map((p) => {
    if (p.type === "text") return p.text;
    if (p.type === "resource") return "text" in p.resource ? p.resource.text : `[resource ${p.resource.uri}]`;
    if (p.type === "resource_link") return `[resource ${p.uri}]`;
    return `[${p.type}${"mimeType" in p ? ` ${p.mimeType}` : ""}]`;
  });
  const text = parts.join("\n");
  if (result.isError)
    return {
      status: "failure",
      output: text,
      error: text.slice(0, 1000) || "The tool reported an error.",
      forModel: `Error: ${text.slice(0, MODEL_CHARS)}`,
    };
  const output = result.structuredContent ?? (parts.length === 1 ? parseJson(text) : text);
  const forModel = text || JSON.stringify(result.structuredContent ?? null);
  return {
    status: "success",
    output,
    forModel: forModel.length > MODEL_CHARS ? `${forModel.slice(0, MODEL_CHARS)} [truncated]` : forModel,
  };
}

function parseJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A remote tool as `available-tools` lists it. */
export const toolView = (t: Tool) => ({
  name: t.name,
  title: t.title ?? t.annotations?.title ?? null,
  description: t.description ?? "",
  inputSchema: t.inputSchema as Record<string, unknown>,
  annotations: (t.annotations as Record<string, unknown> | undefined) ?? null,
});
