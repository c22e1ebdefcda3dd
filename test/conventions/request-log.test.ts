import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, seedOwner, unique, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createKnowledgeBase } from "../fixtures/knowledge";
import { scrub } from "../../src/middleware/request-log";
import { problemOf } from "../support/api";
import { standIn } from "../support/bindings";

/**
 * The request log (src/middleware/request-log.ts): one JSON line per request, read off the
 * console the worker writes to (Workers Logs collects the same lines in a deployment).
 */
type Line = {
  level: string;
  message: string;
  requestId: string;
  method: string;
  route: string | null;
  status: number;
  durationMs: number;
  organizationId: string | null;
  code?: string;
  streamed?: boolean;
  error?: { message: string; stack: string };
};

const lineOf = (text: string): Line => JSON.parse(text);

let written: { stream: "log" | "info" | "error" | "warn"; text: string }[] = [];
beforeEach(() => {
  written = [];
  for (const stream of ["log", "info", "error", "warn"] as const) {
    vi.spyOn(console, stream).mockImplementation(
      (...parts: unknown[]) => void written.push({ stream, text: parts.map(String).join(" ") }),
    );
  }
});
afterEach(() => vi.restoreAllMocks());

/** The request lines of one request id (tests of other files share the console). */
function linesOf(requestId: string) {
  return written
    .filter((w) => w.text.includes(requestId))
    .map((w) => ({ stream: w.stream, text: w.text, line: lineOf(w.text) }))
    .filter((l) => l.line.message === "request");
}

async function logged(res: Response) {
  await res.clone().arrayBuffer();
  const id = res.headers.get("X-Request-Id")!;
  expect(id).toBeTruthy();
  const lines = linesOf(id);
  expect(lines, JSON.stringify(written.map((w) => w.text.slice(0, 200)))).toHaveLength(1);
  return { ...lines[0], id };
}

const asOwner = (owner: Actor, method: string, path: string, body?: unknown) =>
  owner.fetch(method, path, body, { headers: { "X-Request-Id": unique("req") } });

describe("request log", () => {
  it("writes one line per request: id, method, route pattern (no ids), status, duration and organization", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const res = await asOwner(owner, "GET", `/knowledge-bases/${kb.id}/`);
    expect(res.status).toBe(200);
    const { line, text, stream, id } = await logged(res);
    expect(stream).toBe("info");
    expect(line).toMatchObject({
      level: "info",
      requestId: id,
      method: "GET",
      route: "/api/v1/knowledge-bases/:id/",
      status: 200,
      organizationId: owner.organizationId,
    });
    expect(line.durationMs).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain(kb.id);
    expect(text).not.toContain(owner.key);
  });

  it("carries no message body, key or query string", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const secret = `my card number is 4111-${unique("card")}`;
    const res = await owner.fetch(
      "POST",
      `/chatbots/${bot.id}/completions/?debug=${secret}`,
      { message: { content: secret } },
      { prefix: "/api", headers: { "X-Request-Id": unique("req") } },
    );
    expect(res.status).toBe(200);
    const { line, text } = await logged(res);
    expect(line).toMatchObject({
      method: "POST",
      route: "/api/chatbots/:chatbotId/completions/",
      status: 200,
      organizationId: owner.organizationId,
    });
    for (const leak of [secret, owner.key, bot.id, "debug"]) expect(text).not.toContain(leak);
  });

  it("marks a streamed reply", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const res = await asOwner(owner, "POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Hello" },
      isStreaming: true,
    });
    expect(res.status).toBe(200);
    expect((await logged(res)).line).toMatchObject({ status: 200, streamed: true });
  });

  it("4xx: the error code in the line, the request id in the body as in the header", async () => {
    const owner = await seedOwner();
    const cases: [Response, number, string, string | null][] = [
      [
        await call("GET", "/api/v1/knowledge-bases/", undefined, { "X-Request-Id": unique("req") }),
        401,
        "not_authenticated",
        "/api/v1/knowledge-bases/",
      ],
      [await asOwner(owner, "POST", "/knowledge-bases/", { name: 5 }), 400, "invalid", "/api/v1/knowledge-bases/"],
      [
        await asOwner(owner, "GET", `/knowledge-bases/${crypto.randomUUID()}/`),
        404,
        "not_found",
        "/api/v1/knowledge-bases/:id/",
      ],
      [await asOwner(owner, "GET", "/no-such-thing/"), 404, "not_found", null],
    ];
    for (const [res, status, code, route] of cases) {
      const body = await problemOf(res.clone());
      const { line, stream, id } = await logged(res);
      expect(body).toMatchObject({ code, requestId: id });
      expect(stream).toBe("warn");
      expect(line).toMatchObject({ level: "warn", status, code, route });
      expect(line.error).toBeUndefined();
    }
  });

  it("500: the stack in the line, scrubbed of keys; the body has the request id and no stack", async () => {
    const owner = await seedOwner();
    // D1 failing underneath (a binding that throws), with a key-shaped string in its message.
    const broken = {
      prepare() {
        throw new Error(
          `D1 unavailable for Bearer sk-live-${"x".repeat(20)} at postgres://app:hunter2@db.internal/main`,
        );
      },
    };
    const res = await owner.fetch("GET", "/knowledge-bases/", undefined, {
      headers: { "X-Request-Id": unique("req") },
      settings: { DB: standIn("DB", broken) },
    });
    expect(res.status).toBe(500);
    const body = await problemOf(res.clone());
    const { line, text, stream, id } = await logged(res);
    expect(body).toEqual({ detail: "A server error occurred.", code: "server_error", requestId: id });
    expect(stream).toBe("error");
    expect(line).toMatchObject({ level: "error", status: 500, route: "/api/v1/knowledge-bases/" });
    expect(line.error!.message).toContain("D1 unavailable");
    expect(line.error!.stack).toMatch(/at /);
    for (const leak of ["sk-live", "hunter2", owner.key]) expect(text).not.toContain(leak);
  });

  it("scrub removes API keys, bearer tokens and URL passwords", () => {
    expect(scrub("key ak_0123456789abcdefghij0123456789abcdefghij and sk-proj-abcdefghijkl")).toBe(
      "key [redacted] and [redacted]",
    );
    expect(scrub("Authorization: Api-Key abc123 / Bearer xyz")).toBe(
      "Authorization: Api-Key [redacted] / Bearer [redacted]",
    );
    expect(scrub("postgresql://user:pa55@host:5432/db")).toBe("postgresql://user:[redacted]@host:5432/db");
  });
});
