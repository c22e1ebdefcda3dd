import type { ToolType } from "../../db/schema";
import type { ToolRow } from "../tools/access";
import { replyLinks } from "./links";
import { apiTool } from "../tools/api-tool";
import { functionTool } from "../tools/function-tool";
import { flexTool } from "../tools/flex-tool";
import { quickReplyTool } from "../tools/quick-reply-tool";
import { desktopTool } from "../tools/desktop-tool";
import { knowledgeTool } from "../tools/knowledge-tool";
import { mcpToolsProvider } from "../mcp/provider";
import { skillsProvider } from "../skills/agent-tools";
import { sqlDatabaseProvider } from "../sql/agent-tool";
import { handoffToolProvider } from "../conversation/handoff-tool";
import type { AgentTool, ToolContext } from "./types";

/**
 * Which callable tools a reply offers. Each provider contributes some; the loop only sees the
 * result. MCP servers, skills (`use_skill`, `read_skill_resource`) and SQL databases plug in by
 * adding a provider here.
 */
export type ToolProvider = (ctx: ToolContext, options: ReplyToolOptions) => Promise<AgentTool[]> | AgentTool[];

export interface ReplyToolOptions {
  /** The message's `toolIds`: only these of the assistant's tools (and they are meant to be used). */
  toolIds?: string[] | null;
  /** `desktop` when the client runs desktop tools. */
  clientPlatform?: string | null;
}

/** Builds the callable tool of a tool row, by type; null when this deployment cannot run it. */
const BUILDERS: Record<ToolType, ((row: ToolRow) => AgentTool) | null> = {
  api: apiTool,
  function: functionTool,
  flex: flexTool,
  quick_reply: quickReplyTool,
  desktop: desktopTool,
  // MCP tools expose the remote server's tools: a provider of their own.
  mcp: null,
};

/** The assistant's own tools (`tools: [{id}]`), of its organization or global, narrowed by the message's toolIds. */
export const assistantToolsProvider: ToolProvider = async (ctx, options) => {
  const rows = (await replyLinks(ctx, options)).tools;
  return rows
    .filter((t) => t.name && (t.toolType !== "desktop" || options.clientPlatform === "desktop"))
    .map((t) => BUILDERS[t.toolType]?.(t))
    .filter((t): t is AgentTool => !!t);
};

/** Knowledge retrieval as a tool, when the assistant has knowledge bases. */
export const knowledgeProvider: ToolProvider = (ctx) =>
  ctx.knowledgeBases.length ? [knowledgeTool(ctx.knowledgeBases.map((k) => k.name))] : [];

export const TOOL_PROVIDERS: ToolProvider[] = [
  knowledgeProvider,
  assistantToolsProvider,
  mcpToolsProvider,
  skillsProvider((t) => BUILDERS[t.toolType]?.(t) ?? null),
  sqlDatabaseProvider,
  handoffToolProvider,
];

/** Every tool of the reply; on a name clash the first provider's tool wins. */
export async function toolsForReply(
  ctx: ToolContext,
  options: ReplyToolOptions,
  providers = TOOL_PROVIDERS,
): Promise<AgentTool[]> {
  const all = (await Promise.all(providers.map((p) => p(ctx, options)))).flat();
  const seen = new Set<string>();
  return all.filter((t) => !seen.has(t.name) && !!seen.add(t.name));
}
