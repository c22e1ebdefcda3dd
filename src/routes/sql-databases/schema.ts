import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { IdName, IdRef, uuidParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { SQL_DATABASE_TYPES } from "../../services/records/sql-databases";

export {
  SqlDatabaseListItem,
  SqlDatabaseSchema,
  SqlTableSchema,
} from "../../services/records/sql-databases";

export const SQL_DATABASES_TAG = "SQL databases";

const flag = (description: string) => booleanQuery({ description, example: "true" });
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
  description: z.string().optional().openapi({
    description: "What the table holds (the model reads it), at most 10,000 characters; absent or empty, none",
    example: "One row per sale",
  }),
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
    largeLanguageModel: z
      .uuid()
      .optional()
      .openapi({
        description:
          "The language model that writes the SQL (default: the built-in local model, which only runs SQL the " +
          'question spells as `sql: "..."`)',
        example: LOCAL_LLM,
      }),
  })
  .openapi("SqlAsk");

export const SqlAskOutcome = z
  .object({
    question: z.string().openapi({ description: "The question, as asked", example: "Which region sold the most?" }),
    status: z
      .enum(["success", "failure", "timeout"])
      .openapi({ description: "success, failure (no query, refused, or failed) or timeout", example: "success" }),
    sql: z.string().nullable().openapi({
      description: "The SQL the model wrote (null when it wrote none)",
      example: "select region, sum(amount) as total from sales group by region order by total desc",
    }),
    columns: z
      .array(z.string())
      .openapi({ description: "The result's column names, in order; [] without rows", example: ["region", "total"] }),
    rows: z.array(z.array(z.any())).openapi({
      description:
        "The rows, each in the order of `columns`; a value longer than 64 KiB is cut, ending `… (value cut at " +
        "65536 bytes)`",
      example: [["north", 200]],
    }),
    rowCount: z.number().int().openapi({ description: "Rows returned in `rows`; 0 on failure", example: 1 }),
    truncated: z.boolean().openapi({
      description:
        "The result was cut: more rows exist than the row limit returns or than 1 MiB holds, or a value was cut",
      example: false,
    }),
    durationMs: z.number().int().nullable().openapi({ description: "Time the query took", example: 12 }),
    error: z.string().nullable().openapi({ description: "Why there are no rows", example: null }),
    model: IdName,
  })
  .openapi("SqlAskOutcome");
