import { and, eq, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { sqlDatabaseTables, type SqlColumn } from "../../db/schema";
import { ApiError, conflict, fieldError, isUniqueViolation } from "../../lib/errors";
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

/** The table a file makes: its name (by default from the file's), its description, whether it replaces one. */
export interface TableOptions {
  tableName?: string;
  description?: string;
  replace?: boolean;
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
  options: TableOptions,
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
  const claim = await claimTableName(db, database.id, name, !!options.replace, {
    columns,
    sourceFileId: source.fileId,
    sourceFileName: source.filename,
    isFromKnowledgeBase: source.fromKnowledgeBase,
  });
  const stub = managedDatabase(env, database.id);
  const [first, ...rest] = chunks(table.rows, ROWS_PER_CALL);
  const ours = and(eq(sqlDatabaseTables.id, claim.id), eq(sqlDatabaseTables.updatedAt, claim.claimedAt));
  try {
    // The name is this request's (the claim): a table of that name in the object is replaced, whoever left it.
    await stub.createTable(name, table.columns, first ?? [], true);
    for (const part of rest) await stub.appendRows(name, table.columns.length, part);
    const [row] = await db
      .update(sqlDatabaseTables)
      .set({
        description: options.description ?? "",
        status: "ready",
        errorMessage: null,
        sourceFileId: source.fileId,
        sourceFileName: source.filename,
        isFromKnowledgeBase: source.fromKnowledgeBase,
        rowCount: table.rows.length,
        columns,
        updatedAt: Math.max(Date.now(), claim.claimedAt + 1),
      })
      .where(ours)
      .returning();
    if (!row) throw conflict(`The table "${name}" was deleted or replaced while this file was loading.`);
    return row;
  } catch (err) {
    await releaseClaim(db, stub, { sqlDatabaseId: database.id, name, created: claim.created, ours }, err);
    throw err;
  }
}

/** What a table's record says while a file loads into it (the table is not offered to models meanwhile). */
const LOADING = "A file is being loaded into this table.";
/** What a replaced table's record says when loading its new file failed (the reason is logged, not shown). */
const NOT_LOADED = "Loading the file did not finish; upload it again with replace, or delete the table.";
/** A load that has not finished after this long is taken for dead: a replace may take its table over. */
const LOAD_CLAIM_MS = 15 * 60_000;

interface TableClaim {
  id: string;
  /** The record's updatedAt while the claim is this request's. */
  claimedAt: number;
  /** The record was inserted by this request (a new table), not a replaced one's. */
  created: boolean;
}

/**
 * Makes the table name this request's before anything is loaded: a new name by inserting its record (the unique
 * name makes a second upload of the same name at once a 409, not a CREATE TABLE failing in the object), a taken
 * one, with `replace`, by marking its record loading where it is still as read. Two loads never fill one table.
 */
async function claimTableName(
  db: Db,
  sqlDatabaseId: string,
  name: string,
  replace: boolean,
  values: Pick<SqlTableRow, "columns" | "sourceFileId" | "sourceFileName" | "isFromKnowledgeBase">,
): Promise<TableClaim> {
  const taken = () => conflict(`The table "${name}" already exists; send replace to overwrite it.`);
  const busy = () => conflict(`A file is being loaded into the table "${name}"; try again once it is done.`);
  const [existing] = await db
    .select()
    .from(sqlDatabaseTables)
    .where(and(eq(sqlDatabaseTables.sqlDatabaseId, sqlDatabaseId), eq(sqlDatabaseTables.tableName, name)));
  if (!existing) {
    const id = uuidv7();
    const claimedAt = Date.now();
    try {
      await db.insert(sqlDatabaseTables).values({
        ...values,
        id,
        sqlDatabaseId,
        tableName: name,
        status: "failed",
        errorMessage: LOADING,
        createdAt: claimedAt,
        updatedAt: claimedAt,
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw replace ? busy() : taken();
    }
    return { id, claimedAt, created: true };
  }
  if (!replace) throw taken();
  if (existing.errorMessage === LOADING && existing.updatedAt > Date.now() - LOAD_CLAIM_MS) throw busy();
  const claimedAt = Math.max(Date.now(), existing.updatedAt + 1);
  const [claimed] = await db
    .update(sqlDatabaseTables)
    .set({ status: "failed", errorMessage: LOADING, updatedAt: claimedAt })
    .where(and(eq(sqlDatabaseTables.id, existing.id), eq(sqlDatabaseTables.updatedAt, existing.updatedAt)))
    .returning({ id: sqlDatabaseTables.id });
  if (!claimed) throw busy();
  return { id: existing.id, claimedAt, created: false };
}

/**
 * After a failed load, while the claim is still this request's (`ours`): a table it created goes, record and rows
 * (they are useless without each other); a replaced one's record says it failed (its rows may be part of the
 * file). A claim lost meanwhile (the table deleted) is left to whoever holds the name now.
 */
async function releaseClaim(
  db: Db,
  stub: ReturnType<typeof managedDatabase>,
  load: { sqlDatabaseId: string; name: string; created: boolean; ours: SQL | undefined },
  err: unknown,
) {
  const log = (what: string) => (failed: unknown) =>
    logError(what, { sqlDatabaseId: load.sqlDatabaseId, table: load.name, error: String(failed), cause: String(err) });
  if (load.created) {
    const released = await db
      .delete(sqlDatabaseTables)
      .where(load.ours)
      .returning({ id: sqlDatabaseTables.id })
      .catch(log("managed table's record left loading (not deleted)"));
    if (released?.length)
      await stub.dropTable(load.name).catch(log("managed table's rows left without their record (not dropped)"));
    return;
  }
  await db
    .update(sqlDatabaseTables)
    .set({ status: "failed", errorMessage: NOT_LOADED, updatedAt: Date.now() })
    .where(load.ours)
    .catch(log("replaced managed table's record left loading"));
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
