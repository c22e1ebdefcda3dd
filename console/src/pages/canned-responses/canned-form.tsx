import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { FormError } from "../../components/alert";
import { TextAreaField, TextField } from "../../components/field";
import { t as common } from "../../components/strings";
import { useSubmit } from "../../components/use-submit";
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
  const { busy, problem, submit } = useSubmit(async (form) => {
    const body = { shortCode: String(form.get("shortCode") ?? ""), content: String(form.get("content") ?? "") };
    onSaved(editing ? await updateCannedResponse(editing.id, body) : await createCannedResponse(body));
    onClose();
  });
  const err = (name: string) => problem?.field(name);
  return (
    <Dialog
      title={editing ? t("editTitle") : t("create")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="canned-form" variant="primary" busy={busy}>
            {t("save")}
          </Button>
        </>
      }
    >
      <form id="canned-form" onSubmit={submit} class="stack">
        <FormError problem={problem} />
        <TextField
          label={t("shortCode")}
          name="shortCode"
          required
          maxLength={50}
          pattern="[a-z0-9_\-]+"
          defaultValue={editing?.shortCode}
          hint={t("shortCodeHint")}
          error={err("shortCode")}
        />
        <TextAreaField
          label={t("content")}
          name="content"
          rows={5}
          required
          maxLength={5000}
          defaultValue={editing?.content}
          hint={t("contentHint")}
          error={err("content")}
        />
      </form>
    </Dialog>
  );
}
