import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotTools, tools } from "../../db/schema";
import { type OrgAccess, withPermission } from "../access";
import { linkStatements, requireKnownIds } from "../links";
import { visibleToolsCondition } from "./access";
import { linkedNames } from "../view-parts";

/** The tools of assistants, by display name (their name there); the function returns one assistant's. */
export const chatbotToolLinks = (db: Db, chatbotIds: string[]) =>
  linkedNames(db, chatbotIds, {
    table: chatbotTools,
    owner: chatbotTools.chatbotId,
    target: tools,
    on: eq(tools.id, chatbotTools.toolId),
    id: tools.id,
    name: tools.displayName,
    orderBy: [asc(tools.displayName), asc(tools.id)],
  });

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
