import { useContext, useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button, FormProblem, TextField } from "../../components";
import { valueText } from "./parts";
import { t } from "./strings";

/** One custom field being edited; `json`: its value was not a string, so its text is JSON and is read back as JSON. */
export interface FieldRow {
  id: number;
  key: string;
  value: string;
  json: boolean;
}

let nextRow = 0;
const row = (key = "", value: unknown = ""): FieldRow => ({
  id: nextRow++,
  key,
  value: valueText(value),
  json: typeof value !== "string",
});

/** The rows of a contact's `metadata` (one empty row for a contact without any, to type into). */
export const rowsOf = (metadata: Record<string, unknown> | undefined): FieldRow[] => {
  const rows = Object.entries(metadata ?? {}).map(([k, v]) => row(k, v));
  return rows.length ? rows : [row()];
};

const invalid = (message: string) => new ApiProblem(400, message, "invalid", { metadata: [message] });

/**
 * The `metadata` the rows say: blank rows are left out; a value without a name, a name given twice, or JSON that does
 * not parse is refused here (an ApiProblem at `metadata`, as the API would name it), before anything is sent.
 */
export function metadataOf(rows: FieldRow[]): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key && !r.value.trim()) continue;
    if (!key) throw invalid(t("emptyKey"));
    if (key in metadata) throw invalid(t("duplicateKey", { key }));
    if (!r.json) metadata[key] = r.value;
    else {
      try {
        metadata[key] = JSON.parse(r.value);
      } catch {
        throw invalid(t("invalidJson", { key }));
      }
    }
  }
  return metadata;
}

/**
 * The custom fields as rows of name and value, each removable, and "Add a field". Controlled: the form keeps the rows
 * and reads them with `metadataOf` when it saves. A new row's name field takes the focus; a removed row's place goes to
 * the next row (or "Add a field"). The form's problem at `metadata` shows under the rows.
 */
export function FieldsEditor({ rows, onChange }: { rows: FieldRow[]; onChange: (rows: FieldRow[]) => void }) {
  // The form's problem (ours from metadataOf, or the API's) at `metadata`.
  const error = useContext(FormProblem)?.field("metadata");
  const box = useRef<HTMLFieldSetElement>(null);
  const errorId = useId();
  // After a row is added or removed, the focus goes where the member's next step is (a selector in the box).
  const [focus, setFocus] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (!focus) return;
    box.current?.querySelector<HTMLElement>(focus)?.focus();
    setFocus(null);
  }, [focus]);
  const set = (id: number, change: Partial<FieldRow>) =>
    onChange(rows.map((r) => (r.id === id ? { ...r, ...change } : r)));
  return (
    <fieldset
      ref={box}
      class={`plain contact-fields-editor${error ? " invalid" : ""}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend>{t("customFields")}</legend>
      {rows.some((r) => r.json) && <p class="hint">{t("jsonHint")}</p>}
      <ol>
        {rows.map((r, i) => (
          <li key={r.id} data-row={r.id}>
            <TextField
              label={t("fieldKey", { n: i + 1 })}
              value={r.key}
              maxLength={100}
              error={undefined}
              onInput={(e) => set(r.id, { key: e.currentTarget.value })}
            />
            <TextField
              label={t(r.json ? "fieldValueJson" : "fieldValue", { n: i + 1 })}
              value={r.value}
              error={undefined}
              onInput={(e) => set(r.id, { value: e.currentTarget.value })}
            />
            <Button
              variant="quiet"
              aria-label={t("removeField", { n: i + 1 })}
              onClick={() => {
                const rest = rows.filter((x) => x.id !== r.id);
                setFocus(rest[i] ? `[data-row="${rest[i].id}"] input` : ".contact-add-field");
                onChange(rest);
              }}
            >
              ×
            </Button>
          </li>
        ))}
      </ol>
      <Button
        class="contact-add-field"
        onClick={() => {
          const added = row();
          setFocus(`[data-row="${added.id}"] input`);
          onChange([...rows, added]);
        }}
      >
        {t("addField")}
      </Button>
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
