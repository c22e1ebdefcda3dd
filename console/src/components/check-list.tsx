import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import { Loading } from "./alert";
import { described, useError } from "./field";
import type { Resource } from "./use-resource";

type IdName = { id: string; name: string };

/**
 * What to choose from: `options` (none yet, or null where the member may not list them), or the
 * load of them as `choices` ("loading" shows until its first answer).
 */
type From =
  | { options: IdName[] | null | undefined; choices?: never }
  | { choices: Pick<Resource<IdName[] | null>, "data" | "loading">; options?: never };

type Props = From & {
  legend: string;
  hint?: ComponentChildren;
  /** The checkboxes' name in the form (their values are the ids): read from the form when not controlled. */
  name?: string;
  /** The record's current choice: ticked, and listed even when `options` lacks them. */
  chosen?: IdName[];
  /** Controlled: the choice changes only through `onChange`, and `chosen` is the current choice. */
  onChange?: (chosen: IdName[]) => void;
  /** Another class beside `check-list` (a page's own size). */
  class?: string;
  /** Shown when there is nothing to choose from. */
  empty: string;
  /**
   * The API's message for this field, shown and read with the group; without it, the form's problem at `name`
   * (FormProblem), as at a text field.
   */
  error?: string;
  /** Shown but not chosen from (nor sent with the form): e.g. a list the member may not read. */
  disabled?: boolean;
};

/**
 * Records chosen by checkboxes (a record's groups, assistants, tools): read from the form as ids, or
 * controlled (`onChange` with the new choice, for a form that keeps a draft).
 */
export function CheckList(props: Props) {
  const { legend, hint, name, chosen = [], onChange, empty, error: _, disabled, ...rest } = props;
  const error = useError(props);
  const id = useId();
  const options = rest.choices ? rest.choices.data : rest.options;
  const ticked = new Set(chosen.map((o) => o.id));
  const shown = [...chosen, ...(options ?? []).filter((o) => !ticked.has(o.id))];
  return (
    <fieldset
      class={`check-list${rest.class ? ` ${rest.class}` : ""}${error ? " invalid" : ""}`}
      aria-describedby={described(id, hint, error)}
      disabled={disabled}
    >
      <legend>{legend}</legend>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {rest.choices?.loading && !options ? (
        <Loading />
      ) : shown.length === 0 ? (
        <p class="muted small">{empty}</p>
      ) : (
        <ul class="choices">
          {shown.map((o) => (
            <li key={o.id}>
              <label>
                <input
                  type="checkbox"
                  {...(onChange
                    ? {
                        checked: ticked.has(o.id),
                        onChange: (e: Event) => {
                          const on = (e.currentTarget as HTMLInputElement).checked;
                          onChange(on ? [...chosen, o] : chosen.filter((c) => c.id !== o.id));
                        },
                      }
                    : { name, value: o.id, defaultChecked: ticked.has(o.id) })}
                />
                {o.name}
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

/** The ticked ids of a CheckList, as the API takes a list of records (`[{id}]`). */
export const pickedIds = (form: FormData, name: string) => form.getAll(name).map((id) => ({ id: String(id) }));
