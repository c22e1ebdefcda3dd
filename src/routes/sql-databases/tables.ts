import { createRoute, type z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, noContent } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { formFile, formText } from "../../lib/form";
import { acceptOnly } from "../../middleware/content-type";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { authorize, type OrgAccess } from "../../services/access";
import { getSqlDatabase } from "../../services/sql/access";
import {
  createManagedTable,
  dropManagedTable,
  knowledgeBaseSource,
  type TableOptions,
  type TableSource,
} from "../../services/sql/managed";
import { TABULAR_LIMITS } from "../../services/sql/tabular";
import { sqlTableRecord } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlTableFromFile, SqlTableParams, SqlTableSchema, SqlTableUploadForm } from "./schema";

const create = createRoute({
  method: "post",
  path: "/sql-databases/{id}/tables/",
  tags: [SQL_DATABASES_TAG],
  summary: "Create a table of a managed database from a CSV or XLSX file",
  description:
    "Needs `sql_database.manage`. JSON `{sourceFile: {id}, tableName?, description?, replace?}` names a CSV " +
    "or XLSX file of a knowledge base you can see; " +
    `or multipart \`file\` (.csv or .xlsx, at most ${TABULAR_LIMITS.bytes} bytes, ${TABULAR_LIMITS.rows} ` +
    `rows). Column names come from the header row ` +
    "(lower-cased, letters, digits and underscores), types (INTEGER, REAL, TEXT) from the values. A table of " +
    "the same name is 409 unless `replace`, and so is one a file is still being loaded into (two uploads never " +
    "fill one table). " +
    "Managed databases only (400 otherwise).",
  middleware: [
    acceptOnly(["json", "multipart"], { required: true, maxMultipartBytes: TABULAR_LIMITS.bytes + 64 * 1024 }),
  ] as const,
  request: {
    params: IdParams,
    body: {
      required: false,
      description: "JSON naming a knowledge base file, or multipart/form-data with a `file` part",
      content: {
        "application/json": { schema: SqlTableFromFile },
        "multipart/form-data": { schema: SqlTableUploadForm },
      },
    },
  },
  responses: { 201: json(SqlTableSchema, "The created table"), ...errorResponses(400, 403, 404, 409, 413, 415) },
});

const remove = createRoute({
  method: "delete",
  path: "/sql-databases/{id}/tables/{tableId}/",
  tags: [SQL_DATABASES_TAG],
  summary: "Delete a table of a managed database",
  description:
    "Needs `sql_database.manage`. The table and its rows are deleted. Managed databases only (400 otherwise).",
  request: { params: SqlTableParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

/**
 * A multipart body's file and fields (the JSON body's are checked by its schema): a .csv or .xlsx `file` part within
 * TABULAR_LIMITS, a description of at most 10,000 characters; empty fields are left out.
 */
async function uploadedTable(form: FormData): Promise<{ source: TableSource; options: TableOptions }> {
  const file = formFile(form, "Required: a .csv or .xlsx file part.", TABULAR_LIMITS.bytes, "file");
  const text = (name: string) => formText(form, name) || undefined;
  const description = text("description");
  if (description && description.length > 10_000) throw fieldError("description", "At most 10,000 characters.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    source: { filename: file.name || "upload.csv", bytes, fileId: null, fromKnowledgeBase: false },
    options: { tableName: text("tableName"), description, replace: text("replace") === "true" },
  };
}

/** A JSON body's knowledge base file (one the caller can see) and fields. */
async function knowledgeBaseTable(c: Context<AppEnv>, access: OrgAccess, body: z.infer<typeof SqlTableFromFile>) {
  const source = await knowledgeBaseSource(c.env, c.var.db, access, c.var.principal.userId, body.sourceFile.id);
  return { source, options: body };
}

export function registerSqlTableRoutes(r: Router) {
  r.openapi(create, async (c) => {
    const db = c.var.db;
    const access = await authorize(c, "sql_database.manage");
    const database = await getSqlDatabase(db, access, c.req.valid("param").id);
    const { source, options } = /^multipart\/form-data/i.test(c.req.header("Content-Type") ?? "")
      ? await uploadedTable(await c.req.formData())
      : await knowledgeBaseTable(c, access, c.req.valid("json") as z.infer<typeof SqlTableFromFile>);
    const row = await createManagedTable(c.env, db, database, source, options);
    return c.json(sqlTableRecord(row), 201);
  });

  r.openapi(remove, async (c) => {
    const access = await authorize(c, "sql_database.manage");
    const { id, tableId } = c.req.valid("param");
    const database = await getSqlDatabase(c.var.db, access, id);
    await dropManagedTable(c.env, c.var.db, database, tableId);
    return c.body(null, 204);
  });
}
