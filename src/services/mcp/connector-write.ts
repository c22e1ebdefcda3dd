import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import { and, eq, isNull } from "drizzle-orm";
import { connectors } from "../../db/schema";
import { conflict, fieldError } from "../../lib/errors";
import {
  checkHeaders,
  connectorUrl,
  getConnector,
  getRegistryEntry,
  type ConnectorRow,
  type RegistryRow,
} from "./connectors";
import { type ConnectorPatch, connectorRecord } from "../records/connectors";
import { credentialsStay } from "../../lib/redirects";
import { deleteCredentialsFor, sealHeaders } from "./credentials";

/**
 * A create, PUT or PATCH body after validation; absent fields keep their value. The PATCH body is the create body
 * made partial, so its output type covers all three.
 */
export type ConnectorInput = z.output<typeof ConnectorPatch>;

/**
 * Column values of a create or update: the registry entry (400 when unknown), its URL filled and
 * checked, names defaulting to the entry's, headers checked and sealed (503 without ENCRYPTION_KEY).
 * An update writes only what its body gives: the server's columns (registry entry, urlVariables, serverUrl) only when
 * it names the entry or its variables, so one that only renames or disables writes back nothing it read.
 */
export async function connectorColumns(
  env: Bindings,
  db: Db,
  body: ConnectorInput,
  current?: ConnectorRow,
): Promise<{ values: Partial<typeof connectors.$inferInsert>; entry: RegistryRow }> {
  const entryId = body.mcpRegistryId ?? current?.mcpRegistryId;
  const entry = entryId ? await getRegistryEntry(db, entryId) : null;
  if (!entry) throw fieldError("mcpRegistryId", "Not an entry of the MCP registry.");
  const values: Partial<typeof connectors.$inferInsert> = {};
  if (!current || body.mcpRegistryId !== undefined || body.urlVariables !== undefined) {
    const changedEntry = !!current && entry.id !== current.mcpRegistryId;
    const variables =
      body.urlVariables !== undefined ? (body.urlVariables ?? {}) : changedEntry ? {} : (current?.urlVariables ?? {});
    values.mcpRegistryId = entry.id;
    values.urlVariables = variables;
    values.serverUrl = connectorUrl(env, entry, variables);
  }
  if (body.displayName !== undefined || !current) values.displayName = body.displayName?.trim() || entry.name;
  if (body.description !== undefined || !current) values.description = body.description ?? entry.description;
  if (body.isEnabled !== undefined) values.isEnabled = body.isEnabled;
  if (body.authHeaders !== undefined) {
    checkHeaders("authHeaders", body.authHeaders);
    values.authHeadersSealed =
      body.authHeaders && Object.keys(body.authHeaders).length
        ? await sealHeaders(body.authHeaders as Record<string, string>, env)
        : null;
  }
  return { values, entry };
}

/** A new connector of the organization, created by `userId`. */
export async function createConnector(
  env: Bindings,
  db: Db,
  organizationId: string,
  userId: string,
  body: ConnectorInput,
) {
  const { values, entry } = await connectorColumns(env, db, body);
  const [connector] = await db
    .insert(connectors)
    .values({ ...values, organizationId, createdById: userId } as typeof connectors.$inferInsert)
    .returning();
  return connectorRecord({ connector, entry });
}

/** Reads and writes of a change that keeps finding the connector changed under it, before it answers 409. */
const TRIES = 3;

/**
 * Writes the fields a PUT or PATCH gives. Members' credentials and the stored authHeaders stay while the server does
 * (credentialsStay); pointed at another server, the connector sends neither: its members' credentials are deleted in
 * the same batch, and its authHeaders unless the body gives new ones. The write applies only while the connector's
 * server and headers are as read (asRead): a change resolved against another server (a PATCH of isEnabled, when the
 * server's columns were written back whole) would otherwise pair a move's new headers with the old server. One that
 * finds it changed reads again (404 once it is deleted); the batch's credentials delete has run then (dropping them is
 * the safe side, as for tools).
 */
export async function updateConnector(env: Bindings, db: Db, current: ConnectorRow, body: ConnectorInput) {
  let read = current;
  for (let tries = 0; tries < TRIES; tries++) {
    if (tries) read = (await getConnector(db, current.organizationId, current.id)).connector;
    const { values, entry } = await connectorColumns(env, db, body, read);
    const moved = values.serverUrl !== undefined && !credentialsStay(read.serverUrl, values.serverUrl);
    if (moved && body.authHeaders === undefined) values.authHeadersSealed = null;
    const update = db
      .update(connectors)
      .set({ ...values, updatedAt: Date.now() })
      .where(and(eq(connectors.id, read.id), eq(connectors.organizationId, read.organizationId), ...asRead(read)))
      .returning();
    const [[connector]] = moved
      ? await db.batch([update, deleteCredentialsFor(db, { connectorId: read.id })])
      : [await update];
    if (connector) return connectorRecord({ connector, entry });
  }
  throw conflict("The connector is being changed by other requests at the same time; read it again and retry.");
}

/** The columns that say where the connector sends which headers, as they were read. */
const asRead = (c: ConnectorRow) => [
  eq(connectors.serverUrl, c.serverUrl),
  eq(connectors.mcpRegistryId, c.mcpRegistryId),
  c.authHeadersSealed === null
    ? isNull(connectors.authHeadersSealed)
    : eq(connectors.authHeadersSealed, c.authHeadersSealed),
];

/** Deletes a connector; its members' credentials go with it (foreign keys' cascade). */
export async function deleteConnector(db: Db, connector: ConnectorRow) {
  await db
    .delete(connectors)
    .where(and(eq(connectors.id, connector.id), eq(connectors.organizationId, connector.organizationId)));
}
