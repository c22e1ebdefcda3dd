import type { ComponentChildren, Ref } from "preact";
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
  open = true,
  submitDisabled,
  noValidate,
  formRef,
  actions,
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
  /** For a dialog its parent keeps rendered while closed. */
  open?: boolean;
  /** The submit button off (nothing to submit yet, e.g. no model to choose). */
  submitDisabled?: boolean;
  /** The form checks its fields itself (the API's messages at the fields rather than the browser's). */
  noValidate?: boolean;
  formRef?: Ref<HTMLFormElement>;
  /** Buttons before Cancel, for what the dialog does besides submitting (e.g. remove what the form sets). */
  actions?: ComponentChildren;
}) {
  return (
    <Dialog
      title={title}
      open={open}
      onClose={onClose}
      footer={
        <>
          {actions}
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy} disabled={submitDisabled}>
            {submit}
          </Button>
        </>
      }
    >
      <form id={formId} ref={formRef} onSubmit={onSubmit} class="stack" noValidate={noValidate}>
        <FormError problem={problem} />
        {children}
      </form>
    </Dialog>
  );
}
