import { badRequest, fieldError } from "../../lib/errors";
import { ms } from "../../lib/time";

/**
 * Time buckets of a statistics answer. Counters are kept per UTC hour; a day or month bucket in a
 * timezone is the hours from its local start to the next one's (DST aware, through Intl), so any
 * bucket adds up whole hour rows. Zones whose offset is not whole hours are approximated to the hour.
 */
export type Granularity = "hour" | "day" | "month";

export interface Bucket {
  /** Local label: `YYYY-MM-DDTHH:00` (hour), `YYYY-MM-DD` (day) or `YYYY-MM` (month). */
  time: string;
  /** UTC epoch ms, start inclusive and end exclusive, both on an hour (but those of `exactDays`). */
  start: number;
  end: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** The start of the UTC hour a time falls in: the key of every hourly rollup and segment. */
export const hourOf = (ms: number) => ms - (ms % HOUR);
/** Bounds the work and the answer: 62 days by hour, four years by day. */
export const MAX_BUCKETS = 1_500;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Formatters by canonical zone name. Intl takes a zone in any casing ("asia/TAIPEI") and some by an alias
 * ("Etc/UTC"): kept by the spelling asked, there would be one more formatter for every spelling a client invents.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(timezone: string): Intl.DateTimeFormat {
  const cached = formats.get(timezone);
  if (cached) return cached;
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: timezone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
  const canonical = f.resolvedOptions().timeZone;
  const known = formats.get(canonical);
  if (known) return known;
  formats.set(canonical, f);
  return f;
}

/** The IANA zone given (default UTC) by its canonical name (the answers echo that one), or 400. */
export function checkTimezone(timezone: string | undefined): string {
  if (!timezone) return "UTC";
  try {
    return format(timezone).resolvedOptions().timeZone;
  } catch {
    throw fieldError("timezone", "Unknown timezone; use an IANA name such as Europe/Berlin.");
  }
}

interface Local {
  y: number;
  m: number; // 1..12
  d: number;
  h: number;
  min: number;
}

function local(timezone: string, utc: number): Local {
  const parts: Record<string, string> = {};
  for (const p of format(timezone).formatToParts(utc)) parts[p.type] = p.value;
  return { y: +parts.year, m: +parts.month, d: +parts.day, h: +parts.hour, min: +parts.minute };
}

/** Local wall clock minus UTC at `utc`, in ms. */
const offsetAt = (timezone: string, utc: number) => {
  const l = local(timezone, utc);
  return Date.UTC(l.y, l.m - 1, l.d, l.h, l.min) - (utc - (utc % MINUTE));
};

/**
 * The UTC time of a local wall-clock time. When DST repeats it, the one the offset in force at `wall` read as UTC
 * finds: the earlier west of UTC (a midnight repeated in America/Havana or Atlantic/Azores starts its day), the later
 * east of it. When DST skips it, the first instant after it: the jump itself (America/Santiago's 2026-09-06 starts at
 * 01:00, its 00:00 never happens), so the day before keeps its whole 24 hours.
 */
export function wallTimeUtc(timezone: string, y: number, m: number, d: number, h = 0): number {
  const wall = Date.UTC(y, m - 1, d, h);
  if (timezone === "UTC") return wall;
  const first = offsetAt(timezone, wall);
  const offset = offsetAt(timezone, wall - first);
  const at = wall - offset;
  if (offset === first || offsetAt(timezone, at) === offset) return at;
  // Neither offset reads `wall` at its instant: the clocks jumped over it, between these two instants.
  return jumpBetween(timezone, wall - Math.max(first, offset), wall - Math.min(first, offset));
}

/** The first instant (to the minute) of `(before, after]` whose offset is not the one at `before`. */
function jumpBetween(timezone: string, before: number, after: number): number {
  const from = offsetAt(timezone, before);
  let [lo, hi] = [before, after];
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetAt(timezone, mid) === from) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** `wallTimeUtc` floored to the hour (the buckets' boundaries). */
export function utcOf(timezone: string, y: number, m: number, d: number, h = 0): number {
  const at = wallTimeUtc(timezone, y, m, d, h);
  return at - (((at % HOUR) + HOUR) % HOUR);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Parses `YYYY-MM-DD` (a real calendar date, from 1970 on) or answers 400 naming `field` and what is wrong. */
export function parseDay(value: string, field: string): { y: number; m: number; d: number } {
  const match = DATE.exec(value);
  if (!match) throw fieldError(field, "Use a date written YYYY-MM-DD.");
  const [y, m, d] = [+match[1], +match[2], +match[3]];
  // Before Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  if (y < 1970) throw fieldError(field, "Use a date from 1970-01-01 on.");
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d)
    throw fieldError(field, `${value} is no day of the calendar.`);
  return { y, m, d };
}

type DayRange = (
  timezone: string,
  from: string,
  to: string | undefined,
  fromField: string,
  toField: string,
) => { start: number; end: number };

/** `[start, end)` in UTC of the local days `from`..`to` (both included), each end given by `at`. */
const daysBy =
  (at: typeof wallTimeUtc): DayRange =>
  (timezone, from, to, fromField, toField) => {
    const a = parseDay(from, fromField);
    const b = to ? parseDay(to, toField) : a;
    const start = at(timezone, a.y, a.m, a.d);
    const end = at(timezone, b.y, b.m, b.d + 1);
    if (end <= start) throw fieldError(toField, `${toField} is before ${fromField}.`);
    return { start, end };
  };

/** The local days `from`..`to` as whole UTC hours, what the hourly counters can add up (see the module's note). */
export const dayRange = daysBy(utcOf);

/**
 * The local days `from`..`to` from local midnight to local midnight, for what carries exact times (chatbot records,
 * handoff stretches): a day in Asia/Kolkata runs from 18:30 UTC, which the hours of `dayRange` would move to 18:00.
 */
export const exactDayRange = daysBy(wallTimeUtc);

/** A date and time of day, then fractions of a second and an offset or Z, if any. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(.*)$/;
const INSTANT_HINT = "Use an ISO 8601 date-time (2026-01-31T08:00:00Z), a date YYYY-MM-DD or epoch milliseconds.";

/**
 * A datetime query value: ISO 8601 (an offset or Z; without one it is read in `timezone`), a date, or epoch ms.
 * Its date must be a day of the calendar and its time one of the day (Date.UTC and Date.parse would roll
 * 2026-02-31 over to March 3); 24:00, which ISO 8601 allows, is the next day's 00:00, in `timezone` too.
 */
export function parseInstant(value: string, timezone: string, field: string, endOfDay = false): number {
  if (/^\d{10,13}$/.test(value)) return Number(value.length === 10 ? `${value}000` : value);
  if (DATE.test(value)) {
    const { y, m, d } = parseDay(value, field);
    return endOfDay ? utcOf(timezone, y, m, d + 1) : utcOf(timezone, y, m, d);
  }
  const match = DATE_TIME.exec(value);
  if (!match) throw fieldError(field, INSTANT_HINT);
  const [, date, hh, mm, ss, fraction, zone] = match;
  const { y, m, d } = parseDay(date, field);
  const [h, min, sec] = [+hh, +mm, +(ss ?? 0)];
  const midnight = h === 24 && min === 0 && sec === 0 && !Number(fraction ?? 0);
  if ((h > 23 && !midnight) || min > 59 || sec > 59)
    throw fieldError(field, `${value} is no time of day (00:00 to 23:59:59, or 24:00 for the day's end).`);
  if (!zone) return utcOf(timezone, y, m, d, h) + min * MINUTE + sec * 1000;
  // Only a value naming its offset is left to Date.parse, which reads one without as UTC.
  const t = /^(Z|[+-]\d{2}:?\d{2})$/i.test(zone) ? Date.parse(value) : NaN;
  if (!Number.isFinite(t)) throw fieldError(field, INSTANT_HINT);
  return t;
}

/** The local start of the bucket after the one holding local `l`. */
function nextStart(timezone: string, l: Local, granularity: Granularity, current: number): number {
  if (granularity === "hour") return current + HOUR;
  if (granularity === "day") return utcOf(timezone, l.y, l.m, l.d + 1);
  return utcOf(timezone, l.y, l.m + 1, 1);
}

function label(l: Local, granularity: Granularity): string {
  const day = `${l.y}-${pad(l.m)}-${pad(l.d)}`;
  if (granularity === "hour") return `${day}T${pad(l.h)}:00`;
  return granularity === "day" ? day : `${l.y}-${pad(l.m)}`;
}

/**
 * The buckets covering `[start, end)` (widened to whole hours), the first and last clipped to it.
 * 400 when there would be more than MAX_BUCKETS.
 */
export function buckets(timezone: string, start: number, end: number, granularity: Granularity): Bucket[] {
  const from = Math.floor(start / HOUR) * HOUR;
  const to = Math.ceil(end / HOUR) * HOUR;
  if (to <= from)
    throw badRequest("The end of the range is not after its start.", { datetimeTo: ["Must be after the start."] });
  const widthHint = granularity === "hour" ? HOUR : granularity === "day" ? 86_400_000 : 28 * 86_400_000;
  if ((to - from) / widthHint > MAX_BUCKETS + 2) throw tooMany(granularity);
  const out: Bucket[] = [];
  let cursor = from;
  while (cursor < to) {
    // The hour's last minute names it: in a zone half an hour off UTC, the hour 18:00-19:00 UTC
    // holds local midnight (18:30) and counts for the day that begins in it.
    const l = local(timezone, cursor + HOUR - 1);
    const next = Math.min(Math.max(nextStart(timezone, l, granularity, cursor), cursor + HOUR), to);
    out.push({ time: label(l, granularity), start: cursor, end: next });
    if (out.length > MAX_BUCKETS) throw tooMany(granularity);
    cursor = next;
  }
  return out;
}

const tooMany = (granularity: Granularity) =>
  badRequest(
    `The range holds more than ${MAX_BUCKETS} ${granularity} buckets; narrow it or choose a coarser timeGranularity.`,
    {
      timeGranularity: [`At most ${MAX_BUCKETS} buckets.`],
    },
  );

/** UTC start of the local day `days` after the one holding `now` (negative: before). */
export function localDayStart(timezone: string, now: number, days = 0): number {
  const l = local(timezone, now);
  return utcOf(timezone, l.y, l.m, l.d + days);
}

/** Today's local date, YYYY-MM-DD. */
export function localDate(timezone: string, now: number): string {
  const l = local(timezone, now);
  return `${l.y}-${pad(l.m)}-${pad(l.d)}`;
}

/**
 * The local days a figures request covers, `startDate` to `endDate` (both included), with their UTC range (`range`:
 * whole hours for counters, `exactDayRange` for exact times): by default this month up to today, and without an end a
 * start after today is a single day.
 */
export function daysOrMonthToDate(
  timezone: string,
  startDate: string | undefined,
  endDate: string | undefined,
  range: DayRange = dayRange,
) {
  const today = localDate(timezone, Date.now());
  const from = startDate ?? `${today.slice(0, 7)}-01`;
  // biome-ignore lint/complexity/useMathMinMax: the dates are text ("YYYY-MM-DD"), which Math.max cannot compare
  const to = endDate ?? (from > today ? from : today);
  return { startDate: from, endDate: to, ...range(timezone, from, to, "startDate", "endDate") };
}

/**
 * The local days from the one holding `start` until `end`, each from local midnight to the next (an `exactDayRange`
 * cut into days, for grouping exact times; `buckets` would round them to the hour). 400 beyond MAX_BUCKETS.
 */
export function exactDays(timezone: string, start: number, end: number): Bucket[] {
  const { y, m, d } = local(timezone, start);
  const out: Bucket[] = [];
  for (let i = 0, day = wallTimeUtc(timezone, y, m, d); day < end; i++) {
    const next = wallTimeUtc(timezone, y, m, d + i + 1);
    const time = new Date(Date.UTC(y, m - 1, d + i)).toISOString().slice(0, 10);
    out.push({ time, start: Math.max(day, start), end: Math.min(next, end) });
    if (out.length > MAX_BUCKETS) throw tooMany("day");
    day = next;
  }
  return out;
}

/** A time series as the statistics routes answer it: each bucket's label and bounds, then its figures. */
export const bucketRows = <T extends object>(rows: ({ bucket: Bucket } & T)[]) =>
  rows.map(({ bucket, ...figures }) => ({
    time: bucket.time,
    startAt: ms(bucket.start)!,
    endAt: ms(bucket.end)!,
    ...figures,
  }));
