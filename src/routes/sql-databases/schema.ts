import { z } from "@hono/zod-openapi";
import { SQL_DATABASE_STATUSES, SQL_DATABASE_TYPES } from "../../db/schema";
import { IdName, IdRef, Timestamp, uuidParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";

export const SQL_DATABASES_TAG = "SQL databases";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const Column = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    columnName: z.string().openapi({ example: "amount" }),
    columnType: z.string().openapi({ description: "As the database names it", example: "integer" }),
    description: z.string().openapi({ example: "" }),
    isPrimaryKey: z.boolean().openapi({ example: false }),
    isNullable: z.boolean().openapi({ example: true }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("SqlColumn");

export const SqlTableSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    tableName: z.string().openapi({ example: "sales" }),
    description: z.string().openapi({ example: "One row per sale" }),
    status: z.string().openapi({ description: "ready or failed", example: "ready" }),
    errorMessage: z.string().nullable().openapi({ example: null }),
    sourceFile: z
      .object({
        id: z.string().nullable().openapi({
          description: "The knowledge base file; null for a file uploaded with the table",
          example: EXAMPLE_ID,
        }),
        name: z.string().openapi({ example: "sales.csv" }),
        isFromKnowledgeBase: z.boolean().openapi({ example: true }),
      })
      .nullable()
      .openapi({ description: "The CSV or XLSX file a managed table was created from" }),
    rowCount: z.number().int().nullable().openapi({ description: "Rows loaded (managed tables)", example: 120 }),
    columns: z.array(Column),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("SqlTable");

const common = {
  id: z.string().openapi({ example: EXAMPLE_ID }),
  name: z.string().openapi({ example: "Shop database" }),
  description: z.string().openapi({ example: "Orders and customers" }),
  databaseType: z.enum(SQL_DATABASE_TYPES).openapi({ example: "postgresql" }),
  databaseUrl: z.string().nullable().openapi({
    description: "Masked connection string (write-only in requests); `hyperdrive://BINDING` as written",
    example: "postgresql://bot:***@db.example.com:5432/shop",
  }),
  includeTables: z
    .object({ tables: z.array(z.string()) })
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
  canUpdate: z.boolean().openapi({ example: true }),
  canDelete: z.boolean().openapi({ example: true }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const SqlDatabaseSchema = z.object({ ...common, tables: z.array(SqlTableSchema) }).openapi("SqlDatabase");
export const SqlDatabaseListItem = z
  .object({
    ...common,
    tables: z.array(
      z.object({
        id: z.string().openapi({ example: EXAMPLE_ID }),
        tableName: z.string().openapi({ example: "sales" }),
      }),
    ),
    tablesCount: z.number().int().openapi({ example: 1 }),
  })
  .openapi("SqlDatabaseListItem");

const fields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .openapi({ description: "Unique in the organization", example: "Shop database" }),
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
  databaseUrl: z.string().max(2000).nullable().optional().openapi({
    description:
      "Connection string, required except for managed; write-only, encrypted at rest. `hyperdrive://BINDING` connects through the deployment's Hyperdrive binding of that name",
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
  chatbots: z
    .array(IdRef)
    .max(100)
    .nullable()
    .optional()
    .openapi({ description: "Assistants (`[{id}]`) that query it in agent replies; replaces the list", example: [] }),
  groups: z
    .array(IdRef)
    .max(50)
    .nullable()
    .optional()
    .openapi({ description: "Groups (`[{id}]`); non-owners must pick one of their own", example: [] }),
};

export const SqlDatabaseWrite = z.object(fields).openapi("SqlDatabaseWrite");
export const SqlDatabasePatch = SqlDatabaseWrite.partial().openapi("SqlDatabasePatch");

const flag = (description: string) => z.enum(["true", "false"]).optional().openapi({ description, example: "true" });
export const SqlDatabaseListQuery = PageQuery.extend({
  databaseType: z.enum(SQL_DATABASE_TYPES).optional().openapi({ description: "Only this type", example: "postgresql" }),
  isActive: flag("Only active (true) or inactive (false) databases"),
  isExternal: flag("true: external databases; false: managed ones"),
  query: z.string().max(200).optional().openapi({ description: "Name or description contains", example: "shop" }),
});

export const SqlTableParams = z.object({
  id: uuidParam("id", "SQL database id"),
  tableId: uuidParam("tableId", "Table id"),
});

export const SqlTableFromFile = z
  .object({
    tableName: z
      .string()
      .trim()
      .min(1)
      .max(63)
      .optional()
      .openapi({ description: "Default: from the file name (letters, digits, underscores)", example: "sales" }),
    description: z
      .string()
      .max(10_000)
      .optional()
      .openapi({ description: "What the table holds (the model reads it)", example: "One row per sale" }),
    sourceFile: IdRef.openapi({ description: "A CSV or XLSX file of a knowledge base you can see" }),
    replace: z.boolean().optional().openapi({ description: "Replace a table of the same name", example: false }),
  })
  .openapi("SqlTableFromFile");

export const SqlTableUploadForm = z.object({
  file: z.any().openapi({ type: "string", format: "binary", description: "A .csv or .xlsx file", example: "" }),
  tableName: z.string().optional().openapi({ description: "Default: from the file name", example: "sales" }),
  description: z.string().optional().openapi({ example: "One row per sale" }),
  replace: z.string().optional().openapi({ description: "`true` replaces a table of the same name", example: "false" }),
});

/** The built-in local language model (migrations/0001), the default of `ask/`. */
export const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";

export const SqlAskBody = z
  .object({
    question: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .openapi({ description: "A question about the data", example: "Which region sold the most?" }),
    largeLanguageModel: z.uuid().optional().openapi({
      description:
        'The language model that writes the SQL (default: the built-in local model, which only runs SQL the question spells as `sql: "..."`)',
      example: LOCAL_LLM,
    }),
  })
  .openapi("SqlAsk");

export const SqlAskOutcome = z
  .object({
    question: z.string().openapi({ example: "Which region sold the most?" }),
    status: z
      .enum(["success", "failure", "timeout"])
      .openapi({ description: "success, failure (no query, refused, or failed) or timeout", example: "success" }),
    sql: z.string().nullable().openapi({
      description: "The SQL the model wrote (null when it wrote none)",
      example: "select region, sum(amount) as total from sales group by region order by total desc",
    }),
    columns: z.array(z.string()).openapi({ example: ["region", "total"] }),
    rows: z
      .array(z.array(z.any()))
      .openapi({ description: "The rows, each in the order of `columns`", example: [["north", 200]] }),
    rowCount: z.number().int().openapi({ example: 1 }),
    truncated: z.boolean().openapi({ description: "More rows exist than the row limit returns", example: false }),
    durationMs: z.number().int().nullable().openapi({ description: "Time the query took", example: 12 }),
    error: z.string().nullable().openapi({ description: "Why there are no rows", example: null }),
    model: IdName,
  })
  .openapi("SqlAskOutcome");
