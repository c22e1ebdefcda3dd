/**
 * A UUID v7 of exactly the time `ms`, for rows of the past: src/lib/ids.ts's `uuidv7` never goes back in time (on
 * purpose), which a test of a conversation's part or a bench's seed written straight into SQLite needs. Used by the
 * Workers tests and by bench/lib.mjs (Node runs it as TypeScript).
 */
export function uuidv7At(ms: number): string {
  const t = ms.toString(16).padStart(12, "0");
  const r = crypto.randomUUID().replace(/-/g, "");
  return `${t.slice(0, 8)}-${t.slice(8)}-7${r.slice(0, 3)}-8${r.slice(3, 6)}-${r.slice(6, 18)}`;
}
