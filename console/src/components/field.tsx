import {
  createContext,
  type ComponentChildren,
  type InputHTMLAttributes,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "preact";
import { useContext, useId } from "preact/hooks";
import type { ApiProblem } from "../api/client";

interface Common {
  label: string;
  /** Shown under the control and read with it. */
  hint?: ComponentChildren;
  /** The API's message for this field (ApiProblem.field), shown and read as the control's error. */
  error?: string;
}

/**
 * The API's problem with the form the fields stand in (FormDialog and PageForm give it): a text field
 * or select with a `name` and no `error` prop shows the API's message for that name. A field given
 * `error`, even undefined, shows only that (its message is under another name, or none).
 */
export const FormProblem = createContext<ApiProblem | null>(null);

export function useError(props: { name?: unknown; error?: string }) {
  const problem = useContext(FormProblem);
  if ("error" in props || typeof props.name !== "string") return props.error;
  return problem?.field(props.name);
}

/** The ids of a control's hint and error (as `Notes` gives them), for its `aria-describedby`. */
export function described(id: string, hint: unknown, error: unknown) {
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

/** The names of `R`'s properties a text field can hold (strings or numbers, or nothing). */
type TextKeys<R> = { [P in keyof R]-?: R[P] extends string | number | null | undefined ? P : never }[keyof R];

/**
 * For a form whose fields are named as `record`'s properties and labelled with the page's strings of
 * the same names: the props a text field takes from its name, its `label`, `name`, and `record`'s
 * value as `defaultValue` (none for a new record, or where the record holds null).
 */
export function fieldsOf<R extends object, K extends string>(record: R | null | undefined, label: (key: K) => string) {
  return <N extends TextKeys<R> & K>(name: N) => ({
    label: label(name),
    name,
    defaultValue: (record?.[name] ?? undefined) as string | number | undefined,
  });
}

/** A labelled text input. */
export function TextField(props: Common & InputHTMLAttributes<HTMLInputElement>) {
  const { label, hint, error: _, ...input } = props;
  const error = useError(props);
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
export function TextAreaField(
  props: Common & { areaRef?: Ref<HTMLTextAreaElement> } & TextareaHTMLAttributes<HTMLTextAreaElement>,
) {
  const { label, hint, error: _, class: extra, areaRef, ...area } = props;
  const error = useError(props);
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
export function SelectField(
  props: Common & {
    options: ([string, string] | [string, string, boolean])[];
  } & SelectHTMLAttributes<HTMLSelectElement>,
) {
  const { label, hint, error: _, options, ...select } = props;
  const error = useError(props);
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

/** A new password and the same again (password managers offer to make one), each of 8 characters or more. */
export function NewPasswordFields({
  names,
  labels,
  hint,
}: {
  names: [string, string];
  labels: [string, string];
  /** Under the first. */
  hint: string;
}) {
  const common = { type: "password", autoComplete: "new-password", required: true, minLength: 8 } as const;
  return (
    <>
      <TextField label={labels[0]} name={names[0]} {...common} hint={hint} />
      <TextField label={labels[1]} name={names[1]} {...common} />
    </>
  );
}
