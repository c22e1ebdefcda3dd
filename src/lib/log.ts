// Log lines as Workers Logs reads them (docs/decisions.md, "Observability"): one JSON object a line, `level` and
// `message` first, written through the console method of that level, so that Workers Logs files it there.

/** What went wrong and was not the caller's to see: `message` says what, `fields` which ids and the error. */
export function logError(message: string, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: "error", message, ...fields }));
}

/** What went wrong and was handled (passed over, tried again later, told to the caller otherwise). */
export function logWarn(message: string, fields: Record<string, unknown> = {}): void {
  console.warn(JSON.stringify({ level: "warn", message, ...fields }));
}
