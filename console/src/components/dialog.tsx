import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { t } from "./strings";

interface Props {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
  /** Buttons at the bottom (the dialog's own Close button is always there). */
  footer?: ComponentChildren;
}

/**
 * A modal dialog on the native <dialog>: the browser keeps focus inside it, Escape closes it, and
 * the rest of the page is inert. Focus returns to what opened it.
 */
export function Dialog({ title, open, onClose, children, footer }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current!;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  // Unmounted while open (its parent stopped rendering it): the focus still goes back.
  useEffect(() => () => (opener.current as HTMLElement | null)?.focus?.(), []);
  const closed = () => {
    (opener.current as HTMLElement | null)?.focus?.();
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
