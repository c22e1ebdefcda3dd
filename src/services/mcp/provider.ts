import { and, eq } from "drizzle-orm";
import { connectors, contacts, mcpCredentials, members } from "../../db/schema";
import { replyLinks } from "../agent/links";
import type { ReplyToolOptions, ToolProvider } from "../agent/registry";
import type { AgentTool, ToolContext } from "../agent/types";
import { listAllTools, McpConnectError, mcpTimeoutMs, openMcpSession, type McpSession } from "./client";
import { contactCredential, openContactCredentials, openHeaders, type Headers } from "./credentials";
import { filterTools, namespacedName, nameList, remoteAgentTool, slug, type McpSource } from "./remote-tools";
import { dataDb } from "../shards";

interface Server extends McpSource {
  url: string;
  connectorId: string | null;
  allowed: string[] | null;
  /** The tool's rawMcpHeader or the connector's sealed authHeaders. */
  defaults: () => Promise<Headers>;
}

/** The organization's enabled connectors (agent/links.ts reads them in its batch). */
export const enabledConnectorsQuery = (ctx: ToolContext) =>
  ctx.db
    .select()
    .from(connectors)
    .where(and(eq(connectors.organizationId, ctx.organizationId), eq(connectors.isEnabled, true)));

/**
 * MCP servers as a tool provider: the assistant's `mcp` tools and, unless the message
 * narrows the tools (`toolIds`), the organization's enabled connectors. Each server is connected
 * once per reply: its tools are listed over the session every call of the reply then uses, and the
 * session closes when the reply ends (`ctx.cleanups`). A server that cannot be reached is left out
 * of the reply (logged), as a tool the model never sees.
 */
export const mcpToolsProvider: ToolProvider = async (ctx, options) => {
  const servers = await serversForReply(ctx, options);
  if (!servers.length) return [];
  const headers = await credentialsFor(ctx, servers);
  const timeoutMs = mcpTimeoutMs(ctx.env);
  const used = new Set<string>();
  const listed = await Promise.all(
    servers.map(async (server, i) => {
      let session: McpSession | undefined;
      // Connecting and listing share one timeout: a server that hangs at either holds the reply no longer.
      const started = Date.now();
      try {
        session = await openMcpSession(ctx.env, server.url, headers[i], timeoutMs);
        const opened = session;
        (ctx.cleanups ??= []).push(() => opened.close());
        return {
          server,
          session,
          tools: filterTools(
            await listAllTools(session, Math.max(1, timeoutMs - (Date.now() - started))),
            server.allowed,
          ),
        };
      } catch (err) {
        // The server's failure is a warning; any other error (ours) is logged as one, with its stack.
        const theirs = err instanceof McpConnectError;
        (theirs ? console.warn : console.error)(
          JSON.stringify({
            level: theirs ? "warn" : "error",
            message: "MCP server left out of the reply",
            server: server.url.slice(0, 200),
            error: String((err as Error)?.message ?? err).slice(0, 300),
            ...(theirs ? {} : { stack: (err as Error)?.stack }),
          }),
        );
        await session?.close();
        return null;
      }
    }),
  );
  const result: AgentTool[] = [];
  for (const entry of listed) {
    if (!entry) continue;
    for (const tool of entry.tools)
      result.push(
        remoteAgentTool(
          entry.server,
          tool,
          namespacedName(entry.server.prefix, tool.name, used),
          entry.session,
          timeoutMs,
        ),
      );
  }
  return result;
};

async function serversForReply(ctx: ToolContext, options: ReplyToolOptions): Promise<Server[]> {
  const links = await replyLinks(ctx, options);
  const fromTools: Server[] = links.tools
    .filter((t) => t.toolType === "mcp" && !!t.mcpUrl)
    .map((t) => ({
      toolId: t.id,
      connectorId: null,
      displayName: t.displayName,
      prefix: slug(t.name ?? t.displayName, 20),
      url: t.mcpUrl!,
      allowed: nameList(t.mcpAllowedTools),
      defaults: async () => stringHeaders(t.rawMcpHeader),
    }));
  // A message that names its tools (`toolIds`) gets no connector.
  const fromConnectors: Server[] = (options.toolIds?.length ? [] : links.connectors).map((c) => ({
    toolId: null,
    connectorId: c.id,
    displayName: c.displayName,
    prefix: slug(c.displayName, 20),
    url: c.serverUrl,
    allowed: null,
    defaults: async () => (await openHeaders(c.authHeadersSealed, ctx.env)) ?? {},
  }));
  return [...fromTools, ...fromConnectors];
}

const stringHeaders = (o: Record<string, unknown> | null | undefined): Headers =>
  Object.fromEntries(Object.entries(o ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"));

/**
 * The headers each server gets (CONTRACT section 12): the contact's stored credential for it,
 * else the credential of the member who started the conversation, else its default headers.
 */
async function credentialsFor(ctx: ToolContext, servers: Server[]): Promise<Headers[]> {
  const contactId =
    (ctx.incoming.senderType === "contact" ? ctx.incoming.senderId : null) ?? ctx.conversation?.contactId ?? null;
  const userId = ctx.conversation?.createdById ?? null;
  const [contactRows, memberRows] = await Promise.all([
    // Contacts are the organization's, in its own shard (the conversation's part holds a copy of its own contact).
    contactId
      ? (await dataDb(ctx.env, ctx.organizationId))
          .select({ sealed: contacts.mcpCredentialsSealed })
          .from(contacts)
          .where(and(eq(contacts.id, contactId), eq(contacts.organizationId, ctx.organizationId)))
      : Promise.resolve([]),
    userId
      ? ctx.db
          .select({
            toolId: mcpCredentials.toolId,
            connectorId: mcpCredentials.connectorId,
            sealed: mcpCredentials.headersSealed,
          })
          .from(mcpCredentials)
          .innerJoin(members, eq(members.id, mcpCredentials.memberId))
          .where(and(eq(members.userId, userId), eq(mcpCredentials.organizationId, ctx.organizationId)))
      : Promise.resolve([]),
  ]);
  const contactList = await openContactCredentials(contactRows[0]?.sealed, ctx.env);
  return Promise.all(
    servers.map(async (s) => {
      const ofContact = contactCredential(contactList, { toolId: s.toolId, connectorId: s.connectorId, url: s.url });
      if (ofContact) return ofContact;
      const held = memberRows.find(
        (r) => (s.toolId && r.toolId === s.toolId) || (s.connectorId && r.connectorId === s.connectorId),
      );
      const ofMember = held ? await openHeaders(held.sealed, ctx.env) : null;
      return ofMember ?? (await s.defaults());
    }),
  );
}
