import { and, eq, isNull, ne, or } from "drizzle-orm";
import type { Db } from "../../env";
import { tools, type ToolType } from "../../db/schema";
import { type PageWindow, newestFirstPage } from "../../db/paginate";
import { conflict } from "../../lib/errors";
import { contains } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { groupIdsOf, writeWithLinks } from "../links";
import { type ToolRow, toolGroupLinks, visibleToolsCondition } from "./access";
import { groupLinkStatements } from "./write";
import { writePurges } from "../purges";
import { credentialsStay } from "../../lib/redirects";
import { deleteCredentialsFor } from "../mcp/credentials";

export interface ToolListFilter {
  isGlobal?: "true" | "false";
  clientPlatform?: string;
  toolType?: ToolType;
  query?: string;
}

/** A page of the tools the caller sees, newest first: the organization's, or the global ones; desktop tools only for
 * the desktop client. */
export function listTools(db: Db, access: OrgAccess, q: ToolListFilter, window: PageWindow) {
  const where = and(
    visibleToolsCondition(access),
    q.isGlobal === "true" ? isNull(tools.organizationId) : eq(tools.organizationId, access.organizationId),
    q.clientPlatform === "desktop" ? undefined : ne(tools.toolType, "desktop"),
    q.toolType ? eq(tools.toolType, q.toolType) : undefined,
    q.query ? or(contains(tools.name, q.query), contains(tools.displayName, q.query)) : undefined,
  );
  return newestFirstPage(db, tools, where, window);
}

/** The ids of the groups a tool is given to. */
export const toolGroupIds = (db: Db, toolId: string) => groupIdsOf(db, toolGroupLinks, toolId);

/** The 409 naming the tool whose name is taken. */
const nameTaken = (name: string | null | undefined) => conflict(`A tool named "${name}" already exists.`);

/** Inserts a tool with its group links in one batch; 409 when its name is taken. */
export async function insertTool(
  db: Db,
  values: typeof tools.$inferInsert & { id: string },
  groupIds: string[] | undefined,
): Promise<ToolRow> {
  const [row] = await writeWithLinks(
    db,
    db.insert(tools).values(values).returning(),
    groupLinkStatements(db, values.id, groupIds, false),
    () => nameTaken(values.name),
  );
  return row;
}

/**
 * Updates a tool and replaces its group links (when given) in one batch; 409 when its name is taken. A change that
 * points an mcp tool at another server (credentialsStay) deletes its members' credentials in the same batch: they
 * were given for the server it had.
 */
export async function updateTool(
  db: Db,
  current: ToolRow,
  columns: Partial<typeof tools.$inferInsert>,
  groupIds: string[] | undefined,
  name: string | null,
): Promise<ToolRow> {
  const id = current.id;
  const moved = columns.mcpUrl !== undefined && !credentialsStay(current.mcpUrl, columns.mcpUrl);
  const [row] = await writeWithLinks(
    db,
    db
      .update(tools)
      .set({ ...columns, updatedAt: Date.now() })
      .where(eq(tools.id, id))
      .returning(),
    [...groupLinkStatements(db, id, groupIds, true), ...(moved ? [deleteCredentialsFor(db, { toolId: id })] : [])],
    () => nameTaken(name),
  );
  return row;
}

/**
 * Deletes the tool; its execution records stay without it (its purge, services/purges.ts, in each of `datas`: the
 * data planes that may hold its records, its organization's or, for a global tool, every one).
 */
export async function deleteTool(db: Db, datas: Db[], tool: { id: string; organizationId: string | null }) {
  await writePurges(datas, [{ organizationId: tool.organizationId, kind: "tool", id: tool.id }]);
  await db.delete(tools).where(eq(tools.id, tool.id));
}
