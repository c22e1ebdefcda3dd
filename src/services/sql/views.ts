import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, groups, sqlDatabaseChatbots, sqlDatabaseGroups, sqlDatabaseTables } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import { can, type OrgAccess } from "../access";
import { creatorsOf, type IdName } from "../view-parts";
import type { SqlDatabaseRow } from "./access";

export type SqlTableRow = typeof sqlDatabaseTables.$inferSelect;

export interface SqlDatabaseView {
  row: SqlDatabaseRow;
  tables: SqlTableRow[];
  chatbots: IdName[];
  groups: IdName[];
  createdBy: IdName | null;
  canManage: boolean;
}

export async function sqlDatabaseViews(db: Db, access: OrgAccess, rows: SqlDatabaseRow[]): Promise<SqlDatabaseView[]> {
  const ids = rows.map((r) => r.id);
  const [tables, bots, groupLinks, createdBy] = await Promise.all([
    inChunks(ids, (part) =>
      db
        .select()
        .from(sqlDatabaseTables)
        .where(inArray(sqlDatabaseTables.sqlDatabaseId, part))
        .orderBy(asc(sqlDatabaseTables.tableName)),
    ),
    inChunks(ids, (part) =>
      db
        .select({ sqlDatabaseId: sqlDatabaseChatbots.sqlDatabaseId, id: chatbots.id, name: chatbots.name })
        .from(sqlDatabaseChatbots)
        .innerJoin(chatbots, eq(chatbots.id, sqlDatabaseChatbots.chatbotId))
        .where(inArray(sqlDatabaseChatbots.sqlDatabaseId, part))
        .orderBy(asc(chatbots.name)),
    ),
    inChunks(ids, (part) =>
      db
        .select({ sqlDatabaseId: sqlDatabaseGroups.sqlDatabaseId, id: groups.id, name: groups.name })
        .from(sqlDatabaseGroups)
        .innerJoin(groups, eq(groups.id, sqlDatabaseGroups.groupId))
        .where(inArray(sqlDatabaseGroups.sqlDatabaseId, part))
        .orderBy(asc(groups.name)),
    ),
    creatorsOf(db, rows),
  ]);
  const canManage = can(access, "sql_database.manage");
  return rows.map((row) => ({
    row,
    tables: tables.filter((t) => t.sqlDatabaseId === row.id),
    chatbots: bots.filter((b) => b.sqlDatabaseId === row.id).map(({ id, name }) => ({ id, name })),
    groups: groupLinks.filter((g) => g.sqlDatabaseId === row.id).map(({ id, name }) => ({ id, name })),
    createdBy: createdBy(row),
    canManage,
  }));
}

export const sqlDatabaseView = async (db: Db, access: OrgAccess, row: SqlDatabaseRow) =>
  (await sqlDatabaseViews(db, access, [row]))[0];
