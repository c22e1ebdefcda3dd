import { describe, expect, it } from "vitest";
import { isPrivateAddress, parseAllowedHosts, webhookUrlProblem } from "../../src/lib/ssrf";

/** [hostile URL, a word the reason must contain] */
const HOSTILE: [string, string][] = [
  // schemes, credentials, malformed
  ["file:///etc/passwd", "http and https"],
  ["ftp://example.com/hook", "http and https"],
  ["gopher://example.com:70/_GET", "http and https"],
  ["javascript:alert(1)", "http and https"],
  ["data:text/plain,hello", "http and https"],
  ["ws://example.com/socket", "http and https"],
  ["dict://example.com:11211/stat", "http and https"],
  ["https://user:pass@example.com/hook", "Credentials"],
  ["https://token@example.com/hook", "Credentials"],
  ["http://127.0.0.1:80@example.com/", "Credentials"],
  ["http://example.com@127.0.0.1/", "Credentials"],
  ["//example.com/hook", "valid"],
  ["http:///hook", "Single-label"],
  ["not a url", "valid"],
  ["http://[fe80::1%25eth0]/", "valid"],
  ["http://localhost%00.example.com/", "valid"],
  // loopback in every spelling
  ["http://127.0.0.1/", "Loopback"],
  ["http://127.0.0.1:8787/hook", "Loopback"],
  ["http://127.1/", "Loopback"],
  ["http://127.255.255.254/", "Loopback"],
  ["http://2130706433/", "Loopback"],
  ["http://0x7f000001/", "Loopback"],
  ["http://0x7f.1/", "Loopback"],
  ["http://0177.0.0.1/", "Loopback"],
  ["http://017700000001/", "Loopback"],
  ["http://127.0.0.1./", "Loopback"],
  ["http://%31%32%37.0.0.1/", "Loopback"],
  ["http://１２７.０.０.１/", "Loopback"],
  ["http://①②⑦.⓪.⓪.①/", "Loopback"],
  ["http://localhost/", "Loopback"],
  ["http://LOCALHOST:3000/", "Loopback"],
  ["http://localhost./", "Loopback"],
  ["http://api.localhost/", "Loopback"],
  ["http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", "Loopback"],
  ["http://localtest.me/", "loopback"],
  ["http://app.lvh.me/", "loopback"],
  ["http://[::1]/", "Loopback"],
  ["http://[0:0:0:0:0:0:0:1]:8080/", "Loopback"],
  // unspecified / this network
  ["http://0.0.0.0/", "this network"],
  ["http://0/", "this network"],
  ["http://[::]/", "unspecified"],
  // RFC 1918 and other private or special ranges
  ["http://10.0.0.1/", "Private"],
  ["http://10.255.255.255:8443/", "Private"],
  ["http://172.16.0.1/", "Private"],
  ["http://172.31.255.255/", "Private"],
  ["http://192.168.1.1/", "Private"],
  ["http://0xc0a80101/", "Private"],
  ["http://100.64.0.1/", "carrier-grade"],
  ["http://100.100.100.200/latest/meta-data/", "carrier-grade"],
  ["http://192.0.0.192/", "IETF"],
  ["http://192.0.2.10/", "Documentation"],
  ["http://198.51.100.7/", "Documentation"],
  ["http://203.0.113.9/", "Documentation"],
  ["http://198.18.0.1/", "Benchmarking"],
  ["http://198.19.255.255/", "Benchmarking"],
  ["http://224.0.0.1/", "Multicast"],
  ["http://239.255.255.250:1900/", "Multicast"],
  ["http://240.0.0.1/", "Reserved"],
  ["http://255.255.255.255/", "broadcast"],
  // link-local and cloud metadata
  ["http://169.254.169.254/latest/meta-data/", "metadata"],
  ["http://169.254.170.2/v2/credentials", "metadata"],
  ["http://0xa9fea9fe/", "metadata"],
  ["http://2852039166/", "metadata"],
  ["http://metadata.google.internal/computeMetadata/v1/", "metadata"],
  ["http://metadata/computeMetadata/v1/", "metadata"],
  ["http://[fd00:ec2::254]/latest/meta-data/", "metadata"],
  ["http://169.254.169.254.nip.io/", "metadata"],
  ["http://app-10-0-0-1.sslip.io/", "Private"],
  // IPv6 private, link-local, multicast, documentation and IPv4 embeddings
  ["http://[fc00::1]/", "Unique local"],
  ["http://[fdff:ffff::1]/", "Unique local"],
  ["http://[fe80::1]/", "Link-local"],
  ["http://[febf::1]/", "Link-local"],
  ["http://[fec0::1]/", "Site-local"],
  ["http://[ff02::1]/", "Multicast"],
  ["http://[2001:db8::1]/", "Documentation"],
  ["http://[2001::1]/", "Teredo"],
  ["http://[::ffff:127.0.0.1]/", "IPv4-mapped"],
  ["http://[::ffff:7f00:1]/", "IPv4-mapped"],
  ["http://[::ffff:169.254.169.254]/", "IPv4-mapped"],
  ["http://[::ffff:a9fe:a9fe]/", "IPv4-mapped"],
  ["http://[0:0:0:0:0:ffff:10.0.0.1]/", "IPv4-mapped"],
  ["http://[::127.0.0.1]/", "IPv4-compatible"],
  ["http://[::10.0.0.1]/", "IPv4-compatible"],
  ["http://[64:ff9b::127.0.0.1]/", "NAT64"],
  ["http://[64:ff9b::a9fe:a9fe]/", "NAT64"],
  ["http://[64:ff9b:1::1]/", "NAT64"],
  ["http://[2002:7f00:1::]/", "6to4"],
  ["http://[2002:c0a8:101::1]/", "6to4"],
  // internal names
  ["http://intranet-wiki/", "Single-label"],
  ["http://webhook-receiver:8080/", "Single-label"],
  ["http://printer.local/", "Internal"],
  ["http://db.internal/", "Internal"],
  ["http://wiki.intranet/", "Internal"],
  ["http://nas.lan/", "Internal"],
  ["http://router.home.arpa/", "Internal"],
  ["http://jira.corp/", "Internal"],
  ["http://localhost.localdomain/", "Internal"],
  ["http://kubernetes.default.svc/", "Internal"],
  ["http://api.default.svc.cluster.local/", "Internal"],
];

describe("webhookUrlProblem: hostile URLs are refused", () => {
  it("covers well over 40 cases", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE)("refuses %s", (url, word) => {
    const problem = webhookUrlProblem(url);
    expect(problem).not.toBeNull();
    expect(problem!.toLowerCase()).toContain(word.toLowerCase());
  });

  it.each(HOSTILE)("refuses %s with an unrelated allow-list", (url) => {
    expect(webhookUrlProblem(url, ["example.org:443", "127.0.0.1:1"])).not.toBeNull();
  });
});

describe("webhookUrlProblem: public URLs pass", () => {
  it.each([
    "https://example.com/hooks/123",
    "http://example.com/",
    "https://hooks.slack.com/services/T000/B000/XXXX",
    "https://api.example.co.uk:8443/webhook?token=abc&x=1",
    "https://8.8.8.8/",
    "http://1.1.1.1:8080/hook",
    "https://93.184.216.34/",
    "https://172.32.0.1/",
    "https://100.128.0.1/",
    "https://[2606:4700:4700::1111]/",
    "https://[2a00:1450:4007:80e::200e]:8443/hook",
    "https://[64:ff9b::808:808]/",
    "https://8.8.8.8.nip.io/",
    "https://bücher.example/",
    "https://my-localhost-fan.example.com/",
  ])("accepts %s", (url) => {
    expect(webhookUrlProblem(url)).toBeNull();
  });
});

describe("webhookUrlProblem: WEBHOOK_ALLOWED_HOSTS", () => {
  it("lets an allowed loopback host:port through, and only on that port", () => {
    const allowed = parseAllowedHosts("127.0.0.1:45678");
    expect(webhookUrlProblem("http://127.0.0.1:45678/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1:45679/hook", allowed)).toMatch(/Loopback/);
    expect(webhookUrlProblem("http://127.0.0.1/hook", allowed)).toMatch(/Loopback/);
    expect(webhookUrlProblem("http://localhost:45678/hook", allowed)).toMatch(/Loopback/);
  });

  it("matches the port the scheme implies", () => {
    expect(webhookUrlProblem("http://receiver.internal/", ["receiver.internal:80"])).toBeNull();
    expect(webhookUrlProblem("https://receiver.internal/", ["receiver.internal:80"])).not.toBeNull();
    expect(webhookUrlProblem("https://receiver.internal/", ["receiver.internal:443"])).toBeNull();
    expect(webhookUrlProblem("https://receiver.internal:443/", ["receiver.internal:443"])).toBeNull();
  });

  it("accepts IPv6 entries as URL.host spells them, and any spelling of the same address", () => {
    expect(webhookUrlProblem("http://[::1]:9000/", ["[::1]:9000"])).toBeNull();
    expect(webhookUrlProblem("http://[0::1]:9000/", ["[::1]:9000"])).toBeNull();
    expect(webhookUrlProblem("http://0x7f.1:9000/", ["127.0.0.1:9000"])).toBeNull();
  });

  it("still refuses other schemes and credentials for an allowed host", () => {
    expect(webhookUrlProblem("ftp://127.0.0.1:9000/", ["127.0.0.1:9000"])).toMatch(/http and https/);
    expect(webhookUrlProblem("http://a:b@127.0.0.1:9000/", ["127.0.0.1:9000"])).toMatch(/Credentials/);
  });

  it("parses the variable: comma-separated, trimmed, lower-cased, empty entries dropped", () => {
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts("")).toEqual([]);
    expect(parseAllowedHosts(" LocalHost:8787 , ,127.0.0.1:9000,")).toEqual(["localhost:8787", "127.0.0.1:9000"]);
  });
});

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["[::1]", true],
    ["[::ffff:127.0.0.1]", true],
    ["[fd00:ec2::254]", true],
    ["169.254.169.254", true],
    ["localhost", true],
    ["example.com", false],
    ["8.8.8.8", false],
    ["[2606:4700:4700::1111]", false],
  ])("%s -> %s", (host, expected) => {
    expect(isPrivateAddress(host)).toBe(expected);
  });
});

describe("the runtime's URL parser", () => {
  it.each([
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["http://[::127.0.0.1]/", "[::7f00:1]"],
  ])("normalizes %s to %s (what the checks rely on)", (url, hostname) => {
    expect(new URL(url).hostname).toBe(hostname);
  });
});
