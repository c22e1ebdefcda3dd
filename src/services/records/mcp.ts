import { ms } from "../../lib/time";
import type { UrlVariable } from "../../db/schema";
import type { RegistryRow } from "../mcp/connectors";

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
