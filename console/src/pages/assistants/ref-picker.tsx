import { useId } from "preact/hooks";
import type { IdName } from "./assistant-api";
import { t } from "./strings";

interface Props {
  legend: string;
  hint?: string;
  /** What may be picked; null when the member may not list them (only the current ones show). */
  options: IdName[] | null;
  value: IdName[];
  onChange: (value: IdName[]) => void;
  error?: string;
}

/** A `[{id}]` list of the record (knowledge bases, tools, skills, groups) as a group of checkboxes. */
export function RefPicker({ legend, hint, options, value, onChange, error }: Props) {
  const id = useId();
  const chosen = new Set(value.map((v) => v.id));
  // The current ones first, even when the member cannot list the rest (or they are past the first 100).
  const shown = [...value, ...(options ?? []).filter((o) => !chosen.has(o.id))];
  const toggle = (item: IdName, on: boolean) => onChange(on ? [...value, item] : value.filter((v) => v.id !== item.id));
  const described =
    [hint || options === null ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset class={`ref-picker${error ? " invalid" : ""}`} aria-describedby={described}>
      <legend>{legend}</legend>
      {(hint || options === null) && (
        <p class="hint" id={`${id}-hint`}>
          {options === null ? t("cannotList") : hint}
        </p>
      )}
      {shown.length === 0 ? (
        <p class="muted small">{t("noneAvailable")}</p>
      ) : (
        <ul class="choices">
          {shown.map((item) => (
            <li key={item.id}>
              <label>
                <input
                  type="checkbox"
                  checked={chosen.has(item.id)}
                  onChange={(e) => toggle(item, e.currentTarget.checked)}
                />
                {item.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
