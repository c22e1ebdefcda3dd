import { ms } from "../../lib/time";
import type { ToolRow } from "../tools/access";
import type { ToolView } from "../tools/views";

type IdName = { id: string; name: string };

/** The tool record: the spec's tool fields plus id, organization, createdBy, isGlobal, timestamps and the caller's rights. */
export interface ToolRecord {
  id: string;
  name: string | null;
  displayName: string;
  description: string;
  prompt: string;
  toolType: ToolRow["toolType"];
  apiUrl: string | null;
  httpMethod: ToolRow["httpMethod"];
  rawHeaders: Record<string, unknown> | null;
  rawParametersSchema: Record<string, unknown> | null;
  mcpAllowedTools: unknown;
  functionCode: string | null;
  mcpUrl: string | null;
  rawMcpHeader: Record<string, unknown> | null;
  flexTemplateJson: Record<string, unknown> | null;
  flexSchema: Record<string, unknown> | null;
  quickReplyConfig: Record<string, unknown> | null;
  groups: IdName[];
  organization: string | null;
  createdBy: IdName | null;
  isGlobal: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toolRecord = (v: ToolView): ToolRecord => ({
  id: v.row.id,
  name: v.row.name,
  displayName: v.row.displayName,
  description: v.row.description,
  prompt: v.row.prompt,
  toolType: v.row.toolType,
  apiUrl: v.row.apiUrl,
  httpMethod: v.row.httpMethod,
  rawHeaders: v.row.rawHeaders,
  rawParametersSchema: v.row.rawParametersSchema,
  mcpAllowedTools: v.row.mcpAllowedTools ?? null,
  functionCode: v.row.functionCode,
  mcpUrl: v.row.mcpUrl,
  rawMcpHeader: v.row.rawMcpHeader,
  flexTemplateJson: v.row.flexTemplateJson,
  flexSchema: v.row.flexSchema,
  quickReplyConfig: v.row.quickReplyConfig,
  groups: v.groups,
  organization: v.row.organizationId,
  createdBy: v.createdBy,
  isGlobal: v.row.organizationId === null,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});
