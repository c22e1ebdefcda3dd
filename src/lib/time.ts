/** Response timestamps are epoch milliseconds carried as a string (CONTRACT section 1). */
export const ms = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/** A stored row's `createdAt` and `updatedAt` as a record carries them (`Timestamps` in its schema). */
export const timestampsOf = (row: { createdAt: number; updatedAt: number }) => ({
  createdAt: ms(row.createdAt)!,
  updatedAt: ms(row.updatedAt)!,
});

/** `YYYY-MM-DD` -> epoch ms at 00:00 UTC; `endOfDay` gives the last millisecond of that day. */
export function parseDate(value: string, endOfDay = false): number {
  const t = Date.parse(`${value}T00:00:00Z`);
  return endOfDay ? t + 86_400_000 - 1 : t;
}
