/**
 * Why an outbound request (a webhook delivery, an api or MCP tool call) got no answer, in words a
 * person can act on: "could not resolve host hooks.example.com", "connection refused
 * (127.0.0.1:9)", "timed out after 10 s". The runtime's own messages say little: workerd rejects a
 * fetch whose host name does not resolve with "internal error; reference = …" (the cause goes to
 * its log only), and one whose connection is refused or dropped with "Network connection lost."
 * (docs/decisions.md, "Outbound errors a person can act on").
 */
// Imported with the module, not at the probe: a runtime module costs no start-up time, and no request then imports
// anything (docs/decisions.md, "In the test pool").
import { connect } from "cloudflare:sockets";

/** `host:port` of a URL, the port the scheme implies when none is written. */
export function hostAndPort(url: string | URL): { host: string; port: string } {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return { host: parsed.hostname, port: parsed.port || (parsed.protocol === "https:" ? "443" : "80") };
}

const isIpLiteral = (host: string) => host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host);

/** "timed out after 1.5 s". */
export const timedOutAfter = (ms: number) => `timed out after ${Number((ms / 1000).toFixed(1))} s`;

/**
 * Whether `host:port` accepts a TCP connection (null: the probe itself could not tell within `ms`).
 * workerd says "Network connection lost." both for a refused connection and for one the receiver
 * closed before answering; one probe, made only after such a failure, tells them apart.
 */
async function acceptsConnections(host: string, port: string, ms = 1_000): Promise<boolean | null> {
  try {
    const socket = connect({ hostname: host.replace(/^\[|\]$/g, ""), port: Number(port) });
    // A refused probe rejects `closed` too: expected, not an unhandled rejection.
    socket.closed.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      socket.opened.then(
        () => true,
        () => false,
      ),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms))),
    ]);
    clearTimeout(timer);
    socket.close().catch(() => {});
    return outcome;
  } catch {
    return null;
  }
}

/**
 * What a failed fetch of `url` came to. `timeoutMs` when the request's own deadline ended it.
 * Names the host (and port) in every case, so the person reading it knows which address to check.
 */
export async function describeFetchFailure(err: unknown, url: string | URL, timeoutMs?: number): Promise<string> {
  if (timeoutMs !== undefined) return timedOutAfter(timeoutMs);
  const { host, port } = hostAndPort(url);
  const message = String((err as Error)?.message ?? err);
  // Node's and undici's spellings too, for the same code run outside workerd (tests, scripts).
  const code = String((err as { cause?: { code?: unknown } })?.cause?.code ?? (err as { code?: unknown })?.code ?? "");
  if (code === "ENOTFOUND" || /getaddrinfo|DNS lookup failed|ENOTFOUND/i.test(message))
    return `could not resolve host ${host}`;
  if (code === "ECONNREFUSED" || /ECONNREFUSED|connection refused/i.test(message))
    return `connection refused (${host}:${port})`;
  // workerd: a name it could not resolve surfaces as its opaque internal error.
  if (/^internal error/i.test(message) && !isIpLiteral(host)) return `could not resolve host ${host}`;
  if (/Network connection lost/i.test(message)) {
    const accepts = await acceptsConnections(host, port);
    if (accepts === false) return `connection refused (${host}:${port})`;
    if (accepts === true) return `the connection to ${host}:${port} was closed before an answer`;
    return `connection refused or closed (${host}:${port})`;
  }
  if (/certificate|TLS|SSL|handshake/i.test(message))
    return `TLS with ${host}:${port} failed: ${message.slice(0, 200)}`;
  if (/^internal error/i.test(message)) return `could not connect to ${host}:${port}`;
  return `could not connect to ${host}:${port}: ${message.slice(0, 200)}`;
}
