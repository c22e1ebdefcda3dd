import { useState } from "preact/hooks";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm";
import { ErrorAlert, Loading } from "../../components/alert";
import { toast } from "../../components/toast";
import { DataTable, type Column } from "../../components/data-table";
import { Pager } from "../../components/pager";
import { useResource } from "../../components/use-resource";
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
  const [page, setPage] = useState(1);
  const tools = useResource(() => listTools(page), [organizationId, page]);
  const manage = can("tool.manage");
  const [editing, setEditing] = useState<Tool | "new" | null>(null);
  const [deleting, setDeleting] = useState<Tool | null>(null);
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
    columns.push({
      label: t("actions"),
      hiddenLabel: true,
      cell: (tool) =>
        tool.canUpdate && (
          <div class="row-actions">
            <Button aria-label={t("editNamed", { name: tool.displayName })} onClick={() => setEditing(tool)}>
              {t("edit")}
            </Button>
            {tool.canDelete && (
              <Button
                variant="danger"
                aria-label={t("deleteNamed", { name: tool.displayName })}
                onClick={() => setDeleting(tool)}
              >
                {t("delete")}
              </Button>
            )}
          </div>
        ),
    });
  return (
    <section aria-labelledby="tools-title" class="section">
      <div class="section-head">
        <h2 id="tools-title">{t("tools")}</h2>
        {manage && (
          <Button variant="primary" onClick={() => setEditing("new")}>
            {t("addTool")}
          </Button>
        )}
      </div>
      <p class="muted">{t("toolsIntro")}</p>
      <ErrorAlert error={tools.error} />
      {tools.data === undefined ? (
        tools.loading && <Loading />
      ) : tools.data.count === 0 ? (
        <p>{t("noTools")}</p>
      ) : (
        <>
          <DataTable labelledBy="tools-title" rows={tools.data.results} rowKey={(tool) => tool.id} columns={columns} />
          <Pager page={page} count={tools.data.count} pageSize={20} onPage={setPage} />
        </>
      )}
      {editing && (
        <ToolForm
          tool={editing === "new" ? undefined : editing}
          organizationId={organizationId}
          onClose={() => setEditing(null)}
          onSaved={(tool) => {
            toast(t("saved", { name: tool.displayName }));
            tools.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t("deleteTool")}
        message={t("deleteToolMessage", { name: deleting?.displayName ?? "" })}
        action={t("delete")}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteTool(deleting!.id);
          toast(t("deleted", { name: deleting!.displayName }));
          await tools.reload();
        }}
      />
    </section>
  );
}
