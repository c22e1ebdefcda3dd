// A resource that may be global (no organization: tools, skills), CONTRACT section 4: who sees one (every global one;
// in the caller's organization, through their groups) and who may change it (a global one is platform staff's).
import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import { forbidden, notFound } from "../lib/errors";
import { can, type OrgAccess } from "./access";
import { globalOrReachableCondition, type GroupLinks } from "./links";
import type { Permission } from "./permissions";
import { rowById } from "../db/find";

type GlobalTable = SQLiteTable & {
  id: SQLiteColumn;
  organizationId: SQLiteColumn;
  $inferSelect: { organizationId: string | null };
};

/**
 * The reads and checks of one kind of such resource: `table` given to groups by `links`, seen with `view`, changed with
 * `manage`; `notFound` and `plural` word its refusals ("Tool not found.", "... change global tools.").
 */
export function globalResourceAccess<T extends GlobalTable>(kind: {
  table: T;
  links: GroupLinks;
  view: Permission;
  manage: Permission;
  notFound: string;
  plural: string;
}) {
  type Row = T["$inferSelect"];

  /** The resources the caller sees (globalOrReachableCondition with `view`). */
  const visibleCondition = (access: OrgAccess): SQL =>
    globalOrReachableCondition(access, kind.table, kind.links, kind.view);

  async function getVisible(db: Db, access: OrgAccess, id: string): Promise<Row | null> {
    return rowById(
      id,
      async () =>
        (await db
          .select()
          .from(kind.table as SQLiteTable)
          .where(and(eq(kind.table.id, id), visibleCondition(access)))) as Row[],
    );
  }

  /** The resource if the caller can see it, else 404; the route has declared the permission its use needs. */
  async function getForRead(db: Db, access: OrgAccess, id: string): Promise<Row> {
    const row = await getVisible(db, access, id);
    if (!row) throw notFound(kind.notFound);
    return row;
  }

  /** Whether the caller may change or delete it: a global one is platform staff's. */
  const canManage = (access: OrgAccess, row: { organizationId: string | null }, isStaff: boolean) =>
    row.organizationId === null ? isStaff : can(access, kind.manage);

  /** The resource for a change or a delete: 404 unless the caller sees it; a global one is platform staff's (403). */
  async function getToManage(
    db: Db,
    access: OrgAccess,
    id: string,
    isStaff: boolean,
    action: "change" | "delete",
  ): Promise<Row> {
    const row = await getForRead(db, access, id);
    if (!canManage(access, row, isStaff)) throw forbidden(`Only platform staff can ${action} global ${kind.plural}.`);
    return row;
  }

  return { visibleCondition, getVisible, getForRead, canManage, getToManage };
}
