import type { ComponentChildren, Ref } from "preact";
import type { ApiProblem } from "../api/client";
import { FormError } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { FormProblem } from "./field";
import { t } from "./strings";
import { useSubmit } from "./use-submit";

/**
 * How a form submits: `save` with the form's data (useSubmit keeps its busy state and the API's
 * problem), or, where the page needs that state itself, its own `useSubmit`'s `busy`, `problem`
 * and `onSubmit`.
 */
export type Submitting =
  | { save: (form: FormData) => Promise<void>; busy?: never; problem?: never; onSubmit?: never }
  | { save?: never; busy: boolean; problem: ApiProblem | null; onSubmit: (event: SubmitEvent) => void };

/** The submit state of `Submitting`, from its own `useSubmit` when the form gave `save`. */
function useSubmitting(submitting: Submitting) {
  const own = useSubmit(submitting.save ?? (async () => {}));
  return submitting.save ? { busy: own.busy, problem: own.problem, onSubmit: own.submit } : submitting;
}

/**
 * A dialog holding one form: Cancel and the submit button (`submit`, busy while it runs) at the
 * bottom, the API's problem above the fields and at each field of its name (FormProblem).
 */
export function FormDialog({
  title,
  formId,
  submit,
  onClose,
  children,
  open = true,
  submitDisabled,
  noValidate,
  formRef,
  actions,
  ...submitting
}: {
  title: string;
  /** The form's id: the footer's submit button is outside it. */
  formId: string;
  submit: string;
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
} & Submitting) {
  const { busy, problem, onSubmit } = useSubmitting(submitting as Submitting);
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
        <FormProblem.Provider value={problem}>{children}</FormProblem.Provider>
      </form>
    </Dialog>
  );
}

/**
 * A form standing in a page (not a dialog): the API's problem above the fields and at each field of
 * its name, the submit button (`submit`, busy while it runs) below them.
 */
export function PageForm({
  class: extra,
  submit,
  formRef,
  labelledBy,
  children,
  ...submitting
}: {
  /** The form's class beside `stack` (its width on the page). */
  class: string;
  submit: string;
  formRef?: Ref<HTMLFormElement>;
  /** The id of the heading that names the form, where the form is a landmark of its own. */
  labelledBy?: string;
  children: ComponentChildren;
} & Submitting) {
  const { busy, problem, onSubmit } = useSubmitting(submitting as Submitting);
  return (
    <form ref={formRef} class={`stack ${extra}`} onSubmit={onSubmit} aria-labelledby={labelledBy}>
      <FormError problem={problem} />
      <FormProblem.Provider value={problem}>{children}</FormProblem.Provider>
      <div>
        <Button type="submit" variant="primary" busy={busy}>
          {submit}
        </Button>
      </div>
    </form>
  );
}
