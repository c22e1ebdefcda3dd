import { useEffect, useState } from "preact/hooks";
import { TextField } from "../../components/field";
import { t } from "./strings";

/**
 * The inbox's full-text search: what is typed is sent as `keyword` once typing pauses, so each key
 * press is not a request. A change from outside (Clear filters) replaces what was typed.
 */
export function SearchBox({ value, onChange }: { value: string; onChange: (keyword: string) => void }) {
  const [typed, setTyped] = useState(value);
  useEffect(() => setTyped(value), [value]);
  useEffect(() => {
    if (typed.trim() === value) return;
    const timer = setTimeout(() => onChange(typed.trim()), 350);
    return () => clearTimeout(timer);
  }, [typed]);
  return (
    <TextField
      label={t("search")}
      type="search"
      class="inbox-search"
      value={typed}
      hint={t("searchHint")}
      onInput={(e) => setTyped(e.currentTarget.value)}
    />
  );
}
