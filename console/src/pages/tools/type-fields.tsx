import { useState } from "preact/hooks";
import { SelectField, TextAreaField, TextField } from "../../components/field";
import type { Tool, ToolWrite } from "./api";
import { fieldProblem, jsonObject, pretty } from "./json-field";
import { McpToolPicker } from "./mcp-picker";
import { t } from "./strings";

// MCP stays last (the keyboard test reaches it with End).
export const TYPES = ["api", "function", "desktop", "flex", "quick_reply", "mcp"] as const;
export type FormType = (typeof TYPES)[number];
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** The widget shows at most 13 chips (services/tools/quick-reply-tool.ts). */
const MAX_CHIPS = 13;

type Item = string | { label: string; text?: string };
/** Static chips as lines: `Label`, or `Label | text sent` when the text differs from the label. */
const itemLines = (items: unknown) =>
  (Array.isArray(items) ? (items as Item[]) : [])
    .map((i) => (typeof i === "string" ? i : i.text && i.text !== i.label ? `${i.label} | ${i.text}` : i.label))
    .join("\n");
function itemsOf(lines: string): Item[] {
  return lines
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [label, ...rest] = line.split("|");
      const text = rest.join("|").trim();
      return text ? { label: label.trim(), text } : label.trim();
    });
}

/** What the form's fields of `type` write (throws a problem at the field for JSON typed wrong). */
export function typeBody(type: FormType, form: FormData, tool?: Tool): Partial<ToolWrite> {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const parameters = () => ({ rawParametersSchema: jsonObject(text("rawParametersSchema"), "rawParametersSchema") });
  switch (type) {
    case "api":
      return {
        apiUrl: text("apiUrl"),
        httpMethod: text("httpMethod") as ToolWrite["httpMethod"],
        rawHeaders: jsonObject(text("rawHeaders"), "rawHeaders"),
        ...parameters(),
      };
    case "function":
      return { functionCode: text("functionCode"), ...parameters() };
    case "desktop":
      return parameters();
    case "flex": {
      const template = jsonObject(text("flexTemplateJson"), "flexTemplateJson");
      if (!template) throw fieldProblem("flexTemplateJson", t("flexTemplateRequired"));
      return { flexTemplateJson: template, flexSchema: jsonObject(text("flexSchema"), "flexSchema") };
    }
    case "quick_reply":
      return {
        quickReplyConfig:
          text("quickReplyMode") === "dynamic"
            ? { mode: "dynamic", maxItems: Number(text("maxItems")) }
            : { mode: "static", items: itemsOf(text("quickReplyItems")) },
      };
    case "mcp": {
      const allowed = form.getAll("allowed").map(String);
      return {
        mcpUrl: text("mcpUrl"),
        rawMcpHeader: jsonObject(text("rawMcpHeader"), "rawMcpHeader"),
        mcpAllowedTools: allowed.length || tool?.mcpAllowedTools ? allowed : null,
      };
    }
  }
}

interface Props {
  type: FormType;
  tool?: Tool;
  err: (name: string) => string | undefined;
  /** The MCP fields as typed, for loading the server's tools before saving. */
  readMcp: () => { mcpUrl: string; headers: Record<string, unknown> | null };
}

/** The fields a tool of `type` has beyond its names and description. */
export function TypeFields({ type, tool, err, readMcp }: Props) {
  const code = { class: "code", spellcheck: false } as const;
  const parameters = (
    <TextAreaField
      {...code}
      label={t("parameters")}
      name="rawParametersSchema"
      rows={5}
      defaultValue={pretty(tool?.rawParametersSchema)}
      hint={t("parametersHint")}
      error={err("rawParametersSchema")}
    />
  );
  switch (type) {
    case "api":
      return (
        <>
          <TextField
            label={t("apiUrl")}
            name="apiUrl"
            type="url"
            required
            defaultValue={tool?.apiUrl ?? ""}
            error={err("apiUrl")}
          />
          <SelectField
            label={t("httpMethod")}
            name="httpMethod"
            defaultValue={tool?.httpMethod ?? "get"}
            options={METHODS.map((m) => [m, m.toUpperCase()])}
            error={err("httpMethod")}
          />
          <TextAreaField
            {...code}
            label={t("rawHeaders")}
            name="rawHeaders"
            rows={3}
            defaultValue={pretty(tool?.rawHeaders)}
            hint={t("jsonObjectHint")}
            error={err("rawHeaders")}
          />
          {parameters}
        </>
      );
    case "function":
      return (
        <>
          <TextAreaField
            {...code}
            label={t("functionCode")}
            name="functionCode"
            rows={8}
            required
            defaultValue={tool?.functionCode ?? ""}
            hint={t("functionCodeHint")}
            error={err("functionCode")}
          />
          {parameters}
        </>
      );
    case "desktop":
      return (
        <>
          <p class="hint">{t("desktopIntro")}</p>
          {parameters}
        </>
      );
    case "flex":
      return (
        <>
          <TextAreaField
            {...code}
            label={t("flexTemplateJson")}
            name="flexTemplateJson"
            rows={8}
            required
            defaultValue={pretty(tool?.flexTemplateJson)}
            hint={t("flexTemplateHint")}
            error={err("flexTemplateJson")}
          />
          <TextAreaField
            {...code}
            label={t("flexSchema")}
            name="flexSchema"
            rows={4}
            defaultValue={pretty(tool?.flexSchema)}
            hint={t("flexSchemaHint")}
            error={err("flexSchema")}
          />
        </>
      );
    case "quick_reply":
      return <QuickReplyFields tool={tool} err={err} />;
    case "mcp":
      return (
        <>
          <TextField
            label={t("mcpUrl")}
            name="mcpUrl"
            type="url"
            required
            defaultValue={tool?.mcpUrl ?? ""}
            error={err("mcpUrl")}
          />
          <TextAreaField
            {...code}
            label={t("mcpHeaders")}
            name="rawMcpHeader"
            rows={3}
            defaultValue={pretty(tool?.rawMcpHeader)}
            hint={t("jsonObjectHint")}
            error={err("rawMcpHeader")}
          />
          <McpToolPicker
            read={readMcp}
            stored={Array.isArray(tool?.mcpAllowedTools) ? (tool.mcpAllowedTools as string[]) : null}
            toolId={tool?.id}
          />
          {err("mcpAllowedTools") && <p class="field-error">{err("mcpAllowedTools")}</p>}
        </>
      );
  }
}

/** Static chips (one per line) or chips the model writes (at most `maxItems`); the API's error for the config shows at
 * the field in use. */
function QuickReplyFields({ tool, err }: Pick<Props, "tool" | "err">) {
  const config = (tool?.quickReplyConfig ?? {}) as { mode?: string; items?: unknown; maxItems?: number };
  const [mode, setMode] = useState(config.mode === "dynamic" ? "dynamic" : "static");
  return (
    <>
      <SelectField
        label={t("quickReplyMode")}
        name="quickReplyMode"
        value={mode}
        onChange={(e) => setMode(e.currentTarget.value)}
        options={[
          ["static", t("mode_static")],
          ["dynamic", t("mode_dynamic")],
        ]}
        hint={t(`modeHint_${mode as "static"}`)}
      />
      {mode === "static" ? (
        <TextAreaField
          label={t("quickReplyItems")}
          name="quickReplyItems"
          rows={5}
          required
          defaultValue={itemLines(config.items)}
          hint={t("quickReplyItemsHint")}
          error={err("quickReplyConfig")}
        />
      ) : (
        <TextField
          label={t("maxItems")}
          name="maxItems"
          type="number"
          required
          min={1}
          max={MAX_CHIPS}
          defaultValue={String(config.maxItems ?? 5)}
          error={err("quickReplyConfig")}
        />
      )}
    </>
  );
}
