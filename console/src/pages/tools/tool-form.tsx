import { useRef, useState } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/field";
import { ErrorAlert } from "../../components/alert";
import { t as common } from "../../components/strings";
import { createTool, updateTool, type Tool, type ToolWrite } from "./api";
import { JsonFieldError, TextAreaField, jsonObject, pretty } from "./json-field";
import { McpToolPicker } from "./mcp-picker";
import { t } from "./strings";

const TYPES = ["api", "function", "mcp"] as const;
type FormType = (typeof TYPES)[number];
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Adds or changes an api, function or MCP tool; field errors (the API's, or JSON typed wrong) show at their fields. */
export function ToolForm({ tool, onClose, onSaved }: { tool?: Tool; onClose: () => void; onSaved: (tool: Tool) => void }) {
  const [type, setType] = useState<FormType>((tool?.toolType as FormType) ?? "api");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const text = (name: string) => String(new FormData(form.current!).get(name) ?? "").trim();
  const fieldProblem = (err: JsonFieldError) => new ApiProblem(400, err.message, "invalid", { [err.field]: [err.message] });

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setProblem(null);
    let body: ToolWrite;
    try {
      body = { toolType: type, displayName: text("displayName"), description: text("description") };
      if (type !== "mcp") body.name = text("name");
      if (type === "api") Object.assign(body, { apiUrl: text("apiUrl"), httpMethod: text("httpMethod"), rawHeaders: jsonObject(text("rawHeaders"), "rawHeaders") });
      if (type === "function") body.functionCode = text("functionCode");
      if (type !== "mcp") body.rawParametersSchema = jsonObject(text("rawParametersSchema"), "rawParametersSchema");
      if (type === "mcp") {
        body.mcpUrl = text("mcpUrl");
        body.rawMcpHeader = jsonObject(text("rawMcpHeader"), "rawMcpHeader");
        const allowed = new FormData(form.current!).getAll("allowed").map(String);
        body.mcpAllowedTools = allowed.length || tool?.mcpAllowedTools ? allowed : null;
      }
    } catch (err) {
      if (err instanceof JsonFieldError) return setProblem(fieldProblem(err));
      throw err;
    }
    setBusy(true);
    try {
      onSaved(tool ? await updateTool(tool.id, body) : await createTool(body));
      onClose();
    } catch (err) {
      setProblem(err as ApiProblem);
    } finally {
      setBusy(false);
    }
  };

  const readMcp = () => {
    const headers = jsonObject(text("rawMcpHeader"), "rawMcpHeader");
    return { mcpUrl: text("mcpUrl"), headers };
  };
  const formId = tool ? `tool-form-${tool.id}` : "tool-form-new";
  const err = (name: string) => problem?.field(name);
  return (
    <Dialog
      title={tool ? t("editTool") : t("addTool")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>{tool ? t("save") : t("add")}</Button>
        </>
      }
    >
      <form id={formId} ref={form} onSubmit={submit} class="stack">
        {!tool && <SelectField label={t("toolType")} value={type} onChange={(e) => setType(e.currentTarget.value as FormType)} options={TYPES.map((k) => [k, t(`type_${k}`)])} />}
        <TextField label={t("displayName")} name="displayName" required maxLength={200} defaultValue={tool?.displayName} error={err("displayName")} />
        {type !== "mcp" && <TextField label={t("functionName")} name="name" required maxLength={64} pattern="[A-Za-z0-9_\-]{1,64}" defaultValue={tool?.name ?? ""} hint={t("functionNameHint")} error={err("name")} />}
        <TextField label={t("description")} name="description" maxLength={10000} defaultValue={tool?.description} hint={t("descriptionHint")} error={err("description")} />
        {type === "api" && (
          <>
            <TextField label={t("apiUrl")} name="apiUrl" type="url" required defaultValue={tool?.apiUrl ?? ""} error={err("apiUrl")} />
            <SelectField label={t("httpMethod")} name="httpMethod" defaultValue={tool?.httpMethod ?? "get"} options={METHODS.map((m) => [m, m.toUpperCase()])} error={err("httpMethod")} />
            <TextAreaField label={t("rawHeaders")} name="rawHeaders" rows={3} value={pretty(tool?.rawHeaders)} hint={t("jsonObjectHint")} error={err("rawHeaders")} />
          </>
        )}
        {type === "function" && <TextAreaField label={t("functionCode")} name="functionCode" rows={8} required value={tool?.functionCode ?? ""} hint={t("functionCodeHint")} error={err("functionCode")} />}
        {type !== "mcp" && <TextAreaField label={t("parameters")} name="rawParametersSchema" rows={5} value={pretty(tool?.rawParametersSchema)} hint={t("parametersHint")} error={err("rawParametersSchema")} />}
        {type === "mcp" && (
          <>
            <TextField label={t("mcpUrl")} name="mcpUrl" type="url" required defaultValue={tool?.mcpUrl ?? ""} error={err("mcpUrl")} />
            <TextAreaField label={t("mcpHeaders")} name="rawMcpHeader" rows={3} value={pretty(tool?.rawMcpHeader)} hint={t("jsonObjectHint")} error={err("rawMcpHeader")} />
            <McpToolPicker read={readMcp} stored={Array.isArray(tool?.mcpAllowedTools) ? (tool.mcpAllowedTools as string[]) : null} toolId={tool?.id} />
            {err("mcpAllowedTools") && <p class="field-error">{err("mcpAllowedTools")}</p>}
          </>
        )}
        {problem && !Object.keys(problem.errors).length && <ErrorAlert error={problem} />}
      </form>
    </Dialog>
  );
}
