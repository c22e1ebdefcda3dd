import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { Button } from "./button";
import { t } from "./strings";

interface Props {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
  /** Buttons at the bottom (the dialog's own Close button is always there). */
  footer?: ComponentChildren;
}

/** A form's first field in a dialog's body, where typing begins. */
const FIRST_FIELD =
  ".dialog-body :is(input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea):not(:disabled)";

/** The dialogs shown now, oldest first, each with where the focus goes back when it closes. */
const shown: { dialog: HTMLDialogElement; opener: Element | null }[] = [];

/**
 * Gives the focus back to what opened `dialog`, once, however it closed (its close event, or unmounted open).
 * A dialog that opened while this one was closing (a form dialog, then the secret it made shown in a
 * SecretDialog) had no real opener: the focus was in this one, or nowhere once its button was gone, and
 * Preact may run the new dialog's effect before the old one's cleanup. That dialog takes over this one's
 * return target, so the button that began the chain gets the focus back when the last dialog closes.
 */
function giveFocusBack(dialog: HTMLDialogElement) {
  const at = shown.findIndex((s) => s.dialog === dialog);
  if (at < 0) return;
  const [{ opener }] = shown.splice(at, 1);
  for (const other of shown) {
    const from = other.opener;
    if (!from || from === document.body || !from.isConnected || dialog.contains(from)) other.opener = opener;
  }
  // A deleted row's button left with its row (the list reloads before the dialog closes): the page's heading takes
  // the focus then, not the page's body. Refused (the page is inert) while a dialog that took over is open: it keeps
  // the focus.
  const target = opener?.isConnected ? opener : document.querySelector("main h1");
  (target as HTMLElement | null)?.focus?.();
}

/**
 * A modal dialog on the native <dialog>: the browser keeps focus inside it, Escape closes it, and
 * the rest of the page is inert. Focus returns to what opened it.
 */
export function Dialog({ title, open, onClose, children, footer }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current!;
    if (open && !dialog.open) {
      shown.push({ dialog, opener: document.activeElement });
      dialog.showModal();
      // The browser focuses the first control, the Close button: a keyboard user who began to type pressed it with a
      // space. A form's first field takes the focus instead (one with autofocus has it already).
      if (!dialog.querySelector("[autofocus]")) dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  // Unmounted while open (its parent stopped rendering it): the focus still goes back. The ref is cleared by then.
  useEffect(() => {
    const dialog = ref.current!;
    return () => giveFocusBack(dialog);
  }, []);
  const closed = () => {
    giveFocusBack(ref.current!);
    if (open) onClose();
  };
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={`${id}-title`} onClose={closed}>
      <div class="dialog-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" class="btn quiet icon" aria-label={t("close")} onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {open && <div class="dialog-body">{children}</div>}
      {open && footer && <div class="dialog-foot">{footer}</div>}
    </dialog>
  );
}

/**
 * A dialog that does one thing: at the bottom Cancel (it closes the dialog) and `action`, the button
 * that does it, after `extra`, what the dialog does besides (e.g. remove what its form sets).
 */
export function ActionDialog({
  action,
  extra,
  onClose,
  ...dialog
}: Omit<Props, "footer"> & {
  action: ComponentChildren;
  extra?: ComponentChildren;
}) {
  return (
    <Dialog
      {...dialog}
      onClose={onClose}
      footer={
        <>
          {extra}
          <Button onClick={onClose}>{t("cancel")}</Button>
          {action}
        </>
      }
    />
  );
}
