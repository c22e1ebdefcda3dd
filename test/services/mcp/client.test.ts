import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectInstance } from "../../support/errors";
import type { Bindings } from "../../../src/env";
import { listAllTools, openMcpSession, McpConnectError } from "../../../src/services/mcp/client";
import { callRemoteTool } from "../../../src/services/mcp/remote-tools";

const bindings = env;
const mcp = (path: string) => `${env.TEST_MCP_URL}${path}`;

async function problem(url: string, headers: Record<string, string> = {}, settings: Partial<Bindings> = {}) {
  const err = await openMcpSession({ ...bindings, ...settings }, url, headers, 1000).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpConnectError);
  return expectInstance(err, McpConnectError);
}

describe("the MCP client in workerd (the SDK's transports)", () => {
  it("connects over Streamable HTTP, lists tools and calls them over one session", async () => {
    const session = await openMcpSession(bindings, mcp("/mcp"), { "X-Api-Key": "k-1" });
    try {
      expect(session.transport).toBe("streamable-http");
      expect(session.server).toEqual({ name: "test-mcp-server", version: "1.2.3" });
      const tools = await listAllTools(session, 1000);
      expect(tools.map((t) => t.name)).toEqual(["add", "whoami", "fail", "sleep", "big", "lookup_order"]);
      expect(await callRemoteTool(session, "add", { a: 2, b: 3 }, 1000)).toMatchObject({
        status: "success",
        output: "5",
        forModel: "5",
      });
      expect(await callRemoteTool(session, "whoami", {}, 1000)).toMatchObject({
        status: "success",
        output: { apiKey: "k-1", authorization: null },
      });
      expect(await callRemoteTool(session, "lookup_order", { orderId: "A1" }, 1000)).toMatchObject({
        status: "success",
        output: { orderId: "A1", status: "shipped" },
      });
      expect(await callRemoteTool(session, "fail", {}, 1000)).toMatchObject({
        status: "failure",
        error: "the tool broke on purpose",
      });
      expect(await callRemoteTool(session, "sleep", { ms: 1500 }, 300)).toMatchObject({ status: "timeout" });
      expect(await callRemoteTool(session, "big", { bytes: 2_000_000 }, 3000)).toMatchObject({
        status: "failure",
        error: expect.stringMatching(/over 1048576 bytes/),
      });
    } finally {
      await session.close();
    }
  });

  it("falls back to the older HTTP+SSE transport", async () => {
    const session = await openMcpSession(bindings, mcp("/sse"), {});
    try {
      expect(session.transport).toBe("sse");
      expect(await callRemoteTool(session, "add", { a: 1, b: 1 }, 1000)).toMatchObject({
        status: "success",
        output: "2",
      });
    } finally {
      await session.close();
    }
  });

  it("says why a server cannot be used", async () => {
    expect((await problem("http://10.0.0.1/mcp")).kind).toBe("refused");
    expect((await problem(mcp("/mcp"), {}, { OUTBOUND_ALLOWED_HOSTS: "" })).kind).toBe("refused");
    expect((await problem(mcp("/html"))).kind).toBe("not_mcp");
    expect((await problem(mcp("/hang"))).kind).toBe("timeout");
    expect((await problem(mcp("/auth/mcp"))).kind).toBe("unauthorized");
    expect((await problem(mcp("/mcp"), { "Bad Header": "x" })).kind).toBe("bad_headers");
    expect((await problem(mcp("/mcp"), { "X-Ok": "a\nb" })).kind).toBe("bad_headers");
    const port = new URL(env.TEST_MCP_URL).port;
    // A closed port on an allowed host.
    const closed = await problem(
      "http://127.0.0.1:1/mcp",
      {},
      { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1,127.0.0.1:${port}` },
    );
    expect(closed).toMatchObject({
      kind: "unreachable",
      detail: "Could not reach the MCP server: connection refused (127.0.0.1:1).",
    });
    // A real name that never resolves (RFC 6761), and the guard naming the setting that would let a loopback server
    // through.
    expect(await problem("http://no-such-host.invalid/mcp")).toMatchObject({
      kind: "unreachable",
      detail: "Could not reach the MCP server: could not resolve host no-such-host.invalid.",
    });
    expect((await problem("http://127.0.0.1:7/mcp")).detail).toContain(
      "Loopback addresses are refused unless OUTBOUND_ALLOWED_HOSTS names them (127.0.0.1:7)",
    );
  });
});
