import { describe, expect, it } from "vitest";
import {
  businessHoursProblem,
  isOpen,
  nextOpening,
  WEEKDAYS,
  type BusinessHours,
} from "../../src/services/business-hours";

// Taipei is UTC+8 all year: 2026-12-07 is a Monday.
const taipei: BusinessHours = {
  timeZone: "Asia/Taipei",
  weekly: {
    mon: [
      ["09:00", "12:00"],
      ["13:00", "18:00"],
    ],
    fri: [["09:00", "24:00"]],
  },
  holidays: ["2026-12-25"],
};
const at = (local: string, offset = "+08:00") => Date.parse(`${local}${offset}`);

describe("business hours, on an injected clock", () => {
  it("open within a period of the local weekday, closed outside it, at lunch, on other days and on holidays", () => {
    expect(isOpen(taipei, at("2026-12-07T09:00:00"))).toBe(true);
    expect(isOpen(taipei, at("2026-12-07T08:59:00"))).toBe(false);
    expect(isOpen(taipei, at("2026-12-07T12:30:00"))).toBe(false);
    expect(isOpen(taipei, at("2026-12-07T17:59:00"))).toBe(true);
    expect(isOpen(taipei, at("2026-12-07T18:00:00"))).toBe(false);
    expect(isOpen(taipei, at("2026-12-08T10:00:00"))).toBe(false); // Tuesday
    expect(isOpen(taipei, at("2026-12-11T23:59:00"))).toBe(true); // Friday until midnight
    expect(isOpen(taipei, at("2026-12-25T10:00:00"))).toBe(false); // a Friday, but a holiday
    // The same instant is Sunday evening in UTC and Monday morning in Taipei.
    expect(isOpen(taipei, Date.parse("2026-12-07T01:30:00Z"))).toBe(true);
  });

  it("the next opening: now when open, after lunch, next week past a holiday, none for hours that never open", () => {
    expect(nextOpening(taipei, at("2026-12-07T10:00:00"))).toBe(at("2026-12-07T10:00:00"));
    expect(nextOpening(taipei, at("2026-12-07T12:30:00"))).toBe(at("2026-12-07T13:00:00"));
    expect(nextOpening(taipei, at("2026-12-07T19:00:00"))).toBe(at("2026-12-11T09:00:00"));
    expect(nextOpening(taipei, at("2026-12-24T19:00:00"))).toBe(at("2026-12-28T09:00:00"));
    expect(nextOpening({ timeZone: "UTC", weekly: {}, holidays: [] }, Date.now())).toBeNull();
    // A zone with summer time: New York's Monday 09:00 in January and in July.
    const ny: BusinessHours = { timeZone: "America/New_York", weekly: { mon: [["09:00", "17:00"]] }, holidays: [] };
    expect(nextOpening(ny, Date.parse("2027-01-03T12:00:00Z"))).toBe(Date.parse("2027-01-04T14:00:00Z"));
    expect(nextOpening(ny, Date.parse("2027-07-04T12:00:00Z"))).toBe(Date.parse("2027-07-05T13:00:00Z"));
  });

  it("the next opening over a day the clocks change: the opening of that day, at its own offset", () => {
    // New York: summer time from Sunday 2026-03-08 02:00 (a day of 23 hours) to Sunday 2026-11-01 02:00 (25 hours).
    const sundays: BusinessHours = {
      timeZone: "America/New_York",
      weekly: { sun: [["09:00", "17:00"]] },
      holidays: [],
    };
    const everyDay: BusinessHours = {
      ...sundays,
      weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, [["09:00", "17:00"]]])),
    };
    // Late on the Saturday before: Sunday's opening, not Monday's.
    expect(nextOpening(everyDay, Date.parse("2026-03-07T23:30:00-05:00"))).toBe(
      Date.parse("2026-03-08T09:00:00-04:00"),
    );
    // Early on the Saturday: Sunday 09:00 by the clock, not 10:00.
    expect(nextOpening(sundays, Date.parse("2026-03-07T01:30:00-05:00"))).toBe(Date.parse("2026-03-08T09:00:00-04:00"));
    // Early on the Saturday before the clocks go back: that Sunday, not the next.
    expect(nextOpening(sundays, Date.parse("2026-10-31T01:30:00-04:00"))).toBe(Date.parse("2026-11-01T09:00:00-05:00"));
    // On the days themselves.
    expect(nextOpening(sundays, Date.parse("2026-03-08T03:30:00-04:00"))).toBe(Date.parse("2026-03-08T09:00:00-04:00"));
    expect(nextOpening(sundays, Date.parse("2026-11-01T01:30:00-05:00"))).toBe(Date.parse("2026-11-01T09:00:00-05:00"));
  });

  it("nextOpening on a spring-forward day west of UTC: an opening inside the skipped hour is that day's", () => {
    // America/New_York, Sunday 2026-03-08: 02:00 EST jumps to 03:00 EDT. Open Sundays 02:30-05:00.
    const hours: BusinessHours = { timeZone: "America/New_York", weekly: { sun: [["02:30", "05:00"]] }, holidays: [] };
    const at = Date.parse("2026-03-08T05:00:00Z"); // 00:00 EST that Sunday
    const jump = Date.parse("2026-03-08T07:00:00Z"); // 03:00 EDT: the first instant of the day inside the period
    expect(isOpen(hours, jump)).toBe(true);
    expect(new Date(nextOpening(hours, at)!).toISOString()).toBe(new Date(jump).toISOString());
  });

  it("nextOpening where DST skips midnight (America/Santiago): a day open from 00:00 opens at the jump", () => {
    // 2026-09-06 00:00 -04 jumps to 01:00 -03. Open Sundays all day.
    const hours: BusinessHours = { timeZone: "America/Santiago", weekly: { sun: [["00:00", "24:00"]] }, holidays: [] };
    const at = Date.parse("2026-09-06T02:00:00Z"); // Saturday 22:00 -04
    const jump = Date.parse("2026-09-06T04:00:00Z"); // Sunday 01:00 -03
    expect(isOpen(hours, jump)).toBe(true);
    expect(new Date(nextOpening(hours, at)!).toISOString()).toBe(new Date(jump).toISOString());
  });

  it("nextOpening on a spring-forward day east of UTC: an opening the clock skips is the jump, not later", () => {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    // Berlin, Sunday 2026-03-29: 02:00 CET jumps to 03:00 CEST (01:00 UTC). Open Sundays 02:30-05:00: from 03:00.
    const berlin: BusinessHours = { timeZone: "Europe/Berlin", weekly: { sun: [["02:30", "05:00"]] }, holidays: [] };
    expect(iso(nextOpening(berlin, Date.parse("2026-03-28T20:00:00Z")))).toBe("2026-03-29T01:00:00.000Z");
    // Beirut, 2026-03-29: 00:00 +02 jumps to 01:00 +03 (22:00 UTC the day before). Open Sundays all day.
    const beirut: BusinessHours = { timeZone: "Asia/Beirut", weekly: { sun: [["00:00", "24:00"]] }, holidays: [] };
    expect(iso(nextOpening(beirut, Date.parse("2026-03-28T18:00:00Z")))).toBe("2026-03-28T22:00:00.000Z");
    // Lord Howe Island, Sunday 2026-10-04: 02:00 +10:30 jumps half an hour to 02:30 +11 (15:30 UTC the day before).
    const lordHowe: BusinessHours = {
      timeZone: "Australia/Lord_Howe",
      weekly: { sun: [["02:10", "04:00"]] },
      holidays: [],
    };
    expect(iso(nextOpening(lordHowe, Date.parse("2026-10-03T10:00:00Z")))).toBe("2026-10-03T15:30:00.000Z");
    // A period wholly inside the skipped hour does not open that day: the next Sunday's.
    const skipped: BusinessHours = { ...berlin, weekly: { sun: [["02:10", "02:50"]] } };
    expect(iso(nextOpening(skipped, Date.parse("2026-03-28T20:00:00Z")))).toBe("2026-04-05T00:10:00.000Z");
  });

  it.each([
    // zone, weekday, period, asked at (UTC), first reading of the opening minute (UTC)
    ["Europe/London", "sun", ["01:30", "06:00"], "2026-10-25T00:00:00Z", "2026-10-25T00:30:00.000Z"],
    ["Europe/Berlin", "sun", ["02:30", "06:00"], "2026-10-25T00:00:00Z", "2026-10-25T00:30:00.000Z"],
    ["Australia/Sydney", "sun", ["02:30", "06:00"], "2026-04-04T15:00:00Z", "2026-04-04T15:30:00.000Z"],
    ["America/New_York", "sun", ["01:30", "06:00"], "2026-11-01T04:00:00Z", "2026-11-01T05:30:00.000Z"],
  ] as const)(
    "nextOpening the night %s's clocks go back: the first time the clock reads it",
    (timeZone, day, period, at, first) => {
      // The hour before the change is read twice; the team is in from the first reading, as isOpen says.
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      const hours: BusinessHours = { timeZone, weekly: { [day]: [[...period]] }, holidays: [] };
      const asked = Date.parse(at);
      expect(isOpen(hours, asked)).toBe(false);
      expect(isOpen(hours, Date.parse(first))).toBe(true);
      expect(iso(nextOpening(hours, asked))).toBe(first);
    },
  );

  it("names what cannot be used", () => {
    expect(businessHoursProblem(taipei)).toBeNull();
    expect(businessHoursProblem({ ...taipei, timeZone: "Mars/Olympus" })).toMatch(/^timeZone:/);
    expect(businessHoursProblem({ ...taipei, weekly: { tue: [["18:00", "09:00"]] } })).toBe(
      "weekly.tue: 18:00-09:00 closes before it opens.",
    );
  });
});
