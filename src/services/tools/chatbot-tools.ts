import { and, asc, eq, inArray, isNull, or, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotTools, tools } from "../../db/schema";
import { type OrgAccess, withPermission } from "../access";
import { linkStatements, linksOf, referencedIds, requireKnownRows } from "../links";
import { visibleToolsCondition } from "./access";
import { linkedNames } from "../view-parts";

/** Tools an organization's replies may run: its own and the global ones. */
export const usableToolsCondition = (organizationId: string) =>
  or(isNull(tools.organizationId), eq(tools.organizationId, organizationId));

/**
 * The assistant's tools its organization may run, only those of `toolIds` (the first 90, what one query binds) when
 * the message names some: what a reply's tool providers start from (agent/links.ts reads it in its batch).
 */
export const assistantToolsQuery = (db: Db, chatbotId: string, organizationId: string, toolIds?: string[] | null) =>
  db
    .select({ tool: tools })
    .from(chatbotTools)
    .innerJoin(tools, eq(tools.id, chatbotTools.toolId))
    .where(
      and(
        eq(chatbotTools.chatbotId, chatbotId),
        usableToolsCondition(organizationId),
        toolIds?.length ? inArray(tools.id, toolIds.slice(0, 90)) : undefined,
      ),
    );

/**
 * The tools of assistants (those matching `where`), by display name (their name there); the function returns one
 * assistant's.
 */
export const chatbotToolLinks = (db: Db, chatbotIds: string[], where?: SQL) =>
  linkedNames(
    db,
    chatbotIds,
    {
      table: chatbotTools,
      owner: chatbotTools.chatbotId,
      target: tools,
      on: eq(tools.id, chatbotTools.toolId),
      id: tools.id,
      name: tools.displayName,
      orderBy: [asc(tools.displayName), asc(tools.id)],
    },
    where,
  );

/** Statements replacing (all, or those `replace` selects) or setting an assistant's tools. */
export const chatbotToolStatements = (db: Db, chatbotId: string, toolIds: string[], replace: boolean | SQLWrapper) =>
  linkStatements(db, linksOf(chatbotTools, "chatbotId", "toolId"), chatbotId, toolIds, replace);

/**
 * Tool ids a body names in `field` (an assistant's tools, a skill's attached tools): tools the caller can see
 * (global or of the organization), else 400 naming them. Undefined when not given.
 */
export async function checkVisibleTools(
  db: Db,
  access: OrgAccess,
  wanted: string[] | undefined,
  field: string,
): Promise<string[] | undefined> {
  if (wanted === undefined) return undefined;
  const ids = [...new Set(wanted)];
  const visible = withPermission(access, "tool.view");
  await requireKnownRows(db, tools, ids, visibleToolsCondition(visible), field, "Unknown tool");
  return ids;
}

/** The `tools: [{id}]` of an assistant body (see checkVisibleTools). */
export const checkChatbotTools = (db: Db, access: OrgAccess, body: { tools?: { id: string }[] | null }) =>
  checkVisibleTools(db, access, referencedIds(body.tools), "tools");
