import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tools } from "../../../src/db/schema";
import { db, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, seedStaff, unique } from "../../harness";
import { countInParts, parts } from "../../harness";
import { deleteTool } from "../../../src/services/tools/store";
import { deletingAfter } from "../../support/races";
import { purgedThrough } from "../../support/purges";
import { expectDenied, expectNotFound, expectUnknownIds } from "../../support/refusals";
import { createTool, weatherToolBody } from "../../fixtures/tools";
import { bodyOf } from "../../support/api";
import type { McpTestServer } from "../../support/mcp-server.mjs";
import { agentWith } from "../../support/tool-calls";

const apiToolBody = (overrides: Record<string, unknown> = {}) =>
  weatherToolBody({ name: unique("get_weather").replace(/[^A-Za-z0-9_-]/g, "_"), ...overrides });

const BODIES: Record<string, () => Record<string, unknown>> = {
  api: () => apiToolBody(),
  function: () => ({
    name: unique("add"),
    displayName: "Add",
    toolType: "function",
    functionCode: "function main(a) { return a.x + a.y; }",
  }),
  mcp: () => ({ displayName: "Remote", toolType: "mcp", mcpUrl: "https://mcp.example.com/mcp" }),
  desktop: () => ({ name: unique("open_file"), displayName: "Open file", toolType: "desktop" }),
  flex: () => ({
    name: unique("card"),
    displayName: "Card",
    toolType: "flex",
    flexTemplateJson: { type: "bubble", body: { text: "{{title}}" } },
    flexSchema: { title: "A short title" },
  }),
  quick_reply: () => ({
    name: unique("chips"),
    displayName: "Chips",
    toolType: "quick_reply",
    quickReplyConfig: { mode: "static", items: ["Yes", { label: "No", text: "No thanks" }] },
  }),
};

describe("tools CRUD", () => {
  it("creates, reads, lists, updates and deletes every tool type under both prefixes", async () => {
    const owner = await seedOwner();
    for (const [type, body] of Object.entries(BODIES)) {
      for (const prefix of PREFIXES) {
        const created = await owner.fetch("POST", "/tools/", body(), { prefix });
        expect(created.status, await created.clone().text()).toBe(201);
        const tool = await bodyOf<"POST /tools/">(created);
        expect(tool).toMatchObject({
          toolType: type,
          organization: owner.organizationId,
          isGlobal: false,
          canUpdate: true,
          canDelete: true,
        });
        const got = await owner.fetch("GET", `/tools/${tool.id}/`, undefined, { prefix });
        expect(got.status).toBe(200);
        const patched = await owner.fetch("PATCH", `/tools/${tool.id}/`, { description: "changed" }, { prefix });
        expect(patched.status, await patched.clone().text()).toBe(200);
        expect((await bodyOf<"PATCH /tools/{id}/">(patched)).description).toBe("changed");
        const put = await owner.fetch(
          "PUT",
          `/tools/${tool.id}/`,
          { ...body(), name: tool.name, prompt: "Use me" },
          { prefix },
        );
        expect(put.status, await put.clone().text()).toBe(200);
        const deleted = await owner.fetch("DELETE", `/tools/${tool.id}/`, undefined, { prefix });
        expect(deleted.status).toBe(204);
        expect((await owner.fetch("GET", `/tools/${tool.id}/`, undefined, { prefix })).status).toBe(404);
      }
    }
  });

  it("lists with filters: desktop tools only for clientPlatform=desktop, toolType, isGlobal", async () => {
    const owner = await seedOwner();
    for (const body of Object.values(BODIES)) expect((await owner.fetch("POST", "/tools/", body())).status).toBe(201);
    const list = async (q: string) => await bodyOf<"GET /tools/">(await owner.fetch("GET", `/tools/${q}`));
    const plain = await list("");
    expect(plain.count).toBe(5);
    expect(plain.results.some((t) => t.toolType === "desktop")).toBe(false);
    expect((await list("?client_platform=desktop")).count).toBe(6);
    expect((await list("?toolType=function")).results.map((t) => t.toolType)).toEqual(["function"]);
    expect((await list("?isGlobal=true")).results.every((t) => t.isGlobal)).toBe(true);
  });

  it("a quick-reply configuration's fields in snake_case are its camelCase ones (max_items is maxItems)", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/tools/", {
      ...BODIES.quick_reply(),
      quickReplyConfig: undefined,
      quick_reply_config: { mode: "dynamic", max_items: 3 },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await bodyOf<"POST /tools/">(res)).quickReplyConfig).toEqual({ mode: "dynamic", maxItems: 3 });
  });

  it("400 for bad input, nothing written", async () => {
    const owner = await seedOwner();
    const cases: Record<string, unknown>[] = [
      { ...apiToolBody(), name: "has space" },
      { ...apiToolBody(), name: "x".repeat(65) },
      { ...apiToolBody(), apiUrl: null },
      { ...apiToolBody(), httpMethod: "trace" },
      { ...apiToolBody(), toolType: "nope" },
      { ...apiToolBody(), displayName: "" },
      { ...apiToolBody(), rawParametersSchema: { type: "string" } },
      { ...apiToolBody(), rawHeaders: { "Bad Header": "x" } },
      { ...apiToolBody(), apiUrl: "http://169.254.169.254/latest/meta-data" },
      { ...apiToolBody(), apiUrl: "http://127.0.0.1:9/x" },
      { ...apiToolBody(), apiUrl: "http://[::1]/x" },
      { ...apiToolBody(), apiUrl: "ftp://example.com/x" },
      { ...BODIES.function(), functionCode: "function main( {" },
      { ...BODIES.function(), functionCode: null },
      { ...BODIES.flex(), flexTemplateJson: null },
      { ...BODIES.flex(), flexSchema: { title: 3 } },
      { ...BODIES.quick_reply(), quickReplyConfig: { mode: "static", items: [] } },
      { ...BODIES.quick_reply(), quickReplyConfig: { mode: "weird" } },
      { ...BODIES.desktop(), name: null },
      { ...apiToolBody(), groups: [{ id: NO_SUCH_ID }] },
    ];
    for (const body of cases) await expectError(await owner.fetch("POST", "/tools/", body), 400);
    const rows = await db().select().from(tools).where(eq(tools.organizationId, owner.organizationId));
    expect(rows).toHaveLength(0);
  });

  it("400 naming rawParametersSchema for a schema the arguments validator cannot use (create, update)", async () => {
    const owner = await seedOwner();
    const unusable = [
      // A property refers to a definition the schema does not have.
      { type: "object", properties: { id: { $ref: "#/$defs/OrderId" } } },
      { type: "object", properties: { code: { type: "string", pattern: "([A-Z" } } },
      { type: "object", patternProperties: { "(": { type: "string" } } },
    ];
    for (const rawParametersSchema of unusable) {
      const body = await expectError(
        await owner.fetch("POST", "/tools/", { ...apiToolBody(), rawParametersSchema }),
        400,
      );
      expect(body.detail).toContain("rawParametersSchema");
    }
    const usable = { type: "object", properties: { id: { $ref: "#/$defs/OrderId" } }, $defs: { OrderId: {} } };
    const created = await owner.fetch("POST", "/tools/", { ...apiToolBody(), rawParametersSchema: usable });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = await bodyOf<"POST /tools/">(created);
    const patched = await owner.fetch("PATCH", `/tools/${id}/`, { rawParametersSchema: unusable[0] });
    expect((await expectError(patched, 400)).detail).toContain("rawParametersSchema");
  });

  it("400 naming functionCode for code nested too deeply to compile (it was a 500)", async () => {
    const owner = await seedOwner();
    // 90,000 characters, under the field's 100,000: QuickJS's parser recurses per bracket.
    const functionCode = `function main() { return ${"[".repeat(45_000)}${"]".repeat(45_000)}; }`;
    const body = await expectError(await owner.fetch("POST", "/tools/", { ...BODIES.function(), functionCode }), 400);
    expect(body.detail).toContain("functionCode: Does not compile");
  });

  it("allows a loopback apiUrl only when OUTBOUND_ALLOWED_HOSTS names it", async () => {
    const owner = await seedOwner();
    const body = { ...apiToolBody(), apiUrl: "http://127.0.0.1:9/x" };
    await expectError(await owner.fetch("POST", "/tools/", body), 400);
    const res = await owner.fetch("POST", "/tools/", body, {
      settings: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1:9", WEBHOOK_ALLOWED_HOSTS: "" },
    });
    expect(res.status).toBe(201);
  });

  it("409 for a duplicate name in the organization, fine in another", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const body = apiToolBody();
    expect((await owner.fetch("POST", "/tools/", body)).status).toBe(201);
    await expectError(await owner.fetch("POST", "/tools/", body), 409, "conflict");
    expect((await other.fetch("POST", "/tools/", body)).status).toBe(201);
  });

  it("401 without a key", async () => {
    for (const prefix of PREFIXES) {
      const res = await SELFfetch(`${prefix}/tools/`);
      await expectError(res, 401, "not_authenticated");
    }
  });

  it("403 without tool.manage or tool.view; members see tools only through their groups", async () => {
    const owner = await seedOwner();
    const plain = await seedMember(owner);
    await expectDenied(await plain.fetch("GET", "/tools/"));
    await expectDenied(await plain.fetch("POST", "/tools/", apiToolBody()));
    const viewer = await seedMember(owner, ["tool.view"]);
    await expectDenied(await viewer.fetch("POST", "/tools/", { ...apiToolBody(), groups: [{ id: viewer.groupId }] }));

    const manager = await seedMember(owner, ["tool.manage"]);
    // A non-owner must pick one of their own groups.
    await expectError(await manager.fetch("POST", "/tools/", apiToolBody()), 400);
    const mine = await manager.fetch("POST", "/tools/", { ...apiToolBody(), groups: [{ id: manager.groupId }] });
    expect(mine.status, await mine.clone().text()).toBe(201);
    const mineTool = await bodyOf<"POST /tools/">(mine);
    // The owner's tool without groups is invisible to members.
    const hidden = await bodyOf<"POST /tools/">(await owner.fetch("POST", "/tools/", apiToolBody()));
    await expectError(await manager.fetch("GET", `/tools/${hidden.id}/`), 404);
    await expectError(await manager.fetch("PATCH", `/tools/${hidden.id}/`, { description: "x" }), 404);
    await expectError(await viewer.fetch("GET", `/tools/${mineTool.id}/`), 404);
    const listed = await bodyOf<"GET /tools/">(await manager.fetch("GET", "/tools/"));
    expect(listed.results.map((t) => t.id)).toEqual([mineTool.id]);
    // Another group of the organization that the manager is not in: 403.
    const otherMember = await seedMember(owner, ["chatbot.view"]);
    await expectError(
      await manager.fetch("PATCH", `/tools/${mineTool.id}/`, {
        groups: [{ id: manager.groupId }, { id: otherMember.groupId }],
      }),
      403,
    );
  });

  it("404 for another organization's tool, and for unknown or malformed ids", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const tool = await bodyOf<"POST /tools/">(await other.fetch("POST", "/tools/", apiToolBody()));
    await expectUnknownIds(owner, "/tools/", tool.id);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const body = method === "PUT" ? apiToolBody() : method === "PATCH" ? { description: "x" } : undefined;
      await expectNotFound(await owner.fetch(method, `/tools/${tool.id}/`, body));
    }
    expect((await other.fetch("GET", `/tools/${tool.id}/`)).status).toBe(200);
  });

  it("global tools: staff only create them; every organization sees them, only staff may change them", async () => {
    const staff = await seedStaff();
    const owner = await seedOwner();
    await expectError(await owner.fetch("POST", "/tools/", { ...apiToolBody(), isGlobal: true }), 403);
    const created = await staff.fetch("POST", "/tools/", { ...apiToolBody(), isGlobal: true });
    expect(created.status, await created.clone().text()).toBe(201);
    const tool = await bodyOf<"POST /tools/">(created);
    expect(tool).toMatchObject({ isGlobal: true, organization: null });
    const seen = await bodyOf<"GET /tools/{id}/">(await owner.fetch("GET", `/tools/${tool.id}/`));
    expect(seen.canUpdate).toBe(false);
    const globals = await bodyOf<"GET /tools/">(await owner.fetch("GET", "/tools/?isGlobal=true"));
    expect(globals.results.some((t) => t.id === tool.id)).toBe(true);
    await expectError(await owner.fetch("PATCH", `/tools/${tool.id}/`, { description: "x" }), 403);
    await expectError(await owner.fetch("DELETE", `/tools/${tool.id}/`), 403);
    expect((await staff.fetch("DELETE", `/tools/${tool.id}/`)).status).toBe(204);
  });

  it(
    "header values are write-only: records show them masked, to every organization for a global tool; a masked " +
      "value sent back keeps the stored one, and none follows the tool to another server",
    async () => {
      const staff = await seedStaff();
      const secret = `Bearer platform-${crypto.randomUUID()}`;
      const created = await staff.fetch("POST", "/tools/", {
        displayName: "Platform CRM",
        toolType: "mcp",
        mcpUrl: "https://mcp.example.com/mcp",
        rawMcpHeader: { Authorization: secret, "X-Tenant": "acme" },
        isGlobal: true,
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const tool = await bodyOf<"POST /tools/">(created);
      const masked = { Authorization: `…${secret.slice(-4)}`, "X-Tenant": "••••" };
      expect(tool.rawMcpHeader).toEqual(masked);
      const outsider = await seedOwner();
      const seen = await outsider.fetch("GET", `/tools/${tool.id}/`);
      expect(seen.status).toBe(200);
      const listed = await outsider.fetch("GET", "/tools/?isGlobal=true&toolType=mcp");
      expect(await seen.text()).not.toContain(secret);
      expect(await listed.text()).not.toContain(secret);
      const stored = async () => (await db().select().from(tools).where(eq(tools.id, tool.id)))[0];

      // An edit form sends every field back as read: the masks keep the stored values; a new value replaces one.
      const edited = await staff.fetch("PATCH", `/tools/${tool.id}/`, {
        mcpUrl: "https://mcp.example.com/v2/mcp",
        rawMcpHeader: { ...masked, "X-Tenant": "beta" },
      });
      expect(edited.status, await edited.clone().text()).toBe(200);
      expect((await stored()).rawMcpHeader).toEqual({ Authorization: secret, "X-Tenant": "beta" });
      // Pointed at another server: the masks no longer stand for anything, and headers left out go.
      await staff.fetch("PATCH", `/tools/${tool.id}/`, {
        mcpUrl: "https://elsewhere.example.com/mcp",
        rawMcpHeader: { ...masked, "X-New": "given" },
      });
      expect((await stored()).rawMcpHeader).toEqual({ "X-New": "given" });
      await staff.fetch("PATCH", `/tools/${tool.id}/`, { mcpUrl: "https://third.example.com/mcp" });
      expect((await stored()).rawMcpHeader).toBeNull();
      // A mask that names no stored value would be sent as the credential: refused, on a change and on a create.
      const stale = await staff.fetch("PATCH", `/tools/${tool.id}/`, { rawMcpHeader: masked });
      expect((await expectError(stale, 400, "invalid")).errors?.rawMcpHeader).toBeTruthy();
      expect((await stored()).rawMcpHeader).toBeNull();
      const copied = await staff.fetch("POST", "/tools/", { ...apiToolBody(), rawHeaders: { "X-Api-Key": "…abcd" } });
      expect((await expectError(copied, 400, "invalid")).errors?.rawHeaders).toBeTruthy();

      // An api tool's headers alike.
      const api = await bodyOf<"POST /tools/">(
        await staff.fetch("POST", "/tools/", { ...apiToolBody(), rawHeaders: { "X-Api-Key": secret } }),
      );
      expect(api.rawHeaders).toEqual({ "X-Api-Key": `…${secret.slice(-4)}` });
      await staff.fetch("PATCH", `/tools/${api.id}/`, { rawHeaders: api.rawHeaders });
      expect((await db().select().from(tools).where(eq(tools.id, api.id)))[0].rawHeaders).toEqual({
        "X-Api-Key": secret,
      });
    },
  );

  it("two changes at once (move the URL; send the masked header back) give the new host no secret", async () => {
    const owner = await seedOwner();
    const secret = `tool-secret-${crypto.randomUUID()}`;
    const tool = await createTool(owner, weatherToolBody({ rawHeaders: { "X-Api-Key": secret } }));
    const masked = (tool as unknown as { rawHeaders: Record<string, string> }).rawHeaders["X-Api-Key"];
    expect(masked).not.toBe(secret);
    const collect = `/collect-${unique("tool")}`;
    // Each alone is fine: moved, the stored header is dropped; sent back masked at the same URL, it is kept. At once,
    // the second read the tool before the first moved it: its write finds the URL changed, and it reads again.
    const [moved, resent] = await Promise.all([
      owner.fetch("PATCH", `/tools/${tool.id}/`, { apiUrl: `${env.TEST_MCP_URL}${collect}` }),
      owner.fetch("PATCH", `/tools/${tool.id}/`, { rawHeaders: { "X-Api-Key": masked } }),
    ]);
    // The resent mask: kept when it came first; a 400 when the move came first (it then names no stored value).
    expect(moved.status).toBe(200);
    expect([200, 400]).toContain(resent.status);
    const [row] = await db().select().from(tools).where(eq(tools.id, tool.id));
    expect(row.apiUrl).toBe(`${env.TEST_MCP_URL}${collect}`);
    expect(JSON.stringify(row.rawHeaders)).not.toContain(secret);
    // The tool's next call goes to the new host (the MCP test server records each request's headers) without it.
    const bot = await agentWith(owner, [tool]);
    const asked = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Use get_weather with city: Paris" },
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    const stats = await (await fetch(`${env.TEST_MCP_URL}/stats`)).json<McpTestServer["stats"]>();
    const atNewHost = stats.requests.filter((r) => r.path.startsWith(collect));
    expect(atNewHost.length).toBeGreaterThan(0);
    expect(atNewHost.map((r) => r.apiKey)).not.toContain(secret);
  });

  it("a call recorded as the tool is deleted loses it, even with the purge run before the tool went", async () => {
    const owner = await seedOwner();
    const tool = await createTool(owner, weatherToolBody());
    const bot = await agentWith(owner, [tool]);
    const records = () => countInParts(owner.organizationId, "tool_execution_records", "tool_id = ?", tool.id);
    // After the delete wrote its purge, before it deletes the tool: the housekeeping runs the purge (nothing to take
    // yet), then the assistant calls the tool, which still exists, and records the call.
    const called = async () => {
      await purgedThrough(owner.organizationId, "tool", tool.id);
      const asked = { message: { content: "Use get_weather with city: Paris" } };
      expect((await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, asked, { settings: {} })).status).toBe(200);
    };
    const held = { id: tool.id, organizationId: owner.organizationId };
    await deleteTool(deletingAfter(db(), called), await parts(owner.organizationId), held);
    expect(await records()).toBeGreaterThan(0);
    await purgedThrough(owner.organizationId, "tool", tool.id);
    expect(await records()).toBe(0);
  });

  it("assistants take tools: [{id}] on create and update, and show them", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const tool = await bodyOf<"POST /tools/">(await owner.fetch("POST", "/tools/", apiToolBody()));
    const foreign = await bodyOf<"POST /tools/">(await other.fetch("POST", "/tools/", apiToolBody()));
    const res = await owner.fetch("POST", "/chatbots/", {
      name: unique("bot"),
      largeLanguageModel: "00000000-0000-7000-8000-000000000001",
      replyMode: "agent",
      tools: [{ id: tool.id }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const bot = await bodyOf<"POST /chatbots/">(res);
    expect(bot.tools).toEqual([{ id: tool.id, name: tool.displayName }]);
    await expectError(await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { tools: [{ id: foreign.id }] }), 400);
    const cleared = await bodyOf<"PATCH /chatbots/{id}/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { tools: [] }),
    );
    expect(cleared.tools).toEqual([]);
  });
});

async function SELFfetch(url: string) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`http://localhost${url}`);
}
