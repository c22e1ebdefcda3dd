import { useState } from "preact/hooks";
import { SelectField, TextAreaField, TextField } from "../../components";
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
  /** The API's message under a name no field has (the fields show their own, FormProblem). */
  err: (name: string) => string | undefined;
  /** The MCP fields as typed, for loading the server's tools before saving. */
  readMcp: () => { mcpUrl: string; headers: Record<string, unknown> | null };
}

/** A header field's hint: the API shows a stored tool's header values masked (write-only). */
const headersHint = (tool?: Tool) => (tool ? `${t("jsonObjectHint")} ${t("headerValuesMasked")}` : t("jsonObjectHint"));

/** The fields a tool of `type` has beyond its names and description. */
export function TypeFields({ type, tool, err, readMcp }: Props) {
  const parameters = (
    <JsonField tool={tool} name="rawParametersSchema" label={t("parameters")} rows={5} hint={t("parametersHint")} />
  );
  switch (type) {
    case "api":
      return (
        <>
          <TextField label={t("apiUrl")} name="apiUrl" type="url" required defaultValue={tool?.apiUrl ?? ""} />
          <SelectField
            label={t("httpMethod")}
            name="httpMethod"
            defaultValue={tool?.httpMethod ?? "get"}
            options={METHODS.map((m) => [m, m.toUpperCase()])}
          />
          <JsonField tool={tool} name="rawHeaders" label={t("rawHeaders")} rows={3} hint={headersHint(tool)} />
          {parameters}
        </>
      );
    case "function":
      return (
        <>
          <TextAreaField
            class="code"
            spellcheck={false}
            label={t("functionCode")}
            name="functionCode"
            rows={8}
            required
            defaultValue={tool?.functionCode ?? ""}
            hint={t("functionCodeHint")}
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
          <JsonField
            tool={tool}
            name="flexTemplateJson"
            label={t("flexTemplateJson")}
            rows={8}
            required
            hint={t("flexTemplateHint")}
          />
          <JsonField tool={tool} name="flexSchema" label={t("flexSchema")} rows={4} hint={t("flexSchemaHint")} />
        </>
      );
    case "quick_reply":
      return <QuickReplyFields tool={tool} err={err} />;
    case "mcp":
      return (
        <>
          <TextField label={t("mcpUrl")} name="mcpUrl" type="url" required defaultValue={tool?.mcpUrl ?? ""} />
          <JsonField tool={tool} name="rawMcpHeader" label={t("mcpHeaders")} rows={3} hint={headersHint(tool)} />
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

/**
 * A JSON object of the tool, as indented code (empty for none). Its message, the API's or the form's for JSON typed
 * wrong (`jsonObject`), shows at it by its name, as at every field of the form.
 */
function JsonField({
  tool,
  name,
  ...field
}: {
  tool?: Tool;
  name: "rawParametersSchema" | "rawHeaders" | "flexTemplateJson" | "flexSchema" | "rawMcpHeader";
  label: string;
  hint: string;
  rows: number;
  required?: boolean;
}) {
  return <TextAreaField class="code" spellcheck={false} name={name} defaultValue={pretty(tool?.[name])} {...field} />;
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
