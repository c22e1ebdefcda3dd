import { z } from "@hono/zod-openapi";
import { SQL_DATABASE_STATUSES, SQL_DATABASE_TYPES } from "../../db/schema";
import { GroupRefs, IdName, IdRef, NameField, Timestamps } from "../../lib/openapi";
import { ms, timestampsOf } from "../../lib/time";
import type { SqlDatabaseView, SqlTableRow } from "../sql/views";
import { maskConnectionString } from "../sql/connection";

/** The types and statuses a SQL database has, for the routes' query and body schemas. */
export { SQL_DATABASE_STATUSES, SQL_DATABASE_TYPES };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const SqlColumnSchema = z
  .object({
    id: z.string().openapi({ description: "The column's id", example: EXAMPLE_ID }),
    columnName: z.string().openapi({ description: "The column's name in the table", example: "amount" }),
    columnType: z.string().openapi({ description: "As the database names it", example: "integer" }),
    description: z
      .string()
      .openapi({ description: "A description of the column; empty, as nothing sets one yet", example: "" }),
    isPrimaryKey: z.boolean().openapi({ description: "Whether it is part of the table's primary key", example: false }),
    isNullable: z.boolean().openapi({ description: "Whether it may hold null", example: true }),
    ...Timestamps,
  })
  .openapi("SqlColumn");

export const SqlTableSchema = z
  .object({
    id: z.string().openapi({ description: "The table's id", example: EXAMPLE_ID }),
    tableName: z.string().openapi({ description: "The table's name in the database", example: "sales" }),
    description: z.string().openapi({
      description: "What the table holds (the model reads it); empty when none",
      example: "One row per sale",
    }),
    status: z.string().openapi({ description: "ready or failed", example: "ready" }),
    errorMessage: z
      .string()
      .nullable()
      .openapi({ description: "Why the table failed; null when ready", example: null }),
    sourceFile: z
      .object({
        id: z.string().nullable().openapi({
          description: "The knowledge base file; null for a file uploaded with the table",
          example: EXAMPLE_ID,
        }),
        name: z.string().openapi({ description: "The file's name", example: "sales.csv" }),
        isFromKnowledgeBase: z.boolean().openapi({
          description: "Whether it is a knowledge base's file (else uploaded with the table)",
          example: true,
        }),
      })
      .nullable()
      .openapi({ description: "The CSV or XLSX file a managed table was created from" }),
    rowCount: z.number().int().nullable().openapi({ description: "Rows loaded (managed tables)", example: 120 }),
    columns: z.array(SqlColumnSchema).openapi({ description: "The table's columns, in the table's order" }),
    ...Timestamps,
  })
  .openapi("SqlTable");

const commonFields = {
  id: z.string().openapi({ description: "The database's id", example: EXAMPLE_ID }),
  name: z.string().openapi({ description: "The database's name", example: "Shop database" }),
  description: z
    .string()
    .openapi({ description: "What it holds (the model reads it); empty when none", example: "Orders and customers" }),
  databaseType: z.enum(SQL_DATABASE_TYPES).openapi({
    description:
      "managed (tables the platform keeps) or postgresql; mysql, oracle and mssql are stored but not queried",
    example: "postgresql",
  }),
  databaseUrl: z.string().nullable().openapi({
    description: "Masked connection string (write-only in requests); `hyperdrive://BINDING` as written",
    example: "postgresql://bot:***@db.example.com:5432/shop",
  }),
  includeTables: z
    .object({ tables: z.array(z.string()).openapi({ description: "Table names" }) })
    .nullable()
    .openapi({ description: "Tables text-to-SQL may read; null: all discovered", example: { tables: ["sales"] } }),
  isActive: z.boolean().openapi({ description: "When false, skipped in text-to-SQL", example: true }),
  status: z
    .enum(SQL_DATABASE_STATUSES)
    .openapi({ description: "pending (being checked), connected or failed", example: "connected" }),
  errorMessage: z.string().nullable().openapi({ description: "Why the last connection failed", example: null }),
  deletedAt: z.string().nullable().openapi({ description: "Always null: deleted databases are gone", example: null }),
  chatbots: z.array(IdName).openapi({ description: "Assistants that query it in agent replies" }),
  groups: z.array(IdName).openapi({ description: "Groups whose members may see it" }),
  createdBy: z.union([IdName, z.null()]).openapi({ description: "Its creator" }),
  canUpdate: z
    .boolean()
    .openapi({ description: "Whether the caller may change it (holds sql_database.manage)", example: true }),
  canDelete: z
    .boolean()
    .openapi({ description: "Whether the caller may delete it (holds sql_database.manage)", example: true }),
  ...Timestamps,
};

export const SqlDatabaseSchema = z
  .object({
    ...commonFields,
    tables: z.array(SqlTableSchema).openapi({ description: "Its tables, with their columns" }),
  })
  .openapi("SqlDatabase");
export const SqlDatabaseListItem = z
  .object({
    ...commonFields,
    tables: z
      .array(
        z.object({
          id: z.string().openapi({ description: "The table's id", example: EXAMPLE_ID }),
          tableName: z.string().openapi({ description: "The table's name in the database", example: "sales" }),
        }),
      )
      .openapi({ description: "Its tables, by id and name (`GET` the database for their columns)" }),
    tablesCount: z.number().int().openapi({ description: "How many tables it has", example: 1 }),
  })
  .openapi("SqlDatabaseListItem");

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const writeFields = {
  name: NameField("Unique in the organization", "Shop database"),
  description: z
    .string()
    .max(10_000)
    .nullable()
    .optional()
    .openapi({ description: "What it holds (the model reads it)", example: "Orders and customers" }),
  databaseType: z.enum(SQL_DATABASE_TYPES).openapi({
    description: "managed or postgresql (mysql, oracle, mssql are stored but cannot be queried yet)",
    example: "managed",
  }),
  databaseUrl: z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .openapi({
      description:
        "Connection string, required except for managed; write-only, encrypted at rest. `hyperdrive://BINDING` " +
        "connects through the deployment's Hyperdrive binding of that name",
      example: "postgresql://bot:secret@db.example.com:5432/shop?sslmode=require",
    }),
  includeTables: z
    .object({
      tables: z
        .array(z.string().min(1).max(200).openapi({ example: "sales" }))
        .max(500)
        .openapi({ description: "Table names", example: ["sales"] }),
    })
    .nullable()
    .optional()
    .openapi({
      description: "Only these tables are discovered and queried (external databases)",
      example: { tables: ["sales"] },
    }),
  isActive: z.boolean().optional().openapi({ description: "When false, skipped in text-to-SQL", example: true }),
  chatbots: z.array(IdRef).max(100).nullable().optional().openapi({
    description:
      "Assistants (`[{id}]`) that query it in agent replies; replaces those you can see (links to others stay)",
    example: [],
  }),
  groups: GroupRefs("Groups (`[{id}]`); non-owners must pick one of their own"),
};

export const SqlDatabaseWrite = z.object(writeFields).openapi("SqlDatabaseWrite");
export const SqlDatabasePatch = SqlDatabaseWrite.partial().openapi("SqlDatabasePatch");

export type SqlColumnRecord = z.infer<typeof SqlColumnSchema>;
export type SqlTableRecord = z.infer<typeof SqlTableSchema>;
/** `databaseUrl` is masked (`user:***@`); the connection string itself is write-only. */
export type SqlDatabaseRecord = z.infer<typeof SqlDatabaseSchema>;
export type SqlDatabaseListRecord = z.infer<typeof SqlDatabaseListItem>;

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
  ...timestampsOf(t),
});

const common = (v: SqlDatabaseView): Omit<SqlDatabaseRecord, "tables"> => ({
  id: v.row.id,
  name: v.row.name,
  description: v.row.description,
  databaseType: v.row.databaseType,
  // Masked again: a form stored by an earlier version may show more (maskConnectionString).
  databaseUrl: v.row.databaseUrlMasked && maskConnectionString(v.row.databaseUrlMasked),
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
