import type { Ref, TextareaHTMLAttributes } from "preact";
import { useId } from "preact/hooks";

/** A labelled multi-line text box, like the kit's TextField (hint, and the API's error read with it). */
export function TextAreaField({ label, hint, error, class: extra, areaRef, ...area }: { label: string; hint?: string; error?: string; areaRef?: Ref<HTMLTextAreaElement> } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${error ? " invalid" : ""}${extra ? ` ${extra}` : ""}`}>
      <label for={id}>{label}</label>
      <textarea ref={areaRef} id={id} rows={4} {...area} aria-invalid={error ? true : undefined} aria-describedby={described} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
