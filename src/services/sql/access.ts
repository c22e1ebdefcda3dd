import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { sqlDatabaseGroups, sqlDatabases } from "../../db/schema";
import { can, type OrgAccess } from "../access";
import { groupLinksOf, reachableThroughGroups } from "../links";
import { findById } from "../../db/find";

export type SqlDatabaseRow = typeof sqlDatabases.$inferSelect;

/** SQL databases given to groups (`sql_database_groups`). */
export const sqlDatabaseGroupLinks = groupLinksOf(sqlDatabaseGroups, "sqlDatabaseId");

/** SQL databases the caller sees (CONTRACT section 4): owners all of the organization's; members with
 * `sql_database.view` those of their groups. */
export function visibleSqlDatabasesCondition(access: OrgAccess): SQL {
  const inOrganization = eq(sqlDatabases.organizationId, access.organizationId);
  if (access.isOwner) return inOrganization;
  if (!can(access, "sql_database.view")) return sql`0`;
  return and(inOrganization, reachableThroughGroups(sqlDatabases.id, sqlDatabaseGroupLinks, access.memberId))!;
}

/**
 * The database, 404 when the caller cannot see it. The route declares the permission first, so a
 * caller without it gets 403 before any lookup.
 */
export async function getSqlDatabase(db: Db, access: OrgAccess, id: string): Promise<SqlDatabaseRow> {
  return findById(id, "SQL database not found.", () =>
    db
      .select()
      .from(sqlDatabases)
      .where(and(eq(sqlDatabases.id, id), visibleSqlDatabasesCondition(access))),
  );
}
