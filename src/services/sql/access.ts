import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, sqlDatabaseGroups, sqlDatabases } from "../../db/schema";
import { can, type OrgAccess, withPermission } from "../access";
import { visibleChatbotsCondition } from "../chatbots/visibility";
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

/**
 * The assistants of the organization a SQL database's editor may link it to (those they see, or that are given to one
 * of their groups): the ones its record lists and a PUT or PATCH of `chatbots` replaces; links to the others stay
 * (docs/decisions.md, "Links to what the caller cannot see").
 */
export const linkableChatbotsCondition = (access: OrgAccess, userId: string): SQL =>
  and(
    eq(chatbots.organizationId, access.organizationId),
    visibleChatbotsCondition(withPermission(access, "chatbot.view"), userId),
  )!;
