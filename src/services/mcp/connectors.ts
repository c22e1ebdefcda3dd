import { and, asc, count, desc, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { connectors, mcpRegistry, type UrlVariable } from "../../db/schema";
import { type PageWindow, mapPage, paginate } from "../../db/paginate";
import { fieldError } from "../../lib/errors";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { connectorRecord } from "../records/connectors";
import { headerProblem } from "./client";
import { findById, rowById } from "../../db/find";

export type ConnectorRow = typeof connectors.$inferSelect;
export type RegistryRow = typeof mcpRegistry.$inferSelect;

export const listRegistry = (db: Db) =>
  db.select().from(mcpRegistry).orderBy(asc(mcpRegistry.sortOrder), asc(mcpRegistry.name));

export async function getRegistryEntry(db: Db, id: string): Promise<RegistryRow | null> {
  return rowById(id, () => db.select().from(mcpRegistry).where(eq(mcpRegistry.id, id)));
}

/** The organization's connector with its registry entry; 404 for another organization's. */
export async function getConnector(
  db: Db,
  organizationId: string,
  id: string,
): Promise<{ connector: ConnectorRow; entry: RegistryRow }> {
  return findById(id, "Connector not found.", () =>
    db
      .select({ connector: connectors, entry: mcpRegistry })
      .from(connectors)
      .innerJoin(mcpRegistry, eq(mcpRegistry.id, connectors.mcpRegistryId))
      .where(and(eq(connectors.id, id), eq(connectors.organizationId, organizationId))),
  );
}

export const listConnectors = (db: Db, organizationId: string) =>
  db
    .select({ connector: connectors, entry: mcpRegistry })
    .from(connectors)
    .innerJoin(mcpRegistry, eq(mcpRegistry.id, connectors.mcpRegistryId))
    .where(eq(connectors.organizationId, organizationId))
    .orderBy(desc(connectors.createdAt), desc(connectors.id));

/** A page of the organization's connectors, newest first; `isEnabled` filters when given. */
export async function listConnectorPage(
  db: Db,
  organizationId: string,
  isEnabled: boolean | undefined,
  window: PageWindow,
) {
  const where = and(
    eq(connectors.organizationId, organizationId),
    isEnabled === undefined ? undefined : eq(connectors.isEnabled, isEnabled),
  );
  const page = await paginate(window, db.select({ n: count() }).from(connectors).where(where), ({ limit, offset }) =>
    db
      .select({ connector: connectors, entry: mcpRegistry })
      .from(connectors)
      .innerJoin(mcpRegistry, eq(mcpRegistry.id, connectors.mcpRegistryId))
      .where(where)
      .orderBy(desc(connectors.createdAt), desc(connectors.id))
      .limit(limit)
      .offset(offset),
  );
  return mapPage(page, connectorRecord);
}

/**
 * The server URL of a connector: the entry's template with each `{name}` replaced by the
 * connector's value (URL-encoded; a template that is one variable takes a whole URL), checked by
 * the outbound address guard. 400 naming `urlVariables` or the problem.
 */
export function connectorUrl(
  env: Bindings,
  entry: Pick<RegistryRow, "serverUrlTemplate" | "urlVariables">,
  values: Record<string, string> | null | undefined,
): string {
  const declared = new Set((entry.urlVariables as UrlVariable[]).map((v) => v.name));
  const given = values ?? {};
  for (const key of Object.keys(given))
    if (!declared.has(key))
      throw fieldError("urlVariables", `This registry entry has no variable "${key.slice(0, 60)}".`);
  const missing = [...declared].filter((name) => !given[name]?.trim());
  if (missing.length) throw fieldError("urlVariables", `Required: ${missing.join(", ")}.`);
  const whole = /^\{(\w+)\}$/.exec(entry.serverUrlTemplate);
  const url = whole
    ? given[whole[1]].trim()
    : entry.serverUrlTemplate.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(given[name].trim()));
  const problem = webhookUrlProblem(url, outboundAllowedHosts(env));
  if (problem) throw fieldError(whole ? `urlVariables.${whole[1]}` : "urlVariables", problem);
  return url;
}

/** 400 unless `headers` is an object of header names to one-line strings. */
export function checkHeaders(field: string, headers: unknown) {
  const problem = headerProblem(headers);
  if (problem) throw fieldError(field, problem);
}
