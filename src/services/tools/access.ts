import { toolGroups, tools } from "../../db/schema";
import { globalResourceAccess } from "../global-resources";
import { groupLinksOf } from "../links";

export type ToolRow = typeof tools.$inferSelect;

/** Tools given to groups (`tool_groups`). */
export const toolGroupLinks = groupLinksOf(toolGroups, toolGroups.toolId);

const toolAccess = globalResourceAccess({
  table: tools,
  links: toolGroupLinks,
  view: "tool.view",
  manage: "tool.manage",
  notFound: "Tool not found.",
  plural: "tools",
});

/**
 * The tools the caller sees (globalOrReachableCondition with `tool.view`); creators must give a tool to one of their
 * groups, so they keep seeing it.
 */
export const visibleToolsCondition = toolAccess.visibleCondition;
export const getVisibleTool = toolAccess.getVisible;
/** The tool if the caller can see it, else 404. */
export const getToolForRead = toolAccess.getForRead;
/** Whether the caller may change or delete the tool: global tools are platform staff's. */
export const canManageTool = toolAccess.canManage;
/** The tool for a change or a delete: 404 unless the caller sees it; a global tool is platform staff's (403). */
export const getToolToManage = toolAccess.getToManage;
