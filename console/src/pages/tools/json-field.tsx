import { useId } from "preact/hooks";
import { t } from "./strings";

/** A labelled multi-line field (code, JSON), monospaced. */
export function TextAreaField({ label, name, value, hint, error, rows = 4, required }: { label: string; name: string; value?: string; hint?: string; error?: string; rows?: number; required?: boolean }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${error ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      <textarea id={id} name={name} rows={rows} class="code" defaultValue={value} required={required} spellcheck={false} aria-invalid={error ? true : undefined} aria-describedby={described} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** A JSON object typed in a field: null when empty; throws a message naming the field when it is not an object. */
export function jsonObject(text: string, field: string): Record<string, unknown> | null {
  if (!text.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonFieldError(field, t("notJson"));
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new JsonFieldError(field, t("notJsonObject"));
  return value as Record<string, unknown>;
}

export class JsonFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const pretty = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));
