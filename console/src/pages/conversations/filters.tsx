import { useId, useState } from "preact/hooks";
import { Button, SelectField, TextField } from "../../components";
import { NO_FILTERS, PROGRESS_STATUSES, STATUSES, TEST_CHOICES, type Filters, type Option } from "./api";
import { SearchBox } from "./search-box";
import { t } from "./strings";

/** The filters besides the search and the view (which have their own controls): how many are set. */
const setFilters = (f: Filters) =>
  (Object.keys(NO_FILTERS) as (keyof Filters)[]).filter(
    (k) => k !== "keyword" && k !== "view" && f[k] !== NO_FILTERS[k],
  ).length;

/**
 * The list's filters; each change applies at once. The search is always shown; on a narrow screen the other fields
 * fold behind a "Filters" button (saying how many are set), so the list is not pushed a screen down (inbox.css).
 */
export function FiltersForm({
  value,
  onChange,
  options,
  contactName,
}: {
  value: Filters;
  onChange: (f: Filters) => void;
  options?: { chatbots: Option[]; inboxes: Option[]; contacts: Option[]; labels: Option[] };
  /** The name of the contact filtered by, where the page knows it: shown when the choices (the first 100 contacts,
   * none without `contact.view`) lack them, as after a link to one contact's conversations. */
  contactName?: string;
}) {
  const any: Option = ["", t("any")];
  /** A field's value, the filter `key`, and its change, which sets it. */
  const bind = (key: keyof Filters) => ({
    value: value[key],
    onChange: (e: Event) =>
      onChange({ ...value, [key]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value }),
  });
  const [expanded, setExpanded] = useState(false);
  const fieldsId = useId();
  const active = setFilters(value);
  const contacts = options?.contacts ?? [];
  const contactChoices: Option[] =
    value.contact && !contacts.some(([id]) => id === value.contact)
      ? [[value.contact, contactName ?? t("thisContact")], ...contacts]
      : contacts;
  return (
    <form
      class={`inbox-filters${expanded ? " expanded" : ""}`}
      aria-label={t("filters")}
      onSubmit={(e) => e.preventDefault()}
    >
      <SearchBox value={value.keyword} onChange={(keyword) => onChange({ ...value, keyword })} />
      <Button
        class="inbox-filters-toggle"
        aria-expanded={expanded}
        aria-controls={fieldsId}
        onClick={() => setExpanded(!expanded)}
      >
        {active ? t("filtersSet", { n: active }) : t("filters")}
      </Button>
      <div id={fieldsId} class="inbox-filter-fields">
        <SelectField label={t("assistant")} {...bind("chatbot")} options={[any, ...(options?.chatbots ?? [])]} />
        <SelectField label={t("inbox")} {...bind("inbox")} options={[any, ...(options?.inboxes ?? [])]} />
        <SelectField
          label={t("status")}
          {...bind("status")}
          options={[any, ...STATUSES.map((s): Option => [s, t(s)])]}
        />
        <SelectField
          label={t("progress")}
          {...bind("progressStatus")}
          options={[any, ...PROGRESS_STATUSES.map((s): Option => [s, t(s)])]}
        />
        <SelectField label={t("label")} {...bind("label")} options={[any, ...(options?.labels ?? [])]} />
        <SelectField label={t("contact")} {...bind("contact")} options={[any, ...contactChoices]} />
        <SelectField
          label={t("tests")}
          {...bind("isTest")}
          options={[["", t("testsAll")], ...TEST_CHOICES.map((s): Option => [s, t(`tests_${s}`)])]}
        />
        <TextField label={t("from")} type="date" {...bind("startDate")} />
        <TextField label={t("to")} type="date" {...bind("endDate")} />
        <Button
          variant="quiet"
          disabled={JSON.stringify(value) === JSON.stringify(NO_FILTERS)}
          onClick={() => onChange(NO_FILTERS)}
        >
          {t("clear")}
        </Button>
      </div>
    </form>
  );
}
