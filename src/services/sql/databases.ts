import type { z } from "@hono/zod-openapi";
import { and, eq, ne, or } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { sqlDatabases, type SqlDatabaseType } from "../../db/schema";
import { mapPage, type Page, type PageWindow, newestFirstPage } from "../../db/paginate";
import { encryptSecret } from "../../lib/crypto";
import { conflict, fieldError } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { contains } from "../../lib/sql";
import type { OrgAccess } from "../access";
import {
  sqlDatabaseListRecord,
  sqlDatabaseRecord,
  type SqlDatabaseListRecord,
  type SqlDatabasePatch,
  type SqlDatabaseRecord,
  type SqlDatabaseWrite,
} from "../records/sql-databases";
import { groupIdsOf, referencedIds, writeWithLinks } from "../links";
import { sqlDatabaseGroupLinks, visibleSqlDatabasesCondition, type SqlDatabaseRow } from "./access";
import { connectionProblem, maskConnectionString } from "./connection";
import { sqlDatabaseView, sqlDatabaseViews } from "./views";
import {
  checkSqlChatbots,
  checkSqlGroups,
  notSupportedMessage,
  refreshSqlDatabase,
  sqlLinkStatements,
  UNSUPPORTED_TYPES,
} from "./write";
import { definedFields } from "../../lib/patch";

export interface SqlDatabaseFilter {
  databaseType?: SqlDatabaseType;
  isActive?: "true" | "false";
  /** true: external databases; false: managed ones. */
  isExternal?: "true" | "false";
  /** Name or description contains. */
  query?: string;
}

/** The SQL databases the caller sees, newest first. */
export async function listSqlDatabases(
  db: Db,
  access: OrgAccess,
  userId: string,
  q: SqlDatabaseFilter,
  window: PageWindow,
): Promise<Page<SqlDatabaseListRecord>> {
  const where = and(
    visibleSqlDatabasesCondition(access),
    q.databaseType ? eq(sqlDatabases.databaseType, q.databaseType) : undefined,
    q.isActive ? eq(sqlDatabases.isActive, q.isActive === "true") : undefined,
    q.isExternal
      ? q.isExternal === "true"
        ? ne(sqlDatabases.databaseType, "managed")
        : eq(sqlDatabases.databaseType, "managed")
      : undefined,
    q.query ? or(contains(sqlDatabases.name, q.query), contains(sqlDatabases.description, q.query)) : undefined,
  );
  const page = await newestFirstPage(db, sqlDatabases, where, window);
  return mapPage(
    { count: page.count, items: await sqlDatabaseViews(db, access, userId, page.items) },
    sqlDatabaseListRecord,
  );
}

/** A SQL database's settings as written (PUT, PATCH): the body once parsed; fields left out keep their value. */
export type SqlDatabaseInput = z.output<typeof SqlDatabasePatch>;
/** A new SQL database's settings: the POST body once parsed (name and type required). */
export type SqlDatabaseCreateInput = z.output<typeof SqlDatabaseWrite>;

/** Who writes, and where the background connection check runs. */
export interface SqlDatabaseWriter {
  access: OrgAccess;
  userId: string;
  waitUntil(promise: Promise<unknown>): void;
}

/** The 409 naming the database whose name is taken. */
const nameTaken = (name: string | undefined) => conflict(`A SQL database named "${name}" already exists.`);

/** A connection string as stored: sealed, and masked for display. */
interface StoredConnection {
  databaseUrlSealed: string;
  databaseUrlMasked: string;
}

/**
 * Checks what a create or update writes about the connection of a database of `type`: a managed
 * database has no connection string and offers all of its tables; the others need one (`missing`:
 * the body leaves none) that this deployment may reach (connectionProblem). `url` is the connection
 * string to store, if any; it comes back sealed and masked.
 */
async function checkConnection(
  env: Bindings,
  organizationId: string,
  type: SqlDatabaseType,
  write: { url: string | undefined; missing: boolean; includeTables: SqlDatabaseInput["includeTables"] },
): Promise<StoredConnection | undefined> {
  const managed = type === "managed";
  if (managed && write.url) throw fieldError("databaseUrl", "A managed database has no connection string.");
  if (managed && write.includeTables?.tables.length)
    throw fieldError("includeTables", "A managed database offers all of its tables.");
  if (!managed && write.missing) throw fieldError("databaseUrl", `Required for ${type} databases.`);
  if (!write.url) return undefined;
  const problem = connectionProblem(env, type, write.url, organizationId);
  if (problem) throw fieldError("databaseUrl", problem);
  return {
    databaseUrlSealed: await encryptSecret(write.url, env.ENCRYPTION_KEY),
    databaseUrlMasked: maskConnectionString(write.url),
  };
}

/**
 * Stores a new SQL database without reaching it: an external one is checked in the background
 * (`status` pending), an unsupported type is stored failed.
 */
export async function createSqlDatabase(
  env: Bindings,
  db: Db,
  writer: SqlDatabaseWriter,
  body: SqlDatabaseCreateInput,
): Promise<SqlDatabaseRecord> {
  const { access } = writer;
  const managed = body.databaseType === "managed";
  const connection = await checkConnection(env, access.organizationId, body.databaseType, {
    url: body.databaseUrl || undefined,
    missing: !body.databaseUrl,
    includeTables: body.includeTables,
  });
  const groupIds = await checkSqlGroups(db, access, referencedIds(body.groups), true);
  const chatbots = await checkSqlChatbots(db, access, writer.userId, referencedIds(body.chatbots));
  const unsupported = UNSUPPORTED_TYPES.includes(body.databaseType);
  const id = uuidv7();
  const [row] = await writeWithLinks(
    db,
    db
      .insert(sqlDatabases)
      .values({
        id,
        organizationId: access.organizationId,
        createdById: writer.userId,
        name: body.name,
        description: body.description ?? "",
        databaseType: body.databaseType,
        databaseUrlSealed: connection?.databaseUrlSealed ?? null,
        databaseUrlMasked: connection?.databaseUrlMasked ?? null,
        includeTables: body.includeTables ?? null,
        isActive: body.isActive ?? true,
        status: managed ? "connected" : unsupported ? "failed" : "pending",
        errorMessage: unsupported ? notSupportedMessage(body.databaseType) : null,
      })
      .returning(),
    sqlLinkStatements(db, id, { groupIds, chatbots }, false),
    () => nameTaken(body.name),
  );
  if (row.status === "pending") writer.waitUntil(refreshSqlDatabase(env, db, id));
  return sqlDatabaseRecord(await sqlDatabaseView(db, access, writer.userId, row));
}

/**
 * Updates `current`'s settings (its type cannot change; a `databaseUrl` sent back masked keeps the
 * stored one). A new connection string or `includeTables` checks the connection again in the background.
 */
export async function updateSqlDatabase(
  env: Bindings,
  db: Db,
  writer: SqlDatabaseWriter,
  current: SqlDatabaseRow,
  body: SqlDatabaseInput,
): Promise<SqlDatabaseRecord> {
  const { access } = writer;
  if (body.databaseType !== undefined && body.databaseType !== current.databaseType)
    throw fieldError("databaseType", "Cannot be changed after creation.");
  const managed = current.databaseType === "managed";
  // Sent back as read: masked by this version or, stored before it, by an earlier one.
  const sentBack = [
    current.databaseUrlMasked,
    current.databaseUrlMasked && maskConnectionString(current.databaseUrlMasked),
  ];
  const url = body.databaseUrl && !sentBack.includes(body.databaseUrl) ? body.databaseUrl : undefined;
  const connection = await checkConnection(env, current.organizationId, current.databaseType, {
    url,
    missing: body.databaseUrl === null,
    includeTables: body.includeTables,
  });
  const groupIds =
    body.groups === undefined
      ? undefined
      : await checkSqlGroups(
          db,
          access,
          referencedIds(body.groups),
          false,
          await groupIdsOf(db, sqlDatabaseGroupLinks, current.id),
        );
  const chatbots = await checkSqlChatbots(db, access, writer.userId, referencedIds(body.chatbots), current.id);
  const recheck =
    !managed &&
    !UNSUPPORTED_TYPES.includes(current.databaseType) &&
    (url !== undefined || body.includeTables !== undefined);
  const values = definedFields({
    name: body.name,
    description: body.description === null ? "" : body.description,
    isActive: body.isActive,
    includeTables: body.includeTables,
    ...connection,
    ...(recheck ? { status: "pending" as const, errorMessage: null } : {}),
    ...(UNSUPPORTED_TYPES.includes(current.databaseType)
      ? { errorMessage: notSupportedMessage(current.databaseType) }
      : {}),
  });
  const [row] = await writeWithLinks(
    db,
    db
      .update(sqlDatabases)
      .set({ ...values, updatedAt: Date.now() })
      .where(eq(sqlDatabases.id, current.id))
      .returning(),
    sqlLinkStatements(db, current.id, { groupIds, chatbots }, true),
    () => nameTaken(body.name),
  );
  if (recheck) writer.waitUntil(refreshSqlDatabase(env, db, current.id));
  return sqlDatabaseRecord(await sqlDatabaseView(db, access, writer.userId, row));
}
