// Page-local controls the shared kit lacks: a labelled textarea, and a group of checkboxes choosing
// records by id (groups, assistants, labels).
import type { TextareaHTMLAttributes } from "preact";
import { useId } from "preact/hooks";

export function TextArea({ label, error, ...area }: { label: string; error?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div class={`field${error ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      <textarea id={id} rows={4} {...area} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** Checkboxes named `name`, one per option, checked for the ids in `chosen`; `note` replaces them when there are none. */
export function CheckList({ legend, name, options, chosen, note, disabled }: { legend: string; name: string; options: { id: string; name: string }[]; chosen: string[]; note?: string; disabled?: boolean }) {
  return (
    <fieldset class="kb-checklist" disabled={disabled}>
      <legend>{legend}</legend>
      {options.length === 0 && note && <p class="muted small">{note}</p>}
      {options.map((o) => (
        <label key={o.id}>
          <input type="checkbox" name={name} value={o.id} defaultChecked={chosen.includes(o.id)} /> {o.name}
        </label>
      ))}
    </fieldset>
  );
}
