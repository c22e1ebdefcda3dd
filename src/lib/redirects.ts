/**
 * Whether a redirect from the configured `origin` to `next` may carry the credentials configured with
 * it (a webhook's custom headers and secret header, an api tool's headers): only to the same host and
 * port, over the same scheme or upgraded to https. A receiver that moved elsewhere, or an open redirect
 * on its domain, would otherwise hand them to a third party; browsers and curl drop them on such hops
 * too (docs/decisions.md, "Webhooks", SSRF).
 */
export function keepsCredentials(origin: URL, next: URL): boolean {
  return next.host === origin.host && (next.protocol === origin.protocol || next.protocol === "https:");
}
