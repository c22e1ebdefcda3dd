import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotTools, tools } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import { type OrgAccess, withPermission } from "../access";
import { linkStatements, requireKnownIds } from "../links";
import { visibleToolsCondition } from "./access";

/** The tools of assistants, by display name: `[{chatbotId, id, name}]`. */
export const chatbotToolLinks = (db: Db, chatbotIds: string[]) =>
  inChunks(chatbotIds, (ids) =>
    db
      .select({ chatbotId: chatbotTools.chatbotId, id: tools.id, name: tools.displayName })
      .from(chatbotTools)
      .innerJoin(tools, eq(tools.id, chatbotTools.toolId))
      .where(inArray(chatbotTools.chatbotId, ids))
      .orderBy(asc(tools.displayName), asc(tools.id)),
  );

/** Statements replacing (or setting) an assistant's tools. */
export const chatbotToolStatements = (db: Db, chatbotId: string, toolIds: string[], replace: boolean) =>
  linkStatements(
    db,
    { table: chatbotTools, owner: chatbotTools.chatbotId },
    chatbotId,
    toolIds.map((toolId) => ({ chatbotId, toolId })),
    replace,
  );

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
  await requireKnownIds(
    ids,
    (part) =>
      db
        .select({ id: tools.id })
        .from(tools)
        .where(and(inArray(tools.id, part), visibleToolsCondition(visible))),
    field,
    "Unknown tool",
  );
  return ids;
}

/** The `tools: [{id}]` of an assistant body (see checkVisibleTools). */
export const checkChatbotTools = (db: Db, access: OrgAccess, body: { tools?: { id: string }[] | null }) =>
  checkVisibleTools(db, access, body.tools === undefined ? undefined : (body.tools ?? []).map((t) => t.id), "tools");
