import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import { conflict, fieldError } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import type { OrgAccess } from "../access";
import type { ToolWrite } from "../records/tools";
import { getToolToManage } from "./access";
import { insertTool, toolGroupIds, updateTool } from "./store";
import { checkToolGroups, checkToolRules, type ToolInput, toolColumns } from "./write";

/**
 * Creates a tool (a global one for `isGlobal`, else the organization's, given to the groups of the body) and returns
 * it; the fields its type does not use are empty, and it is checked as a change is (checkToolRules).
 */
export async function createTool(
  db: Db,
  env: Bindings,
  access: OrgAccess,
  userId: string,
  body: z.output<typeof ToolWrite>,
) {
  const candidate = {
    name: null,
    description: "",
    prompt: "",
    apiUrl: null,
    httpMethod: null,
    rawHeaders: null,
    rawParametersSchema: null,
    mcpAllowedTools: null,
    functionCode: null,
    mcpUrl: null,
    rawMcpHeader: null,
    flexTemplateJson: null,
    flexSchema: null,
    quickReplyConfig: null,
    ...toolColumns(body),
    displayName: body.displayName,
    toolType: body.toolType,
  };
  await checkToolRules(env, candidate);
  const groupIds = body.isGlobal ? undefined : await checkToolGroups(db, access, body, true);
  const organizationId = body.isGlobal ? null : access.organizationId;
  return insertTool(db, { ...candidate, id: uuidv7(), organizationId, createdById: userId }, groupIds);
}

/** Reads and checks of a change that keeps finding the tool changed under it, before it answers 409. */
const TRIES = 3;

/**
 * Changes a tool the caller may manage and returns it: fields left out keep their value, header values sent back
 * masked keep the stored ones while the tool's server stays (toolColumns), and the result is checked as create
 * checks. The write applies only while the tool's URLs and headers are as read (updateTool): two changes at once,
 * one moving the URL and one sending a masked header back, each allowed alone, would otherwise store the new URL with
 * the stored secret, sent to the new server at the next call. One that finds the tool changed reads and checks again.
 */
export async function changeTool(
  db: Db,
  env: Bindings,
  access: OrgAccess,
  id: string,
  isStaff: boolean,
  body: ToolInput,
) {
  for (let tries = 0; tries < TRIES; tries++) {
    const current = await getToolToManage(db, access, id, isStaff, "change");
    if (body.isGlobal !== undefined && body.isGlobal !== (current.organizationId === null))
      throw fieldError("isGlobal", "Cannot be changed after creation.");
    const columns = toolColumns(body, current);
    const merged = { ...current, ...columns };
    await checkToolRules(env, merged);
    const groupIds =
      current.organizationId === null
        ? undefined
        : await checkToolGroups(db, access, body, false, await toolGroupIds(db, current.id));
    const row = await updateTool(db, current, columns, groupIds, merged.name);
    if (row) return row;
  }
  throw conflict("The tool is being changed by other requests at the same time; read it again and retry.");
}
