/**
 * SSRF protection for webhook URLs (spec delivery rule 4). Returns why a URL may not be called,
 * or null when it may. Checked on save and again at delivery (and for every redirect).
 * `allowedHosts` (OUTBOUND_ALLOWED_HOSTS, `host` or `host:port` entries) lets named hosts through, for
 * local development and tests only.
 *
 * The URL is read with the WHATWG parser, the one `fetch` uses, so what is checked is what would be
 * called: it turns every IPv4 spelling (0x7f.1, 2130706433, 0177.0.0.1, 127.1, full-width or circled
 * digits) into dotted decimal, lower-cases and IDNA-maps names, and compresses IPv6 literals
 * (IPv4-mapped ones become hex: ::ffff:7f00:1). Names are not resolved (Workers have no DNS API):
 * a public name pointing at a private address is left to the platform's own egress rules, except
 * for the well-known wildcard-DNS services that spell the address in the name (nip.io and kin).
 */
export function webhookUrlProblem(url: string, allowedHosts: string[] = []): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "Not a valid absolute URL.";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `Only http and https URLs are allowed, not ${parsed.protocol}`;
  if (parsed.username || parsed.password) return "Credentials in the URL are not allowed.";
  if (!parsed.hostname) return "The URL has no host.";
  const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  const allowed = allowedHosts.map((h) => h.trim().toLowerCase());
  // `host:port` allows that port; a bare host allows every port of it (CONTRACT section 11).
  if (allowed.includes(`${parsed.hostname}:${port}`) || allowed.includes(parsed.hostname)) return null;
  const reason = hostProblem(parsed.hostname);
  return reason ? `${settingHint(reason)} (${parsed.hostname}:${port})` : null;
}

/**
 * A refusal the allow-list can lift says so, naming the setting (and the `host:port` it would
 * need), so a developer with a local receiver knows what to change: "Loopback addresses are
 * refused unless OUTBOUND_ALLOWED_HOSTS names them (127.0.0.1:9)" (docs/decisions.md, "Outbound
 * errors a person can act on").
 */
const settingHint = (reason: string) =>
  /^(Empty|Not a valid)/.test(reason)
    ? reason
    : reason.replace(/ (are|is) not allowed/, " $1 refused unless OUTBOUND_ALLOWED_HOSTS names them");

/** WEBHOOK_ALLOWED_HOSTS parsed: comma-separated `host:port`, lower-cased, empty entries dropped. */
export function parseAllowedHosts(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** Hosts every outbound call may reach despite a private address: OUTBOUND_ALLOWED_HOSTS, and its alias
 * WEBHOOK_ALLOWED_HOSTS. */
export const outboundAllowedHosts = (env: { OUTBOUND_ALLOWED_HOSTS?: string; WEBHOOK_ALLOWED_HOSTS?: string }) =>
  parseAllowedHosts(`${env.OUTBOUND_ALLOWED_HOSTS ?? ""},${env.WEBHOOK_ALLOWED_HOSTS ?? ""}`);

/**
 * Whether a host, as the WHATWG parser serializes it (dotted-decimal IPv4, bracketed IPv6 or a
 * lower-case name), is a private, internal or otherwise non-public address or name.
 */
export function isPrivateAddress(host: string): boolean {
  return hostProblem(host) !== null;
}

/** Names that only mean something inside a network (RFC 6762, RFC 8375, common private zones). */
const INTERNAL_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "home.arpa",
  "corp",
  "svc",
];
/** Public names that always resolve to loopback. */
const LOOPBACK_NAMES = ["localtest.me", "lvh.me", "vcap.me"];
/** Wildcard-DNS services answering with the address spelled in the name (10.0.0.1.nip.io, 10-0-0-1.sslip.io). */
const WILDCARD_DNS = ["nip.io", "sslip.io", "xip.io", "traefik.me"];

function hostProblem(host: string): string | null {
  if (host.startsWith("[")) return ipv6Problem(host.slice(1, -1));
  const name = host.replace(/\.+$/, "");
  if (!name) return "Empty host names are not allowed";
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return ipv4Problem(name);
  const under = (suffix: string) => name === suffix || name.endsWith(`.${suffix}`);
  if (under("localhost")) return "Loopback names are not allowed";
  if (name === "metadata.google.internal" || name === "metadata") return "Cloud metadata addresses are not allowed";
  if (INTERNAL_SUFFIXES.some(under)) return "Internal names are not allowed";
  if (!name.includes(".")) return "Single-label (internal) host names are not allowed";
  if (LOOPBACK_NAMES.some(under)) return "Names that resolve to loopback are not allowed";
  const wildcard = WILDCARD_DNS.find(under);
  if (wildcard) {
    const embedded = embeddedIpv4(name.slice(0, -wildcard.length - 1));
    if (!embedded) return "Wildcard-DNS names without a public address are not allowed";
    const problem = ipv4Problem(embedded);
    if (problem) return problem;
  }
  return null;
}

/** The last IPv4 address spelled in the labels before a wildcard-DNS domain, dotted or dashed. */
function embeddedIpv4(prefix: string): string | null {
  const matches = [...prefix.matchAll(/(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})$/g)];
  const m = matches.at(-1);
  if (m) return `${m[1]}.${m[2]}.${m[3]}.${m[4]}`;
  const hex = /(?:^|[.-])([0-9a-f]{8})$/.exec(prefix);
  if (hex) return ipv4FromInt(parseInt(hex[1], 16));
  return null;
}

// [network, prefix length, reason]
const IPV4_BLOCKS: [string, number, string][] = [
  ["0.0.0.0", 8, 'The "this network" range is not allowed'],
  ["10.0.0.0", 8, "Private network addresses are not allowed"],
  ["100.64.0.0", 10, "Shared (carrier-grade NAT) addresses are not allowed"],
  ["127.0.0.0", 8, "Loopback addresses are not allowed"],
  ["169.254.0.0", 16, "Link-local and cloud metadata addresses are not allowed"],
  ["172.16.0.0", 12, "Private network addresses are not allowed"],
  ["192.0.0.0", 24, "IETF protocol assignment addresses are not allowed"],
  ["192.0.2.0", 24, "Documentation addresses are not allowed"],
  ["192.88.99.0", 24, "6to4 relay addresses are not allowed"],
  ["192.168.0.0", 16, "Private network addresses are not allowed"],
  ["198.18.0.0", 15, "Benchmarking addresses are not allowed"],
  ["198.51.100.0", 24, "Documentation addresses are not allowed"],
  ["203.0.113.0", 24, "Documentation addresses are not allowed"],
  ["224.0.0.0", 4, "Multicast addresses are not allowed"],
  ["240.0.0.0", 4, "Reserved and broadcast addresses are not allowed"],
];

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return null;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

function ipv4FromInt(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

function ipv4Problem(ip: string): string | null {
  const n = ipv4ToInt(ip);
  if (n === null) return "Not a valid IPv4 address";
  for (const [network, bits, reason] of IPV4_BLOCKS) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === ipv4ToInt(network)) return reason;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 literal (as serialized by the URL parser: hex, maybe `::`). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase();
  // The URL parser never leaves a dotted tail, but isPrivateAddress may be given one.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4ToInt(dotted[2]);
    if (n === null) return null;
    text = `${dotted[1]}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const read = (s: string) => (s ? s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const head = read(halves[0]);
  const tail = halves.length === 2 ? read(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some(Number.isNaN) ? null : groups;
}

function ipv6Problem(ip: string): string | null {
  const g = ipv6Groups(ip);
  if (!g) return "Not a valid IPv6 address";
  const embedded = (hi: number, lo: number) => ipv4FromInt(((hi << 16) | lo) >>> 0);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return "The unspecified address is not allowed";
  if (zeroUpTo(7) && g[7] === 1) return "Loopback addresses are not allowed";
  if (zeroUpTo(5) && g[5] === 0xffff) return "IPv4-mapped IPv6 addresses are not allowed";
  if (zeroUpTo(6)) return "IPv4-compatible IPv6 addresses are not allowed";
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return "IPv4-translated IPv6 addresses are not allowed";
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const problem = ipv4Problem(embedded(g[6], g[7]));
    return problem ? `NAT64 addresses of non-public IPv4 addresses are not allowed (${problem.toLowerCase()})` : null;
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "Local-use NAT64 addresses are not allowed";
  if (g[0] === 0x2002) {
    const problem = ipv4Problem(embedded(g[1], g[2]));
    if (problem) return `6to4 addresses of non-public IPv4 addresses are not allowed (${problem.toLowerCase()})`;
  }
  if (g[0] === 0x0100 && zeroUpTo(4)) return "Discard-only addresses are not allowed";
  if (g[0] === 0x2001 && g[1] < 0x200) return "IETF protocol assignment addresses (Teredo, ORCHID) are not allowed";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "Documentation addresses are not allowed";
  if (g[0] === 0xfd00 && g[1] === 0x0ec2) return "Cloud metadata addresses are not allowed";
  if ((g[0] & 0xfe00) === 0xfc00) return "Unique local (private) addresses are not allowed";
  if ((g[0] & 0xffc0) === 0xfe80) return "Link-local addresses are not allowed";
  if ((g[0] & 0xffc0) === 0xfec0) return "Site-local addresses are not allowed";
  if ((g[0] & 0xff00) === 0xff00) return "Multicast addresses are not allowed";
  return null;
}
