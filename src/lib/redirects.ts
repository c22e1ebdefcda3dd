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

/**
 * Whether credentials stored for the URL `from` (a tool's or connector's headers, members' credentials for its
 * server) may stay when the URL becomes `to`: where a redirect could carry them (keepsCredentials). A record pointed
 * at another server would otherwise send them there, and whoever may edit the URL could collect them.
 */
export function credentialsStay(from: string | null | undefined, to: string | null | undefined): boolean {
  if (from === to) return true;
  if (!from || !to || !URL.canParse(from) || !URL.canParse(to)) return false;
  return keepsCredentials(new URL(from), new URL(to));
}

/**
 * The method a request sent with `method` goes on with after a redirect answered `status` (RFC 9110, 15.4): a 303
 * (See Other) points at another resource that answers for the request, fetched with GET and no body; 301, 302, 307
 * and 308 keep the method and the body. RFC 9110 lets a client keep a POST over 301 and 302 (browsers make it a GET,
 * a habit of old HTML forms): a request that moved is still meant for the new place, where a GET would carry nothing.
 */
export const redirectedMethod = (status: number, method: string): string =>
  status === 303 && method !== "GET" && method !== "HEAD" ? "GET" : method;
