import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, sqlDatabaseChatbots, sqlDatabaseTables } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import { can, type OrgAccess } from "../access";
import { creatorsOf, groupNameLinks, type IdName, linkedNames } from "../view-parts";
import { linkableChatbotsCondition, type SqlDatabaseRow, sqlDatabaseGroupLinks } from "./access";

export type SqlTableRow = typeof sqlDatabaseTables.$inferSelect;

export interface SqlDatabaseView {
  row: SqlDatabaseRow;
  tables: SqlTableRow[];
  chatbots: IdName[];
  groups: IdName[];
  createdBy: IdName | null;
  canManage: boolean;
}

export async function sqlDatabaseViews(
  db: Db,
  access: OrgAccess,
  userId: string,
  rows: SqlDatabaseRow[],
): Promise<SqlDatabaseView[]> {
  const ids = rows.map((r) => r.id);
  const [tables, botsOf, groupsOf, createdBy] = await Promise.all([
    inChunks(ids, (part) =>
      db
        .select()
        .from(sqlDatabaseTables)
        .where(inArray(sqlDatabaseTables.sqlDatabaseId, part))
        .orderBy(asc(sqlDatabaseTables.tableName)),
    ),
    linkedNames(
      db,
      ids,
      {
        table: sqlDatabaseChatbots,
        owner: sqlDatabaseChatbots.sqlDatabaseId,
        target: chatbots,
        on: eq(chatbots.id, sqlDatabaseChatbots.chatbotId),
        id: chatbots.id,
        name: chatbots.name,
        orderBy: [asc(chatbots.name)],
      },
      // Only the assistants the caller may link: the list is what a PUT or PATCH may send back.
      linkableChatbotsCondition(access, userId),
    ),
    linkedNames(db, ids, groupNameLinks(sqlDatabaseGroupLinks)),
    creatorsOf(db, rows),
  ]);
  const canManage = can(access, "sql_database.manage");
  return rows.map((row) => ({
    row,
    tables: tables.filter((t) => t.sqlDatabaseId === row.id),
    chatbots: botsOf(row.id),
    groups: groupsOf(row.id),
    createdBy: createdBy(row),
    canManage,
  }));
}

export const sqlDatabaseView = async (db: Db, access: OrgAccess, userId: string, row: SqlDatabaseRow) =>
  (await sqlDatabaseViews(db, access, userId, [row]))[0];
