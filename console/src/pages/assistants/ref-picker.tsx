import { CheckList } from "../../components";
import type { IdName } from "./api";
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

/**
 * A `[{id}]` list of the record (knowledge bases, tools, skills, groups) as a group of checkboxes,
 * kept in the assistant's draft. The current ones show first, even when the member cannot list the
 * rest (or they are past the first 100).
 */
export function RefPicker({ legend, hint, options, value, onChange, error }: Props) {
  return (
    <CheckList
      class="ref-picker"
      legend={legend}
      hint={options === null ? t("cannotList") : hint}
      options={options}
      chosen={value}
      onChange={onChange}
      empty={t("noneAvailable")}
      error={error}
    />
  );
}
