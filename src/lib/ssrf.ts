/**
 * SSRF protection for webhook URLs (spec delivery rule 4). Returns why a URL may not be called,
 * or null when it may. Checked on save and again at delivery (and for every redirect).
 * `allowedHosts` (WEBHOOK_ALLOWED_HOSTS, `host:port` entries) lets named hosts through, for local
 * development and tests only.
 */
export function webhookUrlProblem(url: string, allowedHosts: string[] = []): string | null {
  void url;
  void allowedHosts;
  throw new Error("not implemented yet");
}

/** WEBHOOK_ALLOWED_HOSTS parsed: comma-separated `host:port`, lower-cased, empty entries dropped. */
export function parseAllowedHosts(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
}
