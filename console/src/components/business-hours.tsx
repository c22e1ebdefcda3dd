import { Fragment } from "preact";
import { useState } from "preact/hooks";
import type { Schemas } from "../api/client";
import { patchInbox } from "./api";
import { FormError } from "./alert";
import { Button } from "./button";
import { SaveBar } from "./form-dialog";
import { CheckboxField, TextAreaField, TextField } from "./field";
import { toast } from "./toast";
import { useSubmit } from "./use-submit";
import { t } from "./business-hours-strings";

type BusinessHours = Schemas["BusinessHours"];
const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
type Day = (typeof DAYS)[number];
type Period = [string, string];
/** A period's two ends: when it opens, when it closes. */
const ENDS = [0, 1] as const;
/** A new period's hours (each weekday's, before any hours are set), and the placeholders of its ends. */
const USUAL_HOURS = ["09:00", "18:00"] as const;

interface Draft {
  enabled: boolean;
  timeZone: string;
  weekly: Record<Day, Period[]>;
  holidays: string;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const ZONES: string[] = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];

function draftOf(hours: BusinessHours | null | undefined): Draft {
  const weekly = Object.fromEntries(
    DAYS.map((d) => [d, (hours?.weekly?.[d] ?? []).map((p) => [p[0] ?? "", p[1] ?? ""] as Period)]),
  ) as Record<Day, Period[]>;
  if (!hours) for (const d of ["mon", "tue", "wed", "thu", "fri"] as const) weekly[d] = [[...USUAL_HOURS]];
  return {
    enabled: !!hours,
    timeZone: hours?.timeZone ?? browserZone(),
    weekly,
    holidays: (hours?.holidays ?? []).join("\n"),
  };
}

/** What the API is sent: null when off; the periods as typed (the API says what is wrong with them). */
function hoursOf(d: Draft): BusinessHours | null {
  if (!d.enabled) return null;
  const weekly = Object.fromEntries(
    DAYS.filter((day) => d.weekly[day].length).map((day) => [
      day,
      d.weekly[day].map((p) => [p[0].trim(), p[1].trim()]),
    ]),
  );
  return { timeZone: d.timeZone.trim(), weekly, holidays: d.holidays.split(/[\s,]+/).filter(Boolean) };
}

/**
 * An inbox's business hours (`businessHours` of PATCH inboxes/{id}/): a time zone, periods per
 * weekday (several a day), holidays. Its own form and save: the page around it edits other things.
 */
export function BusinessHoursForm({
  inboxId,
  hours,
  canManage,
  onSaved,
}: {
  inboxId: string;
  hours: BusinessHours | null | undefined;
  canManage: boolean;
  onSaved?: (hours: BusinessHours | null) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(hours));
  const change = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  const setPeriods = (day: Day, periods: Period[]) => change({ weekly: { ...draft.weekly, [day]: periods } });
  const { busy, problem, submit } = useSubmit(async () => {
    const inbox = await patchInbox(inboxId, { businessHours: hoursOf(draft) });
    setDraft(draftOf(inbox.businessHours));
    onSaved?.(inbox.businessHours ?? null);
    toast(t("saved"));
  });
  /** The API's messages for fields under `prefix` (`businessHours.weekly.mon` covers each of Monday's periods). */
  const errorAt = (prefix: string) => {
    const found = Object.entries(problem?.errors ?? {}).filter(([k]) => k === prefix || k.startsWith(`${prefix}.`));
    return found.length ? [...new Set(found.flatMap(([, m]) => m))].join(" ") : undefined;
  };
  return (
    <section class="section business-hours" aria-labelledby="business-hours-title">
      <h2 id="business-hours-title">{t("title")}</h2>
      <p class="muted">{t("intro")}</p>
      <form class="stack" onSubmit={submit} aria-labelledby="business-hours-title">
        <FormError problem={problem} />
        <fieldset class="plain" disabled={!canManage}>
          <div class="stack">
            <CheckboxField
              label={t("enabled")}
              hint={t("enabledHint")}
              checked={draft.enabled}
              onChange={(e) => change({ enabled: e.currentTarget.checked })}
            />
            {draft.enabled && (
              <>
                <TextField
                  label={t("timeZone")}
                  hint={t("timeZoneHint")}
                  value={draft.timeZone}
                  list="business-hours-zones"
                  spellcheck={false}
                  onInput={(e) => change({ timeZone: e.currentTarget.value })}
                  error={errorAt("businessHours.timeZone")}
                />
                <datalist id="business-hours-zones">
                  {ZONES.map((z) => (
                    <option key={z} value={z} />
                  ))}
                </datalist>
                <fieldset class="hours-week">
                  <legend>{t("weekly")}</legend>
                  <p class="hint">{t("timeHint")}</p>
                  {DAYS.map((day) => (
                    <DayRow
                      key={day}
                      day={day}
                      periods={draft.weekly[day]}
                      onChange={(p) => setPeriods(day, p)}
                      error={errorAt(`businessHours.weekly.${day}`)}
                    />
                  ))}
                </fieldset>
                <TextAreaField
                  label={t("holidays")}
                  hint={t("holidaysHint")}
                  rows={3}
                  value={draft.holidays}
                  onInput={(e) => change({ holidays: e.currentTarget.value })}
                  error={errorAt("businessHours.holidays")}
                />
              </>
            )}
          </div>
        </fieldset>
        {canManage && <SaveBar text={t("save")} busy={busy} />}
      </form>
    </section>
  );
}

function DayRow({
  day,
  periods,
  onChange,
  error,
}: {
  day: Day;
  periods: Period[];
  onChange: (periods: Period[]) => void;
  error?: string;
}) {
  const name = t(day);
  const set = (i: number, at: 0 | 1, value: string) =>
    onChange(periods.map((p, j) => (j === i ? ((at ? [p[0], value] : [value, p[1]]) as Period) : p)));
  return (
    <div class={`hours-day${error ? " invalid" : ""}`} role="group" aria-label={name}>
      <span class="hours-day-name">{name}</span>
      <div class="hours-periods">
        {!periods.length && <span class="muted">{t("closed")}</span>}
        {periods.map((p, i) => (
          <span class="hours-period" key={i}>
            {ENDS.map((at) => (
              <Fragment key={at}>
                {at === 1 && <span aria-hidden="true">–</span>}
                <input
                  type="text"
                  inputMode="numeric"
                  size={5}
                  value={p[at]}
                  placeholder={USUAL_HOURS[at]}
                  aria-label={t(at ? "closes" : "opens", { day: name, n: i + 1 })}
                  aria-invalid={error ? true : undefined}
                  onInput={(e) => set(i, at, e.currentTarget.value)}
                />
              </Fragment>
            ))}
            <Button
              variant="quiet"
              aria-label={t("remove", { day: name, n: i + 1 })}
              onClick={() => onChange(periods.filter((_, j) => j !== i))}
            >
              ×
            </Button>
          </span>
        ))}
        <Button
          variant="quiet"
          aria-label={t("addDay", { day: name })}
          onClick={() => onChange([...periods, [...USUAL_HOURS]])}
        >
          {t("add")}
        </Button>
      </div>
      {error && <p class="field-error hours-day-error">{error}</p>}
    </div>
  );
}
