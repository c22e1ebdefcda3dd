import { TextField } from "../../components/field";
import { FormDialog } from "../../components/form-dialog";
import { useSubmit } from "../../components/use-submit";
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
  const { busy, problem, submit } = useSubmit(async (form) => {
    const body = {
      name: String(form.get("name") ?? ""),
      color: String(form.get("color") ?? ""),
      description: String(form.get("description") ?? ""),
    };
    const saved = label ? await updateLabel(label.id, body) : await createLabel(body);
    onSaved(saved, !label);
    onClose();
  });
  const err = (name: string) => problem?.field(name);
  return (
    <FormDialog
      title={label ? t("editLabel") : t("newLabel")}
      formId="label-form"
      submit={t("save")}
      busy={busy}
      problem={problem}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={t("name")}
        name="name"
        required
        maxLength={50}
        defaultValue={label?.name ?? ""}
        hint={t("nameHint")}
        error={err("name")}
      />
      <TextField
        label={t("color")}
        name="color"
        type="color"
        required
        defaultValue={label?.color ?? "#1f77b4"}
        error={err("color")}
      />
      <TextField
        label={t("description")}
        name="description"
        maxLength={500}
        defaultValue={label?.description ?? ""}
        error={err("description")}
      />
    </FormDialog>
  );
}
