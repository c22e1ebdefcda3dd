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
 * Updates a tool and replaces its group links (when given) in one batch; 409 when its name is taken. The update
 * applies only while the tool's URLs and headers are as `current` holds them (asRead): the header values to store
 * were resolved against those (headerColumns), and another change may have moved the tool meanwhile. Undefined when
 * they changed, and the caller reads again; the rest of the batch has run then (the links the change asks for, and
 * credentials deleted for a move: dropping them is the safe side). A change that points an mcp tool at another
 * server (credentialsStay) deletes its members' credentials in the same batch: they were given for the server it had.
 */
export async function updateTool(
  db: Db,
  current: ToolRow,
  columns: Partial<typeof tools.$inferInsert>,
  groupIds: string[] | undefined,
  name: string | null,
): Promise<ToolRow | undefined> {
  const id = current.id;
  const moved = columns.mcpUrl !== undefined && !credentialsStay(current.mcpUrl, columns.mcpUrl);
  const [row] = await writeWithLinks(
    db,
    db
      .update(tools)
      .set({ ...columns, updatedAt: Date.now() })
      .where(and(eq(tools.id, id), ...asRead(current)))
      .returning(),
    [...groupLinkStatements(db, id, groupIds, true), ...(moved ? [deleteCredentialsFor(db, { toolId: id })] : [])],
    () => nameTaken(name),
  );
  return row;
}

/** The columns headerColumns resolves a change against, as they were read. */
const asRead = (t: ToolRow) =>
  (["apiUrl", "mcpUrl", "rawHeaders", "rawMcpHeader"] as const).map((field) =>
    t[field] === null ? isNull(tools[field]) : eq(tools[field], t[field]),
  );

/**
 * Deletes the tool; its execution records stay without it (its purge, services/purges.ts, in each of `datas`: the
 * data planes that may hold its records, its organization's or, for a global tool, every one). The purge is written
 * again once the tool is gone: a call that found the tool after the housekeeping ran the first recorded after it.
 */
export async function deleteTool(db: Db, datas: Db[], tool: { id: string; organizationId: string | null }) {
  const purge = [{ organizationId: tool.organizationId, kind: "tool" as const, id: tool.id }];
  await writePurges(datas, purge);
  await db.delete(tools).where(eq(tools.id, tool.id));
  await writePurges(datas, purge);
}
