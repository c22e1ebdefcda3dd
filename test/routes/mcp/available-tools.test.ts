import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, type Actor } from "../../harness";
import { bodyOf } from "../../support/api";

const mcp = (path = "/mcp") => `${env.TEST_MCP_URL}${path}`;
const query = (params: Record<string, string | string[]>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) q.append(k, one);
  return `/tools/available-tools/?${q}`;
};

async function mcpTool(owner: Actor, extra: Record<string, unknown> = {}) {
  const res = await owner.fetch("POST", "/tools/", {
    displayName: "Remote",
    toolType: "mcp",
    mcpUrl: mcp("/auth/mcp"),
    ...extra,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /tools/">(res);
}

describe("GET /tools/available-tools/", () => {
  it("lists the server's tools under both prefixes, narrowed by mcpAllowedTools and availableTools", async () => {
    const owner = await seedOwner();
    for (const prefix of PREFIXES) {
      const res = await owner.fetch("GET", query({ mcpUrl: mcp() }), undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(200);
      const body = await bodyOf<"GET /tools/available-tools/">(res);
      expect(body).toMatchObject({
        server: { name: "test-mcp-server", version: "1.2.3" },
        transport: "streamable-http",
        credential: "none",
      });
      expect(body.tools.map((t) => t.name)).toEqual(["add", "whoami", "fail", "sleep", "big", "lookup_order"]);
      expect(body.tools[0]).toMatchObject({
        title: "Add numbers",
        inputSchema: { type: "object", required: ["a", "b"] },
      });
    }
    const narrowed = await bodyOf<"GET /tools/available-tools/">(
      await owner.fetch(
        "GET",
        query({ mcp_url: mcp(), mcp_allowed_tools: '["add","whoami","big"]', availableTools: ["add", "big"] }),
      ),
    );
    expect(narrowed.tools.map((t) => t.name)).toEqual(["add", "big"]);
    const csv = await (
      await owner.fetch("GET", query({ mcpUrl: mcp("/sse"), mcpAllowedTools: "whoami, fail" }))
    ).json();
    expect(csv).toMatchObject({ transport: "sse", tools: [{ name: "whoami" }, { name: "fail" }] });
  });

  it("sends rawMcpHeader, and your stored credential for toolId in its place", async () => {
    const owner = await seedOwner();
    const ok = await owner.fetch(
      "GET",
      query({ mcpUrl: mcp("/auth/mcp"), rawMcpHeader: '{"Authorization": "Bearer good-token"}' }),
    );
    expect(await ok.json()).toMatchObject({ credential: "rawMcpHeader" });
    await expectError(
      await owner.fetch("GET", query({ mcpUrl: mcp("/auth/mcp"), rawMcpHeader: '{"Authorization": "Bearer bad"}' })),
      400,
      "mcp_unauthorized",
    );

    const tool = await mcpTool(owner, { rawMcpHeader: { Authorization: "Bearer good-token" } });
    // The tool's own headers when nothing else is given.
    expect(await (await owner.fetch("GET", query({ mcpUrl: mcp("/auth/mcp"), toolId: tool.id }))).json()).toMatchObject(
      { credential: "tool" },
    );
    const stored = await owner.fetch("POST", `/tools/${tool.id}/credentials/`, {
      headers: { Authorization: "Bearer wrong-member-token" },
    });
    expect(stored.status).toBe(201);
    // The member's credential wins over rawMcpHeader (and the server refuses this one).
    await expectError(
      await owner.fetch(
        "GET",
        query({ mcpUrl: mcp("/auth/mcp"), toolId: tool.id, rawMcpHeader: '{"Authorization": "Bearer good-token"}' }),
      ),
      400,
      "mcp_unauthorized",
    );
    await owner.fetch("POST", `/tools/${tool.id}/credentials/`, { headers: { Authorization: "Bearer good-token" } });
    expect(await (await owner.fetch("GET", query({ mcpUrl: mcp("/auth/mcp"), toolId: tool.id }))).json()).toMatchObject(
      { credential: "member" },
    );
  });

  it("answers 400 saying why: refused address, bad headers, unreachable, not MCP, timeout, missing URL", async () => {
    const owner = await seedOwner();
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ mcpUrl: "http://169.254.169.254/mcp" }, "invalid", /outbound address guard/],
      [{ mcpUrl: "ftp://example.com/mcp" }, "invalid", /http and https/],
      [{ mcpUrl: mcp(), rawMcpHeader: "{not json" }, "invalid", /JSON object/],
      [{ mcpUrl: mcp(), rawMcpHeader: '{"Bad Name": "x"}' }, "invalid", /header name/],
      [{ mcpUrl: mcp(), rawMcpHeader: '["x"]' }, "invalid", /object/],
      [{ mcpUrl: mcp("/html") }, "mcp_not_mcp", /does not answer as an MCP server/],
      [{ mcpUrl: mcp("/hang") }, "mcp_timeout", /did not answer/],
      [{}, "invalid", /./],
    ];
    for (const [params, code, detail] of cases) {
      const res = await owner.fetch("GET", query(params));
      expect(JSON.stringify(await expectError(res, 400, code))).toMatch(detail);
    }
    const port = new URL(env.TEST_MCP_URL).port;
    const closed = await owner.fetch("GET", query({ mcpUrl: "http://127.0.0.1:9/mcp" }), undefined, {
      settings: { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1,127.0.0.1:${port}` },
    });
    await expectError(closed, 400, "mcp_unreachable");
    await expectError(await owner.fetch("GET", query({ mcpUrl: mcp(), toolId: "not-a-uuid" })), 404);
  });

  it("401 without a key, 403 without tool.view, 404 for another organization's toolId", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api/v1${query({ mcpUrl: mcp() })}`), 401, "not_authenticated");
    const member = await seedMember(owner, []);
    await expectError(await member.fetch("GET", query({ mcpUrl: mcp() })), 403, "permission_denied");
    const other = await seedOwner();
    const theirs = await mcpTool(other);
    await expectError(await owner.fetch("GET", query({ mcpUrl: mcp(), toolId: theirs.id })), 404, "not_found");
    await expectError(await owner.fetch("GET", query({ mcpUrl: mcp(), toolId: NO_SUCH_ID })), 404, "not_found");
  });
});
