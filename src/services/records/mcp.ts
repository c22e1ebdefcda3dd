import { ms } from "../../lib/time";
import type { UrlVariable } from "../../db/schema";
import type { ConnectorRow, RegistryRow } from "../mcp/connectors";

/** An entry of the MCP registry (the catalogue shipped with the service). */
export interface RegistryEntryRecord {
  id: string;
  slug: string;
  name: string;
  description: string;
  icon: string | null;
  serverUrlTemplate: string;
  urlVariables: UrlVariable[];
  authKind: RegistryRow["authKind"];
  authHint: string;
  documentationUrl: string | null;
}

export const registryEntryRecord = (r: RegistryRow): RegistryEntryRecord => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  description: r.description,
  icon: r.icon,
  serverUrlTemplate: r.serverUrlTemplate,
  urlVariables: r.urlVariables,
  authKind: r.authKind,
  authHint: r.authHint,
  documentationUrl: r.documentationUrl,
});

/** A connector: never its headers, only whether they are set. */
export interface ConnectorRecord {
  id: string;
  mcpRegistryId: string;
  mcpRegistry: { id: string; slug: string; name: string; icon: string | null; authKind: RegistryRow["authKind"] };
  displayName: string;
  description: string;
  urlVariables: Record<string, string>;
  serverUrl: string;
  hasAuthHeaders: boolean;
  isEnabled: boolean;
  organization: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export const connectorRecord = ({
  connector: c,
  entry,
}: {
  connector: ConnectorRow;
  entry: RegistryRow;
}): ConnectorRecord => ({
  id: c.id,
  mcpRegistryId: c.mcpRegistryId,
  mcpRegistry: { id: entry.id, slug: entry.slug, name: entry.name, icon: entry.icon, authKind: entry.authKind },
  displayName: c.displayName,
  description: c.description,
  urlVariables: c.urlVariables ?? {},
  serverUrl: c.serverUrl,
  hasAuthHeaders: !!c.authHeadersSealed,
  isEnabled: c.isEnabled,
  organization: c.organizationId,
  createdBy: c.createdById,
  createdAt: ms(c.createdAt)!,
  updatedAt: ms(c.updatedAt)!,
});

/** A member holding a personal credential for a connector or MCP tool (never the credential). */
export interface AuthorizedMemberRecord {
  memberId: string;
  user: { id: string; name: string; email: string };
  createdAt: string;
  updatedAt: string;
}

export const authorizedMemberRecord = (r: {
  memberId: string;
  userId: string;
  name: string;
  email: string;
  createdAt: number;
  updatedAt: number;
}): AuthorizedMemberRecord => ({
  memberId: r.memberId,
  user: { id: r.userId, name: r.name, email: r.email },
  createdAt: ms(r.createdAt)!,
  updatedAt: ms(r.updatedAt)!,
});
