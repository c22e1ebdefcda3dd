// An inbox's business hours (CONTRACT section 18; docs/decisions.md, "Handoff to a person"): when
// its team answers. Outside them the assistant still answers; a handoff says the assistant's
// `outsideHoursMessage` and the conversation waits in the queue for the next opening. Every function
// takes the time as an argument (an injectable clock), so tests of a week run in milliseconds.

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface BusinessHours {
  /** An IANA time zone: "Asia/Taipei". */
  timeZone: string;
  /** Opening periods by weekday, `["09:00", "18:00"]` (close after open; "24:00" for midnight); a day left out is
   * closed. */
  weekly: Partial<Record<Weekday, string[][]>>;
  /** Closed all day, as local dates "2026-12-25". */
  holidays: string[];
}

/** The local date, weekday and minute of the day of `at` in `timeZone`. */
function local(at: number, timeZone: string): { date: string; weekday: Weekday; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: parts.weekday.toLowerCase().slice(0, 3) as Weekday,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the team is in at `at`. */
export function isOpen(hours: BusinessHours, at: number): boolean {
  const { date, weekday, minute } = local(at, hours.timeZone);
  if (hours.holidays.includes(date)) return false;
  return (hours.weekly[weekday] ?? []).some(([open, close]) => minute >= minuteOf(open) && minute < minuteOf(close));
}

/**
 * When the team is next in, at or after `at` (to the minute), within two weeks; null when the hours
 * never open. Walks minute boundaries of openings only: at most 14 days of periods.
 */
export function nextOpening(hours: BusinessHours, at: number): number | null {
  if (isOpen(hours, at)) return at;
  const start = Math.floor(at / 60_000) * 60_000;
  // Each local day from today: its openings, in order, as times (the offset of that day, read at its start).
  for (let day = 0; day < 15; day++) {
    const probe = start + day * 86_400_000;
    const { date, weekday, minute } = local(probe, hours.timeZone);
    if (hours.holidays.includes(date)) continue;
    const midnight = probe - minute * 60_000;
    for (const [open] of [...(hours.weekly[weekday] ?? [])].sort((a, b) => minuteOf(a[0]) - minuteOf(b[0]))) {
      const when = midnight + minuteOf(open) * 60_000;
      if (when >= start && isOpen(hours, when)) return when;
    }
  }
  return null;
}

/** Why `hours` cannot be used (for a 400), or null. */
export function businessHoursProblem(hours: BusinessHours): string | null {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: hours.timeZone });
  } catch {
    return `timeZone: "${hours.timeZone}" is not an IANA time zone.`;
  }
  for (const [day, periods] of Object.entries(hours.weekly)) {
    for (const period of periods ?? []) {
      if (period.length !== 2) return `weekly.${day}: each period is [open, close].`;
      const [open, close] = period;
      if (minuteOf(close) <= minuteOf(open)) return `weekly.${day}: ${open}-${close} closes before it opens.`;
    }
  }
  return null;
}
