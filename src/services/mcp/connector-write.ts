import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import { and, eq } from "drizzle-orm";
import { connectors } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { checkHeaders, connectorUrl, getRegistryEntry, type ConnectorRow, type RegistryRow } from "./connectors";
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
 * Fields left out keep `current`'s values.
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
  const changedEntry = !!current && entry.id !== current.mcpRegistryId;
  const variables =
    body.urlVariables !== undefined ? (body.urlVariables ?? {}) : changedEntry ? {} : (current?.urlVariables ?? {});
  const values: Partial<typeof connectors.$inferInsert> = {
    mcpRegistryId: entry.id,
    urlVariables: variables,
    serverUrl: connectorUrl(env, entry, variables),
  };
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

/**
 * Writes the fields a PUT or PATCH gives. Members' credentials and the stored authHeaders stay while the server does
 * (credentialsStay); pointed at another server, the connector sends neither: its members' credentials are deleted in
 * the same batch, and its authHeaders unless the body gives new ones.
 */
export async function updateConnector(env: Bindings, db: Db, current: ConnectorRow, body: ConnectorInput) {
  const { values, entry } = await connectorColumns(env, db, body, current);
  const moved = !credentialsStay(current.serverUrl, values.serverUrl);
  if (moved && body.authHeaders === undefined) values.authHeadersSealed = null;
  const update = db
    .update(connectors)
    .set({ ...values, updatedAt: Date.now() })
    .where(and(eq(connectors.id, current.id), eq(connectors.organizationId, current.organizationId)))
    .returning();
  const [[connector]] = moved
    ? await db.batch([update, deleteCredentialsFor(db, { connectorId: current.id })])
    : [await update];
  return connectorRecord({ connector, entry });
}

/** Deletes a connector; its members' credentials go with it (foreign keys' cascade). */
export async function deleteConnector(db: Db, connector: ConnectorRow) {
  await db
    .delete(connectors)
    .where(and(eq(connectors.id, connector.id), eq(connectors.organizationId, connector.organizationId)));
}
