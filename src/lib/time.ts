/** Response timestamps are epoch milliseconds carried as a string (CONTRACT section 1). */
export const ms = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/** `YYYY-MM-DD` -> epoch ms at 00:00 UTC; `endOfDay` gives the last millisecond of that day. */
export function parseDate(value: string, endOfDay = false): number {
  const t = Date.parse(`${value}T00:00:00Z`);
  return endOfDay ? t + 86_400_000 - 1 : t;
}
