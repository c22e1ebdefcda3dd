import { fieldsOf, TextField, FormDialog } from "../../components";
import { createLabel, updateLabel, type Label } from "./api";
import { t } from "./strings";

/** Creates a label, or edits `label`: name, colour (the browser's colour picker) and description. */
export function LabelForm({
  label,
  onClose,
  onSaved,
}: {
  label: Label | null;
  onClose: () => void;
  onSaved: (l: Label, created: boolean) => void;
}) {
  const save = async (form: FormData) => {
    const body = {
      name: String(form.get("name") ?? ""),
      color: String(form.get("color") ?? ""),
      description: String(form.get("description") ?? ""),
    };
    const saved = label ? await updateLabel(label.id, body) : await createLabel(body);
    onSaved(saved, !label);
    onClose();
  };
  const field = fieldsOf(label, t);
  return (
    <FormDialog title={label ? t("editLabel") : t("newLabel")} submit={t("save")} save={save} onClose={onClose}>
      <TextField {...field("name")} required maxLength={50} hint={t("nameHint")} />
      <TextField label={t("color")} name="color" type="color" required defaultValue={label?.color ?? "#1f77b4"} />
      <TextField {...field("description")} maxLength={500} />
    </FormDialog>
  );
}
