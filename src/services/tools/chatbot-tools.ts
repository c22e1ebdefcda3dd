import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotTools, tools } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { inChunks } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { linkStatements } from "../links";
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

/** The `tools: [{id}]` of an assistant body: tools the caller can see (global or of the organization), else 400 naming
 * them. */
export async function checkChatbotTools(
  db: Db,
  access: OrgAccess,
  body: { tools?: { id: string }[] | null },
): Promise<string[] | undefined> {
  if (body.tools === undefined) return undefined;
  const wanted = [...new Set((body.tools ?? []).map((t) => t.id))];
  if (!wanted.length) return [];
  const visible = { ...access, permissions: new Set([...access.permissions, "tool.view" as const]) };
  const found = await inChunks(wanted, (ids) =>
    db
      .select({ id: tools.id })
      .from(tools)
      .where(and(inArray(tools.id, ids), visibleToolsCondition(visible))),
  );
  const unknown = wanted.filter((id) => !found.some((t) => t.id === id));
  if (unknown.length) throw fieldError("tools", `Unknown tool: ${unknown.slice(0, 5).join(", ")}.`);
  return wanted;
}
