import type { ComponentChildren, InputHTMLAttributes, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from "preact";
import { useId } from "preact/hooks";

interface Common {
  label: string;
  /** Shown under the control and read with it. */
  hint?: ComponentChildren;
  /** The API's message for this field (ApiProblem.field), shown and read as the control's error. */
  error?: string;
}

function described(id: string, hint: unknown, error: unknown) {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

function Notes({ id, hint, error }: { id: string; hint?: ComponentChildren; error?: string }) {
  return (
    <>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled text input. */
export function TextField({ label, hint, error, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div class={`field${error ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
      />
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled multi-line text box; `class` goes to the field, `areaRef` to the textarea. */
export function TextAreaField({
  label,
  hint,
  error,
  class: extra,
  areaRef,
  ...area
}: Common & { areaRef?: Ref<HTMLTextAreaElement> } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div class={`field${error ? " invalid" : ""}${extra ? ` ${extra}` : ""}`}>
      <label for={id}>{label}</label>
      <textarea
        ref={areaRef}
        id={id}
        rows={4}
        {...area}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
      />
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled select; `options` are [value, label] pairs, with `true` third for one that cannot be picked. */
export function SelectField({
  label,
  hint,
  error,
  options,
  ...select
}: Common & { options: ([string, string] | [string, string, boolean])[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div class={`field${error ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      <select id={id} {...select} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)}>
        {options.map(([value, text, disabled]) => (
          <option key={value} value={value} disabled={disabled || undefined}>
            {text}
          </option>
        ))}
      </select>
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled checkbox. */
export function CheckboxField({ label, hint, error, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input
        {...(input as Record<string, unknown>)}
        id={id}
        type="checkbox"
        aria-describedby={described(id, hint, error)}
      />
      <label for={id}>{label}</label>
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}
