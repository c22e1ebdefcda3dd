import { fieldsOf, TextAreaField, TextField, FormDialog } from "../../components";
import { createCannedResponse, updateCannedResponse, type CannedResponse } from "./api";
import { t } from "./strings";

/** Creates a canned response, or edits `editing`: the API's errors (a taken short code) at their fields. */
export function CannedForm({
  editing,
  onClose,
  onSaved,
}: {
  editing: CannedResponse | null;
  onClose: () => void;
  onSaved: (c: CannedResponse) => void;
}) {
  const save = async (form: FormData) => {
    const body = { shortCode: String(form.get("shortCode") ?? ""), content: String(form.get("content") ?? "") };
    onSaved(editing ? await updateCannedResponse(editing.id, body) : await createCannedResponse(body));
    onClose();
  };
  const field = fieldsOf(editing, t);
  return (
    <FormDialog title={editing ? t("editTitle") : t("create")} submit={t("save")} save={save} onClose={onClose}>
      <TextField {...field("shortCode")} required maxLength={50} pattern="[a-z0-9_\-]+" hint={t("shortCodeHint")} />
      <TextAreaField {...field("content")} rows={5} required maxLength={5000} hint={t("contentHint")} />
    </FormDialog>
  );
}
