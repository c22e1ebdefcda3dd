import { and, eq, exists, inArray, isNotNull, isNull, lte, ne, not, or } from "drizzle-orm";
import { selectedRow } from "../../db/insert-select";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import {
  chatbots,
  sqlDatabaseChatbots,
  sqlDatabases,
  sqlDatabaseTables,
  type SqlColumn,
  type SqlDatabaseType,
} from "../../db/schema";
import { decryptSecret } from "../../lib/crypto";
import { ApiError, isD1Error } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { type OrgAccess, requirePermission } from "../access";
import { checkGroupAssignment } from "../groups";
import { linkStatements, linksOf, requireKnownRows } from "../links";
import { chunk, inList } from "../../lib/sql";
import { getSqlDatabase, linkableChatbotsCondition, type SqlDatabaseRow, sqlDatabaseGroupLinks } from "./access";
import { discoverPostgres } from "./postgres";
import { logError, logWarn } from "../../lib/log";

/** Types stored and listed, but without a driver that runs on Workers yet. */
export const UNSUPPORTED_TYPES: SqlDatabaseType[] = ["mysql", "oracle", "mssql"];
export const notSupportedMessage = (type: string) =>
  `${type} databases are not supported in this deployment yet; only postgresql and managed databases can be queried.`;

/** `groups` of a SQL database body (see checkGroupAssignment). */
export const checkSqlGroups = (
  db: Db,
  access: OrgAccess,
  wanted: string[] | undefined,
  creating: boolean,
  current: string[] = [],
) => checkGroupAssignment(db, access, wanted, creating, current, "a SQL database");

/** What a create or update changes in a SQL database's assistant links. */
export interface SqlChatbotLinks {
  add: string[];
  remove: string[];
}

/**
 * `chatbots: [{id}]`: assistants the caller may link (linkableChatbotsCondition), else 400 naming them. The list
 * replaces the links to those assistants only (`sqlDatabaseId`: the database updated); adding or removing one changes
 * what the assistant answers with, so it needs `chatbot.manage`, as for knowledge bases. Sending back what the record
 * lists changes nothing and needs neither.
 */
export async function checkSqlChatbots(
  db: Db,
  access: OrgAccess,
  userId: string,
  wanted: string[] | undefined,
  sqlDatabaseId?: string,
): Promise<SqlChatbotLinks | undefined> {
  if (wanted === undefined) return undefined;
  const ids = [...new Set(wanted)];
  const linkable = linkableChatbotsCondition(access, userId);
  await requireKnownRows(db, chatbots, ids, linkable, "chatbots", "Not assistants of this organization");
  const current = sqlDatabaseId
    ? (
        await db
          .select({ id: chatbots.id })
          .from(sqlDatabaseChatbots)
          .innerJoin(chatbots, eq(chatbots.id, sqlDatabaseChatbots.chatbotId))
          .where(and(eq(sqlDatabaseChatbots.sqlDatabaseId, sqlDatabaseId), linkable))
      ).map((b) => b.id)
    : [];
  const links = { add: ids.filter((id) => !current.includes(id)), remove: current.filter((id) => !ids.includes(id)) };
  if (links.add.length + links.remove.length) requirePermission(access, "chatbot.manage");
  return links;
}

const chatbotLinks = linksOf(sqlDatabaseChatbots, "sqlDatabaseId", "chatbotId");

/** Statements setting (or, with `replaceGroups`, replacing) the groups given, and adding and removing assistants. */
export const sqlLinkStatements = (
  db: Db,
  id: string,
  links: { groupIds?: string[]; chatbots?: SqlChatbotLinks },
  replaceGroups: boolean,
): BatchItem<"sqlite">[] => [
  ...linkStatements(db, sqlDatabaseGroupLinks, id, links.groupIds, replaceGroups),
  ...chunk(links.chatbots?.remove ?? [], 40).map((part) =>
    db
      .delete(sqlDatabaseChatbots)
      .where(and(eq(sqlDatabaseChatbots.sqlDatabaseId, id), inArray(sqlDatabaseChatbots.chatbotId, part))),
  ),
  ...linkStatements(db, chatbotLinks, id, links.chatbots?.add, false),
];

const describeError = (err: unknown) => {
  const e = err as { message?: string; code?: string };
  const text = String(e?.message ?? err)
    .replace(/\s+/g, " ")
    .trim();
  return (e?.code && !text.includes(e.code) ? `${e.code}: ${text}` : text).slice(0, 500) || "The connection failed.";
};

/** How long a connection check may take in all (the driver's own connect timeout is 10 s). */
const DISCOVERY_DEADLINE_MS = 15_000;

/**
 * `work`, or a failure once `ms` have passed: a connection that never settles (a socket left
 * hanging by the network) still ends the check with a failed status, from a timer of this request.
 */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The database did not answer within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The check-connection endpoint: an external database of the caller's (`getSqlDatabase`) connected now and its tables
 * rediscovered (refreshSqlDatabase), then read again; a managed one is always connected, one of the types this
 * deployment does not support is 400. Returns the database as it is now.
 */
export async function checkSqlDatabase(env: Bindings, db: Db, access: OrgAccess, id: string) {
  const row = await getSqlDatabase(db, access, id);
  if (UNSUPPORTED_TYPES.includes(row.databaseType))
    throw new ApiError(400, "not_supported", notSupportedMessage(row.databaseType));
  if (row.databaseType === "managed") return row;
  await refreshSqlDatabase(env, db, row.id);
  return getSqlDatabase(db, access, row.id);
}

/**
 * Connects to an external database, discovers its tables (limited to `includeTables`) and stores
 * them with `status` connected, or `failed` and the reason (CONTRACT section 15). Throws only an error of our own
 * code met while storing the failure.
 */
export async function refreshSqlDatabase(env: Bindings, db: Db, id: string): Promise<void> {
  // The check's start, stored as `checkedAt`: a check stores its outcome only when no check that started after it
  // (after a change of settings, say) has stored one, so a slow check never overwrites a newer one's tables.
  const now = Date.now();
  const [row] = await db.select().from(sqlDatabases).where(eq(sqlDatabases.id, id));
  if (!row || row.databaseType === "managed") return;
  const newest = and(eq(sqlDatabases.id, id), or(isNull(sqlDatabases.checkedAt), lte(sqlDatabases.checkedAt, now)));
  const fail = (message: string) =>
    db
      .update(sqlDatabases)
      .set({ status: "failed", errorMessage: message, checkedAt: now, updatedAt: now })
      .where(newest);
  try {
    if (UNSUPPORTED_TYPES.includes(row.databaseType)) return void (await fail(notSupportedMessage(row.databaseType)));
    if (!row.databaseUrlSealed) return void (await fail("No databaseUrl is set."));
    const url = await decryptSecret(row.databaseUrlSealed, env.ENCRYPTION_KEY);
    const discovered = await withDeadline(discoverPostgres(env, url, row.organizationId), DISCOVERY_DEADLINE_MS);
    const include = row.includeTables?.tables?.length
      ? new Set(row.includeTables.tables.map((t) => t.toLowerCase()))
      : null;
    const kept = discovered.filter((t) => !include || include.has(t.tableName.toLowerCase()));
    const stored = await db
      .select({ tableName: sqlDatabaseTables.tableName, columns: sqlDatabaseTables.columns })
      .from(sqlDatabaseTables)
      .where(eq(sqlDatabaseTables.sqlDatabaseId, id));
    await db.batch([
      db
        .update(sqlDatabases)
        .set({ status: "connected", errorMessage: null, checkedAt: now, updatedAt: now })
        .where(newest),
      ...replaceTableStatements(db, id, kept, new Map(stored.map((t) => [t.tableName, t.columns])), now),
    ]);
  } catch (err) {
    // The check's failure is the database's status, and logged (a fault of ours looks like the database's otherwise);
    // should D1 refuse that too, the record stays pending.
    logWarn("external database check failed", { sqlDatabaseId: id, error: String(err) });
    await fail(describeError(err)).catch((notStored) => {
      if (!isD1Error(notStored)) throw notStored;
      logError("external database's failed check not stored", {
        sqlDatabaseId: id,
        error: String(err),
        storing: String(notStored),
      });
    });
  }
}

type DiscoveredTable = Awaited<ReturnType<typeof discoverPostgres>>[number];

/**
 * Statements making the stored tables of an external database the discovered ones (a table still there keeps its row:
 * its id and description; a column still there keeps its own, see `columnsOf`). They run after the check's status in
 * its batch and write only while the record holds that check (`checkedAt` its start), so a check a newer one has
 * overtaken writes nothing. A table whose columns are as stored is not written (its `updatedAt` stays): the update
 * compares with the row as it is then, not as `stored` read it, so a check stored in between is still replaced.
 */
function replaceTableStatements(
  db: Db,
  id: string,
  tables: DiscoveredTable[],
  stored: Map<string, SqlColumn[]>,
  now: number,
): BatchItem<"sqlite">[] {
  const thisCheck = and(eq(sqlDatabases.id, id), eq(sqlDatabases.checkedAt, now));
  const names = tables.map((t) => t.tableName);
  return [
    db.delete(sqlDatabaseTables).where(
      and(
        eq(sqlDatabaseTables.sqlDatabaseId, id),
        // All the names in one parameter: D1 binds at most 100, and a cut list deleted the tables past it.
        names.length ? not(inList(sqlDatabaseTables.tableName, names)) : undefined,
        exists(db.select({ id: sqlDatabases.id }).from(sqlDatabases).where(thisCheck)),
      ),
    ),
    ...tables.map((t) => {
      const columns = columnsOf(t.columns, stored.get(t.tableName) ?? [], now);
      const row: typeof sqlDatabaseTables.$inferSelect = {
        id: uuidv7(),
        sqlDatabaseId: id,
        tableName: t.tableName,
        description: "",
        status: "ready",
        errorMessage: null,
        sourceFileId: null,
        sourceFileName: null,
        isFromKnowledgeBase: false,
        rowCount: null,
        columns,
        createdAt: now,
        updatedAt: now,
      };
      return db
        .insert(sqlDatabaseTables)
        .select(db.select(selectedRow(sqlDatabaseTables, row)).from(sqlDatabases).where(thisCheck))
        .onConflictDoUpdate({
          target: [sqlDatabaseTables.sqlDatabaseId, sqlDatabaseTables.tableName],
          set: { columns, status: "ready", errorMessage: null, updatedAt: now },
          setWhere: or(
            ne(sqlDatabaseTables.columns, columns),
            ne(sqlDatabaseTables.status, "ready"),
            isNotNull(sqlDatabaseTables.errorMessage),
          ),
        });
    }),
  ];
}

/**
 * A table's discovered columns, each matched by name with a stored one: kept as stored (its id, what was written on it,
 * its times) when the database describes it as before, else the stored one with the database's description and
 * `updatedAt` now; a new name is a new column. Every check gave every column a new id.
 */
function columnsOf(discovered: DiscoveredTable["columns"], stored: SqlColumn[], now: number): SqlColumn[] {
  const byName = new Map(stored.map((c) => [c.columnName, c]));
  return discovered.map((c) => {
    const before = byName.get(c.columnName);
    if (!before) return { id: uuidv7(), description: "", createdAt: now, updatedAt: now, ...c };
    const same =
      before.columnType === c.columnType &&
      before.isNullable === c.isNullable &&
      before.isPrimaryKey === c.isPrimaryKey;
    return same ? before : { ...before, ...c, updatedAt: now };
  });
}

/** The managed database's object. */
export const managedDatabase = (env: Bindings, id: string) =>
  env.MANAGED_DATABASE.get(env.MANAGED_DATABASE.idFromName(id));

/** Deletes the database's row (cascading to tables and links) and a managed database's data. */
export async function deleteSqlDatabase(env: Bindings, db: Db, row: SqlDatabaseRow) {
  await db.delete(sqlDatabases).where(eq(sqlDatabases.id, row.id));
  if (row.databaseType === "managed") await managedDatabase(env, row.id).destroy();
}
