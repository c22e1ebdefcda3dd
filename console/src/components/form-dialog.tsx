import type { ComponentChildren, Ref } from "preact";
import { useId } from "preact/hooks";
import { FormError } from "./alert";
import { Button } from "./button";
import { ActionDialog } from "./dialog";
import { FormProblem } from "./field";
import { t } from "./strings";
import { type Submit, useSubmit } from "./use-submit";

/**
 * How a form submits: `save` with the form's data (useSubmit keeps its busy state and the API's
 * problem), or, where the page needs that state itself (the problem at a field of another name),
 * its own `useSubmit` as `submitting`.
 */
export type Submitting =
  | { save: (form: FormData) => Promise<void>; submitting?: never }
  | { save?: never; submitting: Submit };

/** The submit state of `Submitting`, from its own `useSubmit` when the form gave `save`. */
function useSubmitting({ save, submitting }: Submitting) {
  const own = useSubmit(save ?? (async () => {}));
  return submitting ?? own;
}

/**
 * The submit button's text: `submit`, or, for a form that either adds a record or changes one, "Add"
 * where it adds (`adding`) and "Save" where it changes.
 */
type SubmitText = { submit: string; adding?: never } | { adding: boolean; submit?: never };

/**
 * A dialog holding one form: Cancel and the submit button (SubmitText, busy while it runs) at the
 * bottom, the API's problem above the fields and at each field of its name (FormProblem).
 */
export function FormDialog({
  title,
  formId,
  submit,
  adding,
  onClose,
  children,
  open = true,
  submitDisabled,
  noValidate,
  formRef,
  actions,
  ...how
}: {
  title: string;
  /** The form's id, which ties the footer's submit button (outside the form) to it; a unique one by default. */
  formId?: string;
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
} & SubmitText &
  Submitting) {
  const { busy, problem, submit: onSubmit } = useSubmitting(how as Submitting);
  const ownId = useId();
  const id = formId ?? ownId;
  return (
    <ActionDialog
      title={title}
      open={open}
      onClose={onClose}
      extra={actions}
      action={
        <Button type="submit" form={id} variant="primary" busy={busy} disabled={submitDisabled}>
          {submit ?? t(adding ? "add" : "save")}
        </Button>
      }
    >
      <form id={id} ref={formRef} onSubmit={onSubmit} class="stack" noValidate={noValidate}>
        <FormError problem={problem} />
        <FormProblem.Provider value={problem}>{children}</FormProblem.Provider>
      </form>
    </ActionDialog>
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
  ...how
}: {
  /** The form's class beside `stack` (its width on the page). */
  class: string;
  submit: string;
  formRef?: Ref<HTMLFormElement>;
  /** The id of the heading that names the form, where the form is a landmark of its own. */
  labelledBy?: string;
  children: ComponentChildren;
} & Submitting) {
  const { busy, problem, submit: onSubmit } = useSubmitting(how as Submitting);
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

/**
 * The bar under a form that stands in a page with its own layout (settings of an inbox, a web chat's
 * designer): the submit button (`text`, busy while it saves), then what goes beside it.
 */
export function SaveBar({ text, busy, children }: { text: string; busy: boolean; children?: ComponentChildren }) {
  return (
    <div class="save-bar">
      <Button type="submit" variant="primary" busy={busy}>
        {text}
      </Button>
      {children}
    </div>
  );
}
