import type { ComponentChildren } from "preact";
import type { ApiProblem } from "../api/client";
import { FormError } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { t } from "./strings";

/**
 * A dialog holding one form: Cancel and the submit button (`submit`, busy while it runs) at the
 * bottom, the API's problem above the fields.
 */
export function FormDialog({
  title,
  formId,
  submit,
  busy,
  problem,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  /** The form's id: the footer's submit button is outside it. */
  formId: string;
  submit: string;
  busy: boolean;
  problem: ApiProblem | null;
  onSubmit: (event: SubmitEvent) => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog
      title={title}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {submit}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} class="stack">
        <FormError problem={problem} />
        {children}
      </form>
    </Dialog>
  );
}
