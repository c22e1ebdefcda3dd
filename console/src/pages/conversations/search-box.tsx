import { useEffect, useRef, useState } from "preact/hooks";
import { SEARCH_DELAY_MS, TextField } from "../../components";
import { t } from "./strings";

/**
 * The inbox's full-text search: what is typed is sent as `keyword` once typing pauses, so each key
 * press is not a request. A change from outside (Clear filters) replaces what was typed; the box's own
 * keyword coming back as `value` does not, since more may have been typed before it came back.
 */
export function SearchBox({ value, onChange }: { value: string; onChange: (keyword: string) => void }) {
  const [typed, setTyped] = useState(value);
  const sent = useRef(value);
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setTyped(value);
  }, [value]);
  useEffect(() => {
    const keyword = typed.trim();
    if (keyword === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = keyword;
      onChange(keyword);
    }, SEARCH_DELAY_MS);
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
