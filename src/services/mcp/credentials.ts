import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { connectors, mcpCredentials, members, tools, users } from "../../db/schema";
import { cannotOpen, decryptSecret, encryptSecret } from "../../lib/crypto";
import { isObject, ownValue } from "../../lib/json";
import { credentialsStay } from "../../lib/redirects";
import { inList } from "../../lib/sql";
import { uuidv7 } from "../../lib/ids";
import { selectedRow } from "../../db/insert-select";
import { conflict } from "../../lib/errors";
import { checkHeaders } from "./connectors";

export type Headers = Record<string, string>;

/** What a credential is for: an `mcp` tool or a connector. */
export type CredentialTarget =
  | { toolId: string; connectorId?: undefined }
  | { connectorId: string; toolId?: undefined };

export const sealHeaders = (headers: Headers, env: Bindings) =>
  encryptSecret(JSON.stringify(headers), env.ENCRYPTION_KEY);

/** A sealed value that cannot be opened (key changed) or is not JSON. */
const unreadable = (err: unknown) => cannotOpen(err) || err instanceof SyntaxError;

/** A sealed header object; null when it cannot be opened (key changed) or is not one. */
export async function openHeaders(sealed: string | null | undefined, env: Bindings): Promise<Headers | null> {
  if (!sealed || !env.ENCRYPTION_KEY) return null;
  try {
    const value = JSON.parse(await decryptSecret(sealed, env.ENCRYPTION_KEY));
    return value && typeof value === "object" && !Array.isArray(value) ? stringsOnly(value) : null;
  } catch (err) {
    if (!unreadable(err)) throw err;
    return null;
  }
}

const stringsOnly = (o: Record<string, unknown>): Headers =>
  Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string"));

const targetColumn = (t: CredentialTarget) => (t.toolId ? mcpCredentials.toolId : mcpCredentials.connectorId);
const targetId = (t: CredentialTarget) => (t.toolId ?? t.connectorId)!;

/** The organization's credentials for the target: all of its members', or one member's. */
const credentialsFor = (organizationId: string, target: CredentialTarget, memberId?: string) =>
  and(
    eq(mcpCredentials.organizationId, organizationId),
    memberId === undefined ? undefined : eq(mcpCredentials.memberId, memberId),
    eq(targetColumn(target), targetId(target)),
  );

/** A target as a credential's write read it, with the server URL it had then: the one the credential is given for. */
export type TargetAsRead = CredentialTarget & { serverUrl: string | null };

/** The row to insert, selected from the target's row while it is at the server it was read at (none otherwise). */
function whileAtServer(db: Db, row: typeof mcpCredentials.$inferSelect, t: TargetAsRead) {
  const fields = selectedRow(mcpCredentials, row);
  if (t.toolId)
    return db
      .select(fields)
      .from(tools)
      .where(and(eq(tools.id, t.toolId), t.serverUrl === null ? isNull(tools.mcpUrl) : eq(tools.mcpUrl, t.serverUrl)));
  return db
    .select(fields)
    .from(connectors)
    .where(and(eq(connectors.id, targetId(t)), eq(connectors.serverUrl, t.serverUrl ?? "")));
}

/**
 * The member's credential given for the target `read` finds (the connector or MCP tool of the path: 403 / 404 from it
 * first), its headers checked (400), stored by storeMemberCredential. When nothing was stored the target is read again:
 * 404 once it is gone, else 409, as it was pointed at another server meanwhile.
 */
export async function giveMemberCredential(
  db: Db,
  env: Bindings,
  organizationId: string,
  memberId: string,
  read: () => Promise<TargetAsRead>,
  headers: Headers,
) {
  const target = await read();
  checkHeaders("headers", headers);
  const row = await storeMemberCredential(db, env, organizationId, memberId, target, headers);
  if (row) return row;
  await read();
  throw conflict(
    "The connector or tool was pointed at another server while the credential was stored; nothing was stored.",
  );
}

/**
 * Stores (or replaces) the member's credential for the target. 503 without ENCRYPTION_KEY. Only while the target is
 * at the server it was read at (one statement, INSERT ... SELECT): the member gave the credential for that server, and
 * a change pointing the target at another meanwhile (whose batch deletes its members' credentials) would otherwise
 * leave this one to be sent there. Undefined when nothing was stored: the target moved or is gone.
 */
export async function storeMemberCredential(
  db: Db,
  env: Bindings,
  organizationId: string,
  memberId: string,
  target: TargetAsRead,
  headers: Headers,
) {
  const headersSealed = await sealHeaders(headers, env);
  const now = Date.now();
  const row = {
    id: uuidv7(),
    organizationId,
    memberId,
    toolId: target.toolId ?? null,
    connectorId: target.connectorId ?? null,
    headersSealed,
    createdAt: now,
    updatedAt: now,
  };
  const [stored] = await db
    .insert(mcpCredentials)
    .select(whileAtServer(db, row, target))
    .onConflictDoUpdate({
      target: [mcpCredentials.memberId, targetColumn(target)],
      set: { headersSealed, updatedAt: now },
    })
    .returning({ id: mcpCredentials.id, createdAt: mcpCredentials.createdAt, updatedAt: mcpCredentials.updatedAt });
  return stored as typeof stored | undefined;
}

/** Removes the member's credential for the target; whether there was one. */
export async function revokeMemberCredential(
  db: Db,
  organizationId: string,
  memberId: string,
  target: CredentialTarget,
): Promise<boolean> {
  const gone = await db
    .delete(mcpCredentials)
    .where(credentialsFor(organizationId, target, memberId))
    .returning({ id: mcpCredentials.id });
  return gone.length > 0;
}

/** The member's own credential headers for the target, or null. */
export async function memberCredentialHeaders(
  db: Db,
  env: Bindings,
  organizationId: string,
  memberId: string,
  target: CredentialTarget,
): Promise<Headers | null> {
  const [row] = await db
    .select({ sealed: mcpCredentials.headersSealed })
    .from(mcpCredentials)
    .where(credentialsFor(organizationId, target, memberId));
  return openHeaders(row?.sealed, env);
}

/**
 * Deletes every member's credential for the target (a global tool's in every organization): the statement, for the
 * batch that points the target at another server, where they were never meant to go.
 */
export const deleteCredentialsFor = (db: Db, target: CredentialTarget) =>
  db.delete(mcpCredentials).where(eq(targetColumn(target), targetId(target)));

/** Members holding a credential for the target, oldest first. */
export async function credentialHolders(db: Db, organizationId: string, target: CredentialTarget) {
  return db
    .select({
      memberId: members.id,
      userId: users.id,
      name: users.name,
      email: users.email,
      createdAt: mcpCredentials.createdAt,
      updatedAt: mcpCredentials.updatedAt,
    })
    .from(mcpCredentials)
    .innerJoin(members, eq(members.id, mcpCredentials.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(credentialsFor(organizationId, target))
    .orderBy(mcpCredentials.createdAt, sql`${mcpCredentials.id}`);
}

/** What a contact's `mcpCredentials` entry is for: `{toolId | connectorId | mcpUrl}` (and the spellings read too). */
function entryFor(e: Record<string, unknown>) {
  return {
    tool: e.toolId ?? e.tool_id ?? e.tool,
    connector: e.connectorId ?? e.connector_id ?? e.connector,
    url: e.mcpUrl ?? e.mcp_url ?? e.url ?? e.server,
  };
}

/** Where an entry records, by tool or connector id, the server each had when the entry was written. Internal. */
const GIVEN_FOR = "givenForUrls";

/**
 * A contact's `mcpCredentials` as stored: each entry naming a tool or connector records the server URL that one has
 * now (GIVEN_FOR), so contactCredential sends it there only while the tool or connector stays with that server
 * (credentialsStay), as members' credentials do. An id naming none of the organization's tools (global ones too) or
 * connectors records none: that entry is sent by id nowhere.
 */
export async function withServersGivenFor<T extends Record<string, unknown>>(
  db: Db,
  organizationId: string,
  list: T[] | null | undefined,
): Promise<T[] | null | undefined> {
  if (!list?.length) return list;
  const named = (key: "tool" | "connector") => [
    ...new Set(list.map((e) => entryFor(e)[key]).filter((v): v is string => typeof v === "string")),
  ];
  const [toolIds, connectorIds] = [named("tool"), named("connector")];
  const [toolRows, connectorRows] = await Promise.all([
    toolIds.length
      ? db
          .select({ id: tools.id, url: tools.mcpUrl })
          .from(tools)
          .where(
            and(inList(tools.id, toolIds), or(eq(tools.organizationId, organizationId), isNull(tools.organizationId))),
          )
      : [],
    connectorIds.length
      ? db
          .select({ id: connectors.id, url: connectors.serverUrl })
          .from(connectors)
          .where(and(inList(connectors.id, connectorIds), eq(connectors.organizationId, organizationId)))
      : [],
  ]);
  const urls = new Map<string, string | null>([...toolRows, ...connectorRows].map((r) => [r.id, r.url]));
  return list.map((entry) => {
    const { tool, connector } = entryFor(entry);
    const ids = [tool, connector].filter((v): v is string => typeof v === "string");
    if (!ids.length) return entry;
    return { ...entry, [GIVEN_FOR]: Object.fromEntries(ids.map((id) => [id, urls.get(id) ?? null])) };
  });
}

/**
 * A contact's credential for a source, from its sealed `mcpCredentials` list (entryFor). An entry found by the tool's
 * or connector's id goes only where its server stays (withServersGivenFor; entries stored without GIVEN_FOR, from
 * before it, go nowhere by id: which server they were given for is not known); one found by URL goes to that URL.
 */
export function contactCredential(
  list: unknown,
  source: { toolId?: string | null; connectorId?: string | null; url: string },
): Headers | null {
  if (!Array.isArray(list)) return null;
  for (const entry of list) {
    if (!isObject(entry)) continue;
    const headers = entry.headers;
    if (!isObject(headers)) continue;
    const { tool, connector, url } = entryFor(entry);
    const given = isObject(entry[GIVEN_FOR]) ? entry[GIVEN_FOR] : {};
    const stays = (id: string) => {
      const from = ownValue(given, id);
      return typeof from === "string" && credentialsStay(from, source.url);
    };
    const matches =
      (source.toolId && tool === source.toolId && stays(source.toolId)) ||
      (source.connectorId && connector === source.connectorId && stays(source.connectorId)) ||
      (typeof url === "string" && url === source.url);
    if (matches) return stringsOnly(headers);
  }
  return null;
}

/** A contact's sealed list, opened (empty when absent or unreadable). */
export async function openContactCredentials(sealed: string | null | undefined, env: Bindings): Promise<unknown[]> {
  if (!sealed || !env.ENCRYPTION_KEY) return [];
  try {
    const value = JSON.parse(await decryptSecret(sealed, env.ENCRYPTION_KEY));
    return Array.isArray(value) ? value : [];
  } catch (err) {
    if (!unreadable(err)) throw err;
    return [];
  }
}
