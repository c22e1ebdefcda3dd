import { editDeleteColumn, type Column, useCrudList, ResourceListSection } from "../../components";
import { can } from "../../shell/session";
import { deleteTool, listTools, type Tool } from "./api";
import { ToolForm } from "./tool-form";
import { t } from "./strings";

/** What a tool calls: its URL (api, MCP) or that it runs code. */
function target(tool: Tool): string {
  const chips = (tool.quickReplyConfig ?? {}) as { mode?: string; items?: unknown[] };
  switch (tool.toolType) {
    case "api":
      return `${(tool.httpMethod ?? "").toUpperCase()} ${tool.apiUrl ?? ""}`;
    case "mcp":
      return tool.mcpUrl ?? "";
    case "function":
      return t("runsCode");
    case "desktop":
      return t("runsOnDesktop");
    case "flex":
      return t("sendsFlex");
    case "quick_reply":
      return chips.mode === "dynamic" ? t("chipsDynamic") : t("chipsStatic", { n: chips.items?.length ?? 0 });
  }
}

/** The organization's tools: added, changed and deleted by members with `tool.manage`. */
export function ToolsSection({ organizationId }: { organizationId: string }) {
  const crud = useCrudList(listTools, [organizationId]);
  const manage = can("tool.manage");
  const columns: Column<Tool>[] = [
    {
      label: t("displayName"),
      rowHeader: true,
      cell: (tool) => (
        <>
          {tool.displayName} {tool.name && <code class="muted small">{tool.name}</code>}
        </>
      ),
    },
    { label: t("toolType"), cell: (tool) => t(`type_${tool.toolType}` as "type_api") ?? tool.toolType },
    { label: t("target"), class: "wrap", cell: (tool) => <span class="small">{target(tool)}</span> },
    {
      label: t("remoteTools"),
      cell: (tool) =>
        tool.toolType !== "mcp"
          ? "—"
          : Array.isArray(tool.mcpAllowedTools)
            ? (tool.mcpAllowedTools as string[]).join(", ") || t("none")
            : t("allTools"),
    },
  ];
  if (manage)
    columns.push(
      editDeleteColumn<Tool>(
        t("actions"),
        crud,
        {
          edit: (tool) => t("editNamed", { name: tool.displayName }),
          delete: (tool) => t("deleteNamed", { name: tool.displayName }),
        },
        { edit: (tool) => tool.canUpdate, delete: (tool) => tool.canUpdate && tool.canDelete },
      ),
    );
  return (
    <ResourceListSection
      id="tools-title"
      title={t("tools")}
      action={manage && { text: t("addTool"), run: () => crud.setEditing("new") }}
      intro={t("toolsIntro")}
      crud={crud}
      columns={columns}
      empty={t("noTools")}
      pageSize={20}
      form={(tool, close, saved) => (
        <ToolForm tool={tool ?? undefined} organizationId={organizationId} onClose={close} onSaved={saved} />
      )}
      saved={(tool) => t("saved", { name: tool.displayName })}
      remove={{
        title: t("deleteTool"),
        message: (tool) => t("deleteToolMessage", { name: tool.displayName }),
        run: (tool) => deleteTool(tool.id),
        done: (tool) => t("deleted", { name: tool.displayName }),
      }}
    />
  );
}
