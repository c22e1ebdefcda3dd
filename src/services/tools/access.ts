import { toolGroups, tools } from "../../db/schema";
import { globalResourceAccess } from "../global-resources";
import { groupLinksOf } from "../links";

export type ToolRow = typeof tools.$inferSelect;

/** Tools given to groups (`tool_groups`). */
export const toolGroupLinks = groupLinksOf(toolGroups, "toolId");

/**
 * Who sees a tool (`tool.view`; creators must give a tool to one of their groups, so they keep seeing it) and who
 * changes it (global tools are platform staff's).
 */
export const {
  visibleCondition: visibleToolsCondition,
  getVisible: getVisibleTool,
  getForRead: getToolForRead,
  canManage: canManageTool,
  getToManage: getToolToManage,
} = globalResourceAccess({
  table: tools,
  links: toolGroupLinks,
  view: "tool.view",
  manage: "tool.manage",
  notFound: "Tool not found.",
  plural: "tools",
});
