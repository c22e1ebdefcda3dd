import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import type { tools, ToolType } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { isObject } from "../../lib/json";
import { schemaProblem } from "../../lib/json-schema";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import type { OrgAccess } from "../access";
import { checkGroupAssignment } from "../groups";
import { linkStatements, referencedIds } from "../links";
import { type ToolRow, toolGroupLinks } from "./access";
import type { ToolPatch } from "../records/tools";
import { compileProblem } from "./sandbox";
import { definedFields } from "../../lib/patch";
import { headerColumns } from "./headers";

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A create, PUT or PATCH body after validation; absent fields keep their value. The PATCH body is the create body
 * made partial, so its output type covers all three.
 */
export type ToolInput = z.output<typeof ToolPatch>;

type Columns = Partial<typeof tools.$inferInsert>;

/**
 * The columns a body sets; for a change of `current`, its header values are resolved against the stored ones
 * (headerColumns: a masked value sent back keeps the stored value while the tool's server stays; a mask naming none
 * is a 400).
 */
export function toolColumns(b: ToolInput, current?: ToolRow): Columns {
  const values: Columns = {
    name: b.name === "" ? null : b.name,
    displayName: b.displayName,
    description: b.description === null ? "" : b.description,
    prompt: b.prompt === null ? "" : b.prompt,
    toolType: b.toolType,
    apiUrl: b.apiUrl,
    httpMethod: b.httpMethod,
    rawHeaders: b.rawHeaders,
    rawParametersSchema: b.rawParametersSchema,
    mcpAllowedTools: b.mcpAllowedTools,
    functionCode: b.functionCode,
    mcpUrl: b.mcpUrl,
    rawMcpHeader: b.rawMcpHeader,
    flexTemplateJson: b.flexTemplateJson,
    flexSchema: b.flexSchema,
    quickReplyConfig: b.quickReplyConfig,
  };
  const columns = definedFields(values);
  return headerColumns(columns, current);
}

type Checked = Omit<ToolRow, "id" | "organizationId" | "createdById" | "createdAt" | "updatedAt">;
const REQUIRED: Record<ToolType, (keyof Checked)[]> = {
  api: ["apiUrl", "httpMethod"],
  function: ["functionCode"],
  mcp: ["mcpUrl"],
  desktop: [],
  flex: ["flexTemplateJson"],
  quick_reply: ["quickReplyConfig"],
};

/**
 * Rules on the tool as it will be stored (CONTRACT section 11), 400 naming the field: the name
 * (required except for MCP tools), the fields its type needs, URLs the SSRF guard allows, a
 * parameters schema describing an object that the arguments validator can use (its `$ref`s resolve, its patterns
 * compile), code that compiles, and well-formed flex and quick-reply settings.
 */
export async function checkToolRules(env: Bindings, tool: Checked) {
  if (tool.name !== null && !TOOL_NAME.test(tool.name))
    throw fieldError("name", "Letters, digits, underscore and hyphen only, 1 to 64 characters.");
  if (tool.name === null && tool.toolType !== "mcp") throw fieldError("name", "Required for this toolType.");
  for (const field of REQUIRED[tool.toolType]) {
    const value = tool[field];
    if (value === null || value === undefined || value === "")
      throw fieldError(field, `Required for toolType ${tool.toolType}.`);
  }
  for (const field of ["apiUrl", "mcpUrl"] as const) {
    const url = tool[field];
    if (!url) continue;
    const problem = webhookUrlProblem(url, outboundAllowedHosts(env));
    if (problem) throw fieldError(field, problem);
  }
  const schema = tool.rawParametersSchema;
  if (schema && Object.keys(schema).length && schema.type !== undefined && schema.type !== "object") {
    throw fieldError("rawParametersSchema", 'A JSON Schema of the arguments object: "type" must be "object".');
  }
  if (schema?.properties !== undefined && !isObject(schema.properties))
    throw fieldError("rawParametersSchema", '"properties" must be an object.');
  const unusable = schema && schemaProblem(schema);
  if (unusable) throw fieldError("rawParametersSchema", `The arguments could not be checked against it: ${unusable}`);
  for (const field of ["rawHeaders", "rawMcpHeader"] as const) {
    const headers = tool[field];
    if (!headers) continue;
    for (const [k, v] of Object.entries(headers)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k))
        throw fieldError(field, `Not a valid header name: ${k.slice(0, 60)}.`);
      if (typeof v !== "string" || /[\r\n\0]/.test(v))
        throw fieldError(field, `The value of ${k.slice(0, 60)} must be a string on one line.`);
    }
  }
  if (tool.functionCode && tool.toolType === "function") {
    const problem = await compileProblem(tool.functionCode);
    if (problem) throw fieldError("functionCode", problem);
  }
  if (tool.flexSchema) {
    for (const [path, spec] of Object.entries(tool.flexSchema)) {
      const prompt = typeof spec === "string" ? spec : isObject(spec) ? spec.prompt : undefined;
      if (typeof prompt !== "string" || !prompt.trim())
        throw fieldError("flexSchema", `${path.slice(0, 60)}: a prompt (string) or {prompt, tag}.`);
    }
  }
  if (tool.quickReplyConfig) {
    const mode = tool.quickReplyConfig.mode ?? "static";
    if (mode !== "static" && mode !== "dynamic")
      throw fieldError("quickReplyConfig", 'mode must be "static" or "dynamic".');
    const items = tool.quickReplyConfig.items;
    if (mode === "static" && (!Array.isArray(items) || !items.length))
      throw fieldError("quickReplyConfig", "Static quick replies need a non-empty items list.");
    if (
      Array.isArray(items) &&
      items.some((i) => typeof i !== "string" && !(isObject(i) && typeof i.label === "string" && i.label))
    ) {
      throw fieldError("quickReplyConfig", "Each item is a label (string) or {label, text?}.");
    }
  }
}

/** `groups` of a tool body (see checkGroupAssignment). */
export const checkToolGroups = (
  db: Db,
  access: OrgAccess,
  body: ToolInput,
  creating: boolean,
  current: string[] = [],
) => checkGroupAssignment(db, access, referencedIds(body.groups), creating, current, "a tool");

/** Statements setting (or, with `replace`, replacing) a tool's group links, when given. */
export const groupLinkStatements = (db: Db, toolId: string, groupIds: string[] | undefined, replace: boolean) =>
  linkStatements(db, toolGroupLinks, toolId, groupIds, replace);
