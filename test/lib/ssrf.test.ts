import { describe, expect, it } from "vitest";
import { isPrivateAddress, outboundAllowedHosts, parseAllowedHosts, webhookUrlProblem } from "../../src/lib/ssrf";
import { HOSTILE } from "../support/hostile-urls";

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

  it("accepts IPv6 entries in URL.host's spelling, and any spelling of the same address", () => {
    expect(webhookUrlProblem("http://[::1]:9000/", ["[::1]:9000"])).toBeNull();
    expect(webhookUrlProblem("http://[0::1]:9000/", ["[::1]:9000"])).toBeNull();
    expect(webhookUrlProblem("http://0x7f.1:9000/", ["127.0.0.1:9000"])).toBeNull();
  });

  it("a bare host allows every port of it; OUTBOUND_ALLOWED_HOSTS and its alias WEBHOOK_ALLOWED_HOSTS count", () => {
    const allowed = outboundAllowedHosts({
      OUTBOUND_ALLOWED_HOSTS: "127.0.0.1",
      WEBHOOK_ALLOWED_HOSTS: "localhost:9000",
    });
    expect(webhookUrlProblem("http://127.0.0.1:45678/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://localhost:9000/hook", allowed)).toBeNull();
    expect(webhookUrlProblem("http://localhost:9001/hook", allowed)).toMatch(/Loopback/);
    expect(webhookUrlProblem("http://10.0.0.1/hook", allowed)).toMatch(/Private/);
    expect(outboundAllowedHosts({})).toEqual([]);
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
