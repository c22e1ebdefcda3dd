import { Button } from "../../components/button";
import { SelectField, TextField } from "../../components/field";
import { NO_FILTERS, PROGRESS_STATUSES, STATUSES, TEST_CHOICES, type Filters, type Option } from "./api";
import { SearchBox } from "./search-box";
import { t } from "./strings";

/** The list's filters; each change applies at once. */
export function FiltersForm({
  value,
  onChange,
  options,
}: {
  value: Filters;
  onChange: (f: Filters) => void;
  options?: { chatbots: Option[]; inboxes: Option[]; contacts: Option[]; labels: Option[] };
}) {
  const any: Option = ["", t("any")];
  const set = (key: keyof Filters) => (e: Event) =>
    onChange({ ...value, [key]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  return (
    <form class="inbox-filters" aria-label={t("filters")} onSubmit={(e) => e.preventDefault()}>
      <SearchBox value={value.keyword} onChange={(keyword) => onChange({ ...value, keyword })} />
      <SelectField
        label={t("assistant")}
        value={value.chatbot}
        onChange={set("chatbot")}
        options={[any, ...(options?.chatbots ?? [])]}
      />
      <SelectField
        label={t("inbox")}
        value={value.inbox}
        onChange={set("inbox")}
        options={[any, ...(options?.inboxes ?? [])]}
      />
      <SelectField
        label={t("status")}
        value={value.status}
        onChange={set("status")}
        options={[any, ...STATUSES.map((s): Option => [s, t(s)])]}
      />
      <SelectField
        label={t("progress")}
        value={value.progressStatus}
        onChange={set("progressStatus")}
        options={[any, ...PROGRESS_STATUSES.map((s): Option => [s, t(s)])]}
      />
      <SelectField
        label={t("label")}
        value={value.label}
        onChange={set("label")}
        options={[any, ...(options?.labels ?? [])]}
      />
      <SelectField
        label={t("contact")}
        value={value.contact}
        onChange={set("contact")}
        options={[any, ...(options?.contacts ?? [])]}
      />
      <SelectField
        label={t("tests")}
        value={value.isTest}
        onChange={set("isTest")}
        options={[["", t("testsAll")], ...TEST_CHOICES.map((s): Option => [s, t(`tests_${s}`)])]}
      />
      <TextField label={t("from")} type="date" value={value.startDate} onChange={set("startDate")} />
      <TextField label={t("to")} type="date" value={value.endDate} onChange={set("endDate")} />
      <Button
        variant="quiet"
        disabled={JSON.stringify(value) === JSON.stringify(NO_FILTERS)}
        onClick={() => onChange(NO_FILTERS)}
      >
        {t("clear")}
      </Button>
    </form>
  );
}
