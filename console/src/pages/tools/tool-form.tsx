import { useRef, useState } from "preact/hooks";
import {
  fieldsOf,
  FormDialog,
  SelectField,
  TextAreaField,
  TextField,
  GroupPicker,
  pickedGroups,
  useSubmit,
} from "../../components";
import { createTool, updateTool, type Tool, type ToolWrite } from "./api";
import { jsonObject } from "./json-field";
import { TYPES, TypeFields, typeBody, type FormType } from "./type-fields";
import { t } from "./strings";

/** Adds or changes a tool of any type; field errors (the API's, or JSON typed wrong) show at their fields. */
export function ToolForm({
  tool,
  organizationId,
  onClose,
  onSaved,
}: {
  tool?: Tool;
  organizationId: string;
  onClose: () => void;
  onSaved: (tool: Tool) => void;
}) {
  const [type, setType] = useState<FormType>((tool?.toolType as FormType) ?? "api");
  const form = useRef<HTMLFormElement>(null);
  const submitting = useSubmit(async (data) => {
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const body: ToolWrite = {
      toolType: type,
      displayName: text("displayName"),
      description: text("description"),
      prompt: text("prompt"),
      groups: pickedGroups(data),
      ...typeBody(type, data, tool),
    };
    if (type !== "mcp") body.name = text("name");
    onSaved(tool ? await updateTool(tool.id, body) : await createTool(body));
    onClose();
  });
  const { problem } = submitting;
  const readMcp = () => {
    const data = new FormData(form.current!);
    return {
      mcpUrl: String(data.get("mcpUrl") ?? "").trim(),
      headers: jsonObject(String(data.get("rawMcpHeader") ?? ""), "rawMcpHeader"),
    };
  };
  const err = (name: string) => problem?.field(name);
  const field = fieldsOf(tool, t);
  return (
    <FormDialog
      title={tool ? t("editTool") : t("addTool")}
      formRef={form}
      adding={!tool}
      submitting={submitting}
      onClose={onClose}
    >
      {!tool && (
        <SelectField
          label={t("toolType")}
          value={type}
          onChange={(e) => setType(e.currentTarget.value as FormType)}
          options={TYPES.map((k) => [k, t(`type_${k}`)])}
          hint={t(`typeHint_${type}`)}
        />
      )}
      <TextField {...field("displayName")} required maxLength={200} />
      {type !== "mcp" && (
        <TextField
          label={t("functionName")}
          name="name"
          required
          maxLength={64}
          pattern="[A-Za-z0-9_\-]{1,64}"
          defaultValue={tool?.name ?? ""}
          hint={t("functionNameHint")}
        />
      )}
      <TextField {...field("description")} maxLength={10000} hint={t("descriptionHint")} />
      <TextAreaField {...field("prompt")} rows={2} maxLength={10000} hint={t("promptHint")} />
      <TypeFields key={type} type={type} tool={tool} err={err} readMcp={readMcp} />
      <GroupPicker organizationId={organizationId} chosen={tool?.groups} error={err("groups")} />
    </FormDialog>
  );
}
