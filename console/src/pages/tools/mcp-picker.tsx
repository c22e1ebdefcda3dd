import { useState } from "preact/hooks";
import { Button, ErrorAlert, announce, useAction } from "../../components";
import { availableTools, type RemoteTool } from "./api";
import { t } from "./strings";

/**
 * An MCP server's tools, fetched on demand from `available-tools/` with the form's URL and headers,
 * each a checkbox named `allowed` (what `mcpAllowedTools` will hold). Before the first load, the
 * stored choice is kept as hidden fields, so saving without loading changes nothing.
 */
export function McpToolPicker({
  read,
  stored,
  toolId,
}: {
  read: () => { mcpUrl: string; headers: Record<string, unknown> | null };
  stored: string[] | null;
  toolId?: string;
}) {
  const [tools, setTools] = useState<RemoteTool[] | null>(null);
  const [server, setServer] = useState("");
  const loading = useAction(async () => {
    const { mcpUrl, headers } = read();
    const answer = await availableTools(mcpUrl, headers, toolId);
    setTools(answer.tools);
    setServer(`${answer.server.name} ${answer.server.version}`);
    announce(t("toolsLoaded", { n: answer.tools.length, server: answer.server.name }));
  });
  return (
    <div class="mcp-picker">
      <Button onClick={loading.run} busy={loading.busy}>
        {tools ? t("reloadTools") : t("loadTools")}
      </Button>
      <ErrorAlert error={loading.problem} />
      {!tools && stored?.map((name) => <input key={name} type="hidden" name="allowed" value={name} />)}
      {!tools && stored && <p class="hint">{t("storedChoice", { names: stored.join(", ") })}</p>}
      {tools && (
        <fieldset class="checklist">
          <legend>{t("pickTools", { server })}</legend>
          {tools.length === 0 && <p class="muted">{t("noRemoteTools")}</p>}
          {tools.map((tool) => (
            <label key={tool.name} class="check">
              <input
                type="checkbox"
                name="allowed"
                value={tool.name}
                defaultChecked={!stored || stored.includes(tool.name)}
              />
              <span>
                <strong>{tool.title ?? tool.name}</strong> <code>{tool.name}</code>
                {tool.description && <span class="muted small block">{tool.description}</span>}
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
