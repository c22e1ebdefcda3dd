import type { TextareaHTMLAttributes } from "preact";
import { useId } from "preact/hooks";

/** A labelled multi-line field (headers, a template), with the kit's hint and error conventions. */
export function TextareaField({ label, hint, error, ...area }: { label: string; hint?: string; error?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${error ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      <textarea id={id} rows={4} spellcheck={false} {...area} aria-invalid={error ? true : undefined} aria-describedby={described} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
