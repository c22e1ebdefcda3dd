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

/** How far `timeZone`'s wall clock is ahead of UTC at `at` (to the minute), in ms. */
function offsetAt(at: number, timeZone: string): number {
  const { date, minute } = local(at, timeZone);
  const [y, m, d] = date.split("-").map(Number);
  return Date.UTC(y, m - 1, d) + minute * 60_000 - Math.floor(at / 60_000) * 60_000;
}

/**
 * The first instant `timeZone`'s wall clock reads `minute` of the local day `day` (as `Date.UTC(y, m, d)`) or later:
 * the offset is read at the instant it gives, not at the day's start, so a day that changes clocks gets its openings
 * right. A time the clock skips (02:30 the night summer time starts; 00:00 in Santiago) is the jump over it, where
 * the clock first reads past it: the two offsets around the jump put it on either side of it, by the zone's side of
 * UTC, and it is found between them. A time the clock reads twice (01:30 the night it goes back) is the first
 * reading, when the team is already in.
 */
function instantOf(day: number, minute: number, timeZone: string): number {
  const wall = day + minute * 60_000;
  const guess = wall - offsetAt(wall - offsetAt(wall, timeZone), timeZone);
  const other = wall - offsetAt(guess, timeZone);
  if (other === guess) {
    // At or east of UTC the guess lands after the clocks went back, on the second reading: the offset a day before
    // gives the first, which is one when the clock reads `wall` there too.
    const first = wall - offsetAt(guess - 86_400_000, timeZone);
    return first < guess && first + offsetAt(first, timeZone) === wall ? first : guess;
  }
  // In a gap: the clock reads before `wall` at the earlier of the two, after it at the later; halve to the minute.
  let [before, after] = guess < other ? [guess, other] : [other, guess];
  while (after - before > 60_000) {
    const mid = before + Math.floor((after - before) / 120_000) * 60_000;
    if (mid + offsetAt(mid, timeZone) >= wall) after = mid;
    else before = mid;
  }
  return after;
}

/**
 * When the team is next in, at or after `at` (to the minute), within two weeks; null when the hours never open.
 * Walks the local calendar's days (a day of 23 or 25 hours included) and their openings only.
 */
export function nextOpening(hours: BusinessHours, at: number): number | null {
  if (isOpen(hours, at)) return at;
  const start = Math.floor(at / 60_000) * 60_000;
  const [y, m, d] = local(start, hours.timeZone).date.split("-").map(Number);
  for (let n = 0; n < 15; n++) {
    const day = Date.UTC(y, m - 1, d + n);
    if (hours.holidays.includes(new Date(day).toISOString().slice(0, 10))) continue;
    const periods = [...(hours.weekly[WEEKDAYS[new Date(day).getUTCDay()]] ?? [])];
    for (const [open] of periods.sort((a, b) => minuteOf(a[0]) - minuteOf(b[0]))) {
      const when = instantOf(day, minuteOf(open), hours.timeZone);
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
