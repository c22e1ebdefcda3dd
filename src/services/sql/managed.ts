import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { sqlDatabaseTables, type SqlColumn } from "../../db/schema";
import { ApiError, conflict, fieldError } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import type { OrgAccess } from "../access";
import { findVisibleFile } from "../knowledge/files";
import type { SqlDatabaseRow } from "./access";
import { managedDatabase } from "./write";
import { parseTable, sqlName, TABULAR_LIMITS, TabularError } from "./tabular";
import type { SqlTableRow } from "./views";
import { findById } from "../../db/find";
import { logError } from "../../lib/log";

const ROWS_PER_CALL = 5_000;

export interface TableSource {
  filename: string;
  bytes: Uint8Array;
  fileId: string | null;
  fromKnowledgeBase: boolean;
}

/** A CSV or XLSX file of a knowledge base the caller can see (400 naming `sourceFile` otherwise). */
export async function knowledgeBaseSource(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  fileId: string,
): Promise<TableSource> {
  const file = await findVisibleFile(db, access, userId, fileId);
  if (!file) throw fieldError("sourceFile", "No knowledge base file with this id is visible to you.");
  if (file.size > TABULAR_LIMITS.bytes)
    throw fieldError("sourceFile", `The file is larger than ${TABULAR_LIMITS.bytes} bytes.`);
  const object = await env.FILES.get(file.objectKey);
  if (!object) throw fieldError("sourceFile", "The file's content is missing from storage.");
  return {
    filename: file.filename,
    bytes: new Uint8Array(await object.arrayBuffer()),
    fileId: file.id,
    fromKnowledgeBase: true,
  };
}

/**
 * Creates a table of a managed database from a CSV or XLSX file: columns named and typed from the
 * header and the values, rows loaded into the database's own object, the table and its columns
 * recorded. Bad files are 400 and leave nothing behind.
 */
export async function createManagedTable(
  env: Bindings,
  db: Db,
  database: SqlDatabaseRow,
  source: TableSource,
  options: { tableName?: string; description?: string; replace?: boolean },
): Promise<SqlTableRow> {
  if (database.databaseType !== "managed")
    throw new ApiError(
      400,
      "invalid",
      "Tables are created from files in managed databases only; external databases' tables are discovered.",
    );
  let table;
  try {
    table = parseTable(source.filename, source.bytes);
  } catch (err) {
    if (err instanceof TabularError) throw fieldError(source.fromKnowledgeBase ? "sourceFile" : "file", err.message);
    throw err;
  }
  let name = sqlName(options.tableName ?? source.filename.replace(/\.[^.]+$/, ""), "table");
  if (options.tableName && name !== options.tableName)
    throw fieldError("tableName", "Lower-case letters, digits and underscores, starting with a letter (at most 63).");
  // SQLite keeps names starting with sqlite_ for its own tables and refuses to create one.
  if (name.startsWith("sqlite_")) {
    if (options.tableName) throw fieldError("tableName", "Names starting with sqlite_ are reserved by SQLite.");
    name = `table_${name}`.slice(0, 63);
  }
  const [existing] = await db
    .select({ id: sqlDatabaseTables.id })
    .from(sqlDatabaseTables)
    .where(and(eq(sqlDatabaseTables.sqlDatabaseId, database.id), eq(sqlDatabaseTables.tableName, name)));
  if (existing && !options.replace) throw conflict(`The table "${name}" already exists; send replace to overwrite it.`);
  const stub = managedDatabase(env, database.id);
  const [first, ...rest] = chunks(table.rows, ROWS_PER_CALL);
  const id = existing?.id ?? uuidv7();
  const now = Date.now();
  const columns: SqlColumn[] = table.columns.map((c) => ({
    id: uuidv7(),
    columnName: c.name,
    columnType: c.type,
    description: "",
    isPrimaryKey: false,
    isNullable: true,
    createdAt: now,
    updatedAt: now,
  }));
  try {
    await stub.createTable(name, table.columns, first ?? [], !!existing);
    for (const part of rest) await stub.appendRows(name, table.columns.length, part);
    const values = {
      tableName: name,
      description: options.description ?? "",
      status: "ready" as const,
      errorMessage: null,
      sourceFileId: source.fileId,
      sourceFileName: source.filename,
      isFromKnowledgeBase: source.fromKnowledgeBase,
      rowCount: table.rows.length,
      columns,
      updatedAt: now,
    };
    const [row] = existing
      ? await db.update(sqlDatabaseTables).set(values).where(eq(sqlDatabaseTables.id, id)).returning()
      : await db
          .insert(sqlDatabaseTables)
          .values({ ...values, id, sqlDatabaseId: database.id, createdAt: now })
          .returning();
    return row;
  } catch (err) {
    // The rows are useless without their record (and the record must not promise rows that are not there).
    if (!existing)
      await stub.dropTable(name).catch((dropped) =>
        logError("managed table's rows left without their record (not dropped)", {
          sqlDatabaseId: database.id,
          table: name,
          error: String(dropped),
        }),
      );
    throw err;
  }
}

export async function dropManagedTable(env: Bindings, db: Db, database: SqlDatabaseRow, tableId: string) {
  const row = await findById(tableId, "Table not found.", () =>
    db
      .select()
      .from(sqlDatabaseTables)
      .where(and(eq(sqlDatabaseTables.id, tableId), eq(sqlDatabaseTables.sqlDatabaseId, database.id))),
  );
  if (database.databaseType !== "managed")
    throw new ApiError(
      400,
      "invalid",
      "Tables of external databases are discovered; limit them with includeTables instead.",
    );
  await db.delete(sqlDatabaseTables).where(eq(sqlDatabaseTables.id, row.id));
  await managedDatabase(env, database.id).dropTable(row.tableName);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
