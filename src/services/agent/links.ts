import type { ToolRow } from "../tools/access";
import { assistantToolsQuery } from "../tools/chatbot-tools";
import { enabledConnectorsQuery } from "../mcp/provider";
import { offeredSkillsQuery, type OfferedSkill } from "../skills/agent-tools";
import { queryableDatabasesQuery } from "../sql/agent-tool";
import type { SqlDatabaseRow } from "../sql/access";
import type { ReplyToolOptions } from "./registry";
import type { ToolContext } from "./types";

/** What a reply's tools come from: the assistant's tools, skills and SQL databases, the organization's connectors. */
export interface ReplyLinks {
  tools: ToolRow[];
  connectors: Awaited<ReturnType<typeof enabledConnectorsQuery>>;
  skills: OfferedSkill[];
  databases: SqlDatabaseRow[];
}

const loaded = new WeakMap<ToolContext, Promise<ReplyLinks>>();

/**
 * The reply's links, read once a reply (each provider of registry.ts takes its part) and in one D1 batch: one round
 * trip instead of one a provider, which the local D1 answered one after the other (docs/decisions.md, "Tools and
 * agent mode").
 */
export function replyLinks(ctx: ToolContext, options: ReplyToolOptions): Promise<ReplyLinks> {
  let links = loaded.get(ctx);
  if (!links) {
    links = ctx.db
      .batch([
        assistantToolsQuery(ctx.db, ctx.chatbot.id, ctx.organizationId, options.toolIds),
        enabledConnectorsQuery(ctx),
        offeredSkillsQuery(ctx),
        queryableDatabasesQuery(ctx),
      ])
      .then(([tools, connectors, skills, databases]) => ({
        tools: tools.map((r) => r.tool),
        connectors,
        skills,
        databases: databases.map((r) => r.database),
      }));
    loaded.set(ctx, links);
  }
  return links;
}
