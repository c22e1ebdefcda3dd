import { ms } from "../../lib/time";
import type { SqlDatabaseView, SqlTableRow } from "../sql/views";
import type { SqlDatabaseRow } from "../sql/access";

type IdName = { id: string; name: string };

export interface SqlColumnRecord {
  id: string;
  columnName: string;
  columnType: string;
  description: string;
  isPrimaryKey: boolean;
  isNullable: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SqlTableRecord {
  id: string;
  tableName: string;
  description: string;
  status: string;
  errorMessage: string | null;
  sourceFile: { id: string | null; name: string; isFromKnowledgeBase: boolean } | null;
  rowCount: number | null;
  columns: SqlColumnRecord[];
  createdAt: string;
  updatedAt: string;
}

interface Common {
  id: string;
  name: string;
  description: string;
  databaseType: SqlDatabaseRow["databaseType"];
  /** Masked (`user:***@`); the connection string itself is write-only. */
  databaseUrl: string | null;
  includeTables: { tables: string[] } | null;
  isActive: boolean;
  status: SqlDatabaseRow["status"];
  errorMessage: string | null;
  deletedAt: string | null;
  chatbots: IdName[];
  groups: IdName[];
  createdBy: IdName | null;
  canUpdate: boolean;
  canDelete: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SqlDatabaseRecord extends Common {
  tables: SqlTableRecord[];
}

export interface SqlDatabaseListRecord extends Common {
  tables: { id: string; tableName: string }[];
  tablesCount: number;
}

export const sqlTableRecord = (t: SqlTableRow): SqlTableRecord => ({
  id: t.id,
  tableName: t.tableName,
  description: t.description,
  status: t.status,
  errorMessage: t.errorMessage,
  sourceFile: t.sourceFileName
    ? { id: t.sourceFileId, name: t.sourceFileName, isFromKnowledgeBase: t.isFromKnowledgeBase }
    : null,
  rowCount: t.rowCount,
  columns: t.columns.map((c) => ({ ...c, createdAt: ms(c.createdAt)!, updatedAt: ms(c.updatedAt)! })),
  createdAt: ms(t.createdAt)!,
  updatedAt: ms(t.updatedAt)!,
});

const common = (v: SqlDatabaseView): Common => ({
  id: v.row.id,
  name: v.row.name,
  description: v.row.description,
  databaseType: v.row.databaseType,
  databaseUrl: v.row.databaseUrlMasked,
  includeTables:
    v.row.includeTables ?? (v.row.databaseType === "managed" ? { tables: v.tables.map((t) => t.tableName) } : null),
  isActive: v.row.isActive,
  status: v.row.status,
  errorMessage: v.row.errorMessage,
  deletedAt: null,
  chatbots: v.chatbots,
  groups: v.groups,
  createdBy: v.createdBy,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});

export const sqlDatabaseRecord = (v: SqlDatabaseView): SqlDatabaseRecord => ({
  ...common(v),
  tables: v.tables.map(sqlTableRecord),
});

export const sqlDatabaseListRecord = (v: SqlDatabaseView): SqlDatabaseListRecord => ({
  ...common(v),
  tables: v.tables.map((t) => ({ id: t.id, tableName: t.tableName })),
  tablesCount: v.tables.length,
});
