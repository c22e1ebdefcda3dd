import type { ButtonHTMLAttributes } from "preact";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "danger" | "quiet";
  busy?: boolean;
  /**
   * Unavailable for now but kept in the tab order (`aria-disabled`): for a button its own click makes unavailable,
   * which, disabled, would drop the focus to the page.
   */
  held?: boolean;
};

/** A button; `busy` disables it and tells assistive technology that its action is under way. */
export function Button({
  variant = "secondary",
  busy = false,
  held = false,
  class: extra,
  type = "button",
  disabled,
  onClick,
  children,
  ...rest
}: Props) {
  return (
    <button
      {...rest}
      type={type}
      class={`btn ${variant}${extra ? ` ${extra}` : ""}`}
      disabled={disabled || busy}
      aria-disabled={held || undefined}
      onClick={held ? undefined : onClick}
      aria-busy={busy || undefined}
    >
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
