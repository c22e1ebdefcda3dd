import { describe, expect, it } from "vitest";
import { normalizeRequest } from "../../src/lib/http";

const normal = (url: string) => normalizeRequest(new Request(url)).url;

describe("normalizeRequest (CONTRACT section 1)", () => {
  it("passes a request that needs nothing through as it is", () => {
    for (const url of [
      "http://h/api/v1/chatbots/",
      "http://h/api/v1/messages/?conversation=x&pageSize=5",
      "http://h/health",
      "http://h/console/x",
      "http://h/",
    ]) {
      const request = new Request(url);
      expect(normalizeRequest(request), url).toBe(request);
    }
  });

  it("adds the trailing slash to API paths, not to file-like ones or others", () => {
    expect(normal("http://h/api/v1/chatbots")).toBe("http://h/api/v1/chatbots/");
    expect(normal("http://h/api/chatbots?page=2")).toBe("http://h/api/chatbots/?page=2");
    expect(normal("http://h/api/v1/files/public/a/logo.png")).toBe("http://h/api/v1/files/public/a/logo.png");
    expect(normal("http://h/health")).toBe("http://h/health");
  });

  it("gives snake_case query keys their camelCase name, unless that is given too", () => {
    expect(normal("http://h/api/v1/messages/?page_size=5")).toBe("http://h/api/v1/messages/?page_size=5&pageSize=5");
    expect(normal("http://h/api/v1/messages/?page_size=5&pageSize=7")).toBe(
      "http://h/api/v1/messages/?page_size=5&pageSize=7",
    );
    expect(normal("http://h/api/v1/messages/?q=a_b")).toBe("http://h/api/v1/messages/?q=a_b");
  });
});
