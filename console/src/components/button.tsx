import type { ButtonHTMLAttributes } from "preact";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "danger" | "quiet";
  busy?: boolean;
};

/** A button; `busy` disables it and tells assistive technology that its action is under way. */
export function Button({
  variant = "secondary",
  busy = false,
  class: extra,
  type = "button",
  disabled,
  children,
  ...rest
}: Props) {
  return (
    <button
      {...rest}
      type={type}
      class={`btn ${variant}${extra ? ` ${extra}` : ""}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
