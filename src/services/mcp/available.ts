import type { Bindings, Db } from "../../env";
import { badRequest, fieldError } from "../../lib/errors";
import type { OrgAccess } from "../access";
import { getToolForRead } from "../tools/access";
import { headerProblem, listAllTools, McpConnectError, mcpTimeoutMs, openMcpSession } from "./client";
import { memberCredentialHeaders, type Headers } from "./credentials";
import { filterTools, nameList, toolView } from "./remote-tools";
import { unmaskedHeaders } from "../../lib/masked-headers";

export interface AvailableToolsInput {
  mcpUrl: string;
  rawMcpHeader?: string;
  toolId?: string;
  mcpAllowedTools?: string | string[];
  availableTools?: string | string[];
}

const sameOrigin = (a: string, b: string | null) =>
  !!b && URL.canParse(a) && URL.canParse(b) && new URL(a).origin === new URL(b).origin;

function parseHeaders(text: string | undefined): Headers | null {
  if (text === undefined || !text.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fieldError("rawMcpHeader", "A JSON object of header names to strings.");
  }
  const problem = headerProblem(value);
  if (problem || value === null)
    throw fieldError("rawMcpHeader", problem ?? "A JSON object of header names to strings.");
  return value as Headers;
}

/**
 * `GET /tools/available-tools/`: connects to the server as an MCP tool would, lists its tools and
 * narrows them. Headers: the caller's stored credential for `toolId` (only towards that tool's
 * server), else `rawMcpHeader` (a value masked as the tool's record shows it: the tool's own), else the tool's own
 * rawMcpHeader (same server only). Every reason the server cannot be used is a 400 saying which.
 */
export async function availableTools(env: Bindings, db: Db, access: OrgAccess, q: AvailableToolsInput) {
  const given = parseHeaders(q.rawMcpHeader);
  let headers: Headers = given ?? {};
  let credential: "member" | "rawMcpHeader" | "tool" | "none" = given ? "rawMcpHeader" : "none";
  if (q.toolId) {
    const tool = await getToolForRead(db, access, q.toolId);
    if (tool.toolType !== "mcp") throw fieldError("toolId", "Not an mcp tool.");
    // The tool's record shows its headers masked; an edit form sends them back so, meaning the stored values.
    if (given) headers = unmaskedHeaders(given, tool.rawMcpHeader, sameOrigin(q.mcpUrl, tool.mcpUrl)) as Headers;
    if (sameOrigin(q.mcpUrl, tool.mcpUrl)) {
      const own = await memberCredentialHeaders(db, env, access.organizationId, access.memberId, { toolId: tool.id });
      if (own) [headers, credential] = [own, "member"];
      else if (!given && tool.rawMcpHeader && Object.keys(tool.rawMcpHeader).length)
        [headers, credential] = [tool.rawMcpHeader as Headers, "tool"];
    }
  }
  const timeoutMs = mcpTimeoutMs(env);
  let session;
  try {
    session = await openMcpSession(env, q.mcpUrl, headers, timeoutMs);
    const tools = filterTools(
      await listAllTools(session, timeoutMs),
      nameList(q.mcpAllowedTools),
      nameList(q.availableTools),
    );
    return { server: session.server, transport: session.transport, credential, tools: tools.map(toolView) };
  } catch (err) {
    if (!(err instanceof McpConnectError)) throw err;
    if (err.kind === "bad_headers") throw fieldError("rawMcpHeader", err.detail);
    if (err.kind === "refused") throw fieldError("mcpUrl", err.detail);
    throw badRequest(err.detail, undefined, `mcp_${err.kind}`);
  } finally {
    await session?.close();
  }
}
