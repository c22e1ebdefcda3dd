import { index, sqliteTable, text, uniqueIndex, integer } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { groups, organizations } from "./organizations";
import { chatbots } from "./chatbots";
import { belongsTo, bool, id, json, timestamps, linkTable } from "./columns";

export const SQL_DATABASE_TYPES = ["postgresql", "mysql", "oracle", "mssql", "managed"] as const;
export const SQL_DATABASE_STATUSES = ["pending", "connected", "failed"] as const;
export const SQL_TABLE_STATUSES = ["ready", "failed"] as const;
export type SqlDatabaseType = (typeof SQL_DATABASE_TYPES)[number];

export interface SqlColumn {
  id: string;
  columnName: string;
  columnType: string;
  description: string;
  isPrimaryKey: boolean;
  isNullable: boolean;
  createdAt: number;
  updatedAt: number;
}

/**
 * SQL databases for text-to-SQL (spec "SQL database"). `managed` ones live in a SQLite Durable
 * Object of their own (durable-objects/managed-database.ts); external ones are reached over TCP with
 * the connection string encrypted at rest (`databaseUrl` is write-only; the masked form is kept).
 */
export const sqlDatabases = sqliteTable(
  "sql_databases",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    databaseType: text("database_type", { enum: SQL_DATABASE_TYPES }).notNull(),
    /** `encryptSecret` of the connection string. */
    databaseUrlSealed: text("database_url_sealed"),
    databaseUrlMasked: text("database_url_masked"),
    /** `{tables: [...]}`: the tables text-to-SQL may read (null: all discovered). */
    includeTables: json<{ tables: string[] }>("include_tables"),
    isActive: bool("is_active").notNull().default(true),
    status: text("status", { enum: SQL_DATABASE_STATUSES }).notNull().default("pending"),
    errorMessage: text("error_message"),
    checkedAt: integer("checked_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("sql_databases_org_name_uq").on(t.organizationId, t.name),
    index("sql_databases_org_idx").on(t.organizationId, t.createdAt),
  ],
);

/** Tables of a database, discovered from it (external) or created from a file (managed). */
export const sqlDatabaseTables = sqliteTable(
  "sql_database_tables",
  {
    id: id(),
    sqlDatabaseId: belongsTo("sql_database_id", () => sqlDatabases.id),
    tableName: text("table_name").notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: SQL_TABLE_STATUSES }).notNull().default("ready"),
    errorMessage: text("error_message"),
    sourceFileId: text("source_file_id"),
    sourceFileName: text("source_file_name"),
    isFromKnowledgeBase: bool("is_from_knowledge_base").notNull().default(false),
    rowCount: integer("row_count"),
    columns: json<SqlColumn[]>("columns").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("sql_database_tables_name_uq").on(t.sqlDatabaseId, t.tableName)],
);

/** Assistants that query the database in agent replies (`chatbots: [{id}]`). */
export const sqlDatabaseChatbots = linkTable("sql_database_chatbots", "sql_database_chatbots_chatbot_idx", {
  sqlDatabaseId: belongsTo("sql_database_id", () => sqlDatabases.id),
  chatbotId: belongsTo("chatbot_id", () => chatbots.id),
});

export const sqlDatabaseGroups = linkTable("sql_database_groups", "sql_database_groups_group_idx", {
  sqlDatabaseId: belongsTo("sql_database_id", () => sqlDatabases.id),
  groupId: belongsTo("group_id", () => groups.id),
});
