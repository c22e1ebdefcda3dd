import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, db, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { connectors, mcpCredentials } from "../../../src/db/schema";
import { eq } from "drizzle-orm";
import { bodyOf } from "../../support/api";
import { updatingAfter } from "../../support/races";
import { getConnector } from "../../../src/services/mcp/connectors";
import { updateConnector } from "../../../src/services/mcp/connector-write";
import { openHeaders, storeMemberCredential } from "../../../src/services/mcp/credentials";

const CUSTOM = "00000000-0000-7000-8100-000000000001";
const GITHUB = "00000000-0000-7000-8100-000000000002";
const SHOPIFY = "00000000-0000-7000-8100-000000000011";
const mcp = (path = "/mcp") => `${env.TEST_MCP_URL}${path}`;

async function create(owner: Actor, body: Record<string, unknown> = {}) {
  const res = await owner.fetch("POST", "/connectors/", {
    mcpRegistryId: CUSTOM,
    urlVariables: { serverUrl: mcp() },
    ...body,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /connectors/">(res);
}

const countOf = async (organizationId: string) =>
  (await db().select().from(connectors).where(eq(connectors.organizationId, organizationId))).length;

describe("GET /mcp/registry/", () => {
  it("lists the seeded catalogue under both prefixes and gets one entry", async () => {
    const owner = await seedOwner();
    for (const prefix of PREFIXES) {
      const res = await owner.fetch("GET", "/mcp/registry/", undefined, { prefix });
      expect(res.status).toBe(200);
      const entries = await bodyOf<"GET /mcp/registry/">(res);
      expect(entries[0]).toMatchObject({
        id: CUSTOM,
        slug: "custom",
        authKind: "headers",
        urlVariables: [{ name: "serverUrl" }],
      });
      expect(entries.map((e) => e.slug)).toContain("github");
    }
    expect(await (await owner.fetch("GET", `/mcp/registry/${SHOPIFY}/`)).json()).toMatchObject({
      serverUrlTemplate: "https://{shop}.myshopify.com/api/mcp",
    });
    await expectNotFound(await owner.fetch("GET", `/mcp/registry/${NO_SUCH_ID}/`));
    await expectNotFound(await owner.fetch("GET", "/mcp/registry/nope/"));
    await expectError(await call("GET", "/api/v1/mcp/registry/"), 401, "not_authenticated");
    // Read-only: nothing but GET.
    await expectError(await owner.fetch("POST", "/mcp/registry/", {}), 405);
  });
});

describe("connectors", () => {
  it("creates, lists, gets, replaces, patches and deletes (both prefixes); headers are write-only", async () => {
    const owner = await seedOwner();
    const made = await create(owner, { authHeaders: { Authorization: "Bearer secret" } });
    expect(made).toMatchObject({
      mcpRegistryId: CUSTOM,
      displayName: "Custom MCP server",
      serverUrl: mcp(),
      hasAuthHeaders: true,
      isEnabled: true,
      mcpRegistry: { slug: "custom" },
    });
    expect(JSON.stringify(made)).not.toContain("secret");
    const shop = await create(owner, {
      mcpRegistryId: SHOPIFY,
      urlVariables: { shop: "my-store" },
      displayName: "Shop",
    });
    expect(shop).toMatchObject({
      serverUrl: "https://my-store.myshopify.com/api/mcp",
      hasAuthHeaders: false,
      displayName: "Shop",
    });

    const list = await bodyOf<"GET /connectors/">(
      await owner.fetch("GET", "/connectors/", undefined, { prefix: "/api" }),
    );
    expect(list.count).toBe(2);
    expect(list.results[0].id).toBe(shop.id);
    await owner.fetch("PATCH", `/connectors/${shop.id}/`, { isEnabled: false });
    expect((await bodyOf<"GET /connectors/">(await owner.fetch("GET", "/connectors/?is_enabled=true"))).count).toBe(1);

    // Another path of the same server keeps the headers (and members' credentials); another server does not.
    const within = await owner.fetch("PATCH", `/connectors/${made.id}/`, { urlVariables: { serverUrl: mcp("/v2") } });
    expect(await within.json()).toMatchObject({ serverUrl: mcp("/v2"), hasAuthHeaders: true });
    await owner.fetch("POST", `/connectors/${made.id}/credentials/`, { headers: { Authorization: "Bearer mine" } });
    const put = await owner.fetch("PUT", `/connectors/${made.id}/`, { mcpRegistryId: GITHUB, displayName: "Code" });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await put.json()).toMatchObject({
      mcpRegistryId: GITHUB,
      serverUrl: "https://api.githubcopilot.com/mcp/",
      displayName: "Code",
      hasAuthHeaders: false,
      urlVariables: {},
    });
    expect(await (await owner.fetch("GET", `/connectors/${made.id}/authorized-members/`)).json()).toEqual([]);
    // Headers given with the move are the server's own.
    const given = await owner.fetch("PATCH", `/connectors/${made.id}/`, {
      mcpRegistryId: CUSTOM,
      urlVariables: { serverUrl: mcp() },
      authHeaders: { Authorization: "Bearer for-this-server" },
    });
    expect(await given.json()).toMatchObject({ serverUrl: mcp(), hasAuthHeaders: true });
    const cleared = await (
      await owner.fetch("PATCH", `/connectors/${made.id}/`, { authHeaders: null }, { prefix: "/api" })
    ).json();
    expect(cleared).toMatchObject({ hasAuthHeaders: false });
    expect(
      await (await owner.fetch("GET", `/connectors/${made.id}/`, undefined, { prefix: "/api" })).json(),
    ).toMatchObject({ displayName: "Code" });
    expect((await owner.fetch("DELETE", `/connectors/${made.id}/`)).status).toBe(204);
    await expectError(await owner.fetch("GET", `/connectors/${made.id}/`), 404);
  });

  it("400 for bad input and writes nothing; 503 for headers without ENCRYPTION_KEY", async () => {
    const owner = await seedOwner();
    const bad: Record<string, unknown>[] = [
      {},
      { mcpRegistryId: "nope" },
      { mcpRegistryId: NO_SUCH_ID },
      { mcpRegistryId: CUSTOM },
      { mcpRegistryId: CUSTOM, urlVariables: { serverUrl: "http://10.0.0.1/mcp" } },
      { mcpRegistryId: CUSTOM, urlVariables: { serverUrl: "not a url" } },
      { mcpRegistryId: SHOPIFY, urlVariables: { shop: "x", other: "y" } },
      { mcpRegistryId: GITHUB, authHeaders: { "Bad Name": "x" } },
      { mcpRegistryId: GITHUB, authHeaders: { Authorization: 12 } },
      { mcpRegistryId: GITHUB, authHeaders: { Authorization: "a\r\nb" } },
      { mcpRegistryId: GITHUB, isEnabled: "yes" },
    ];
    for (const body of bad) await expectError(await owner.fetch("POST", "/connectors/", body), 400);
    const res = await owner.fetch(
      "POST",
      "/connectors/",
      { mcpRegistryId: GITHUB, authHeaders: { Authorization: "Bearer x" } },
      { settings: { ENCRYPTION_KEY: undefined } },
    );
    await expectError(res, 503, "not_configured");
    expect(await countOf(owner.organizationId)).toBe(0);
    const made = await create(owner);
    await expectError(
      await owner.fetch("PATCH", `/connectors/${made.id}/`, { urlVariables: { serverUrl: "http://127.0.0.1:1/" } }),
      400,
    );
    await expectError(await owner.fetch("PUT", `/connectors/${made.id}/`, { displayName: "x" }), 400);
    expect(await (await owner.fetch("GET", `/connectors/${made.id}/`)).json()).toMatchObject({ serverUrl: mcp() });
  });

  it("401 without a key, 403 without the permission, 404 for another organization's", async () => {
    const owner = await seedOwner();
    const made = await create(owner);
    await expectError(await call("GET", "/api/v1/connectors/"), 401, "not_authenticated");
    await expectError(await call("POST", "/api/v1/connectors/", { mcpRegistryId: GITHUB }), 401, "not_authenticated");
    const nobody = await seedMember(owner, []);
    await expectDenied(await nobody.fetch("GET", "/connectors/"));
    await expectDenied(await nobody.fetch("GET", `/connectors/${made.id}/authorized-members/`));
    await expectDenied(await nobody.fetch("POST", `/connectors/${made.id}/credentials/`, { headers: { A: "b" } }));
    const viewer = await seedMember(owner, ["tool.view"]);
    expect((await viewer.fetch("GET", `/connectors/${made.id}/`)).status).toBe(200);
    await expectDenied(await viewer.fetch("POST", "/connectors/", { mcpRegistryId: GITHUB }));
    await expectDenied(await viewer.fetch("PATCH", `/connectors/${made.id}/`, { isEnabled: false }));
    await expectDenied(await viewer.fetch("DELETE", `/connectors/${made.id}/`));

    const other = await seedOwner();
    for (const [method, path, body] of [
      ["GET", `/connectors/${made.id}/`],
      ["PATCH", `/connectors/${made.id}/`, { isEnabled: false }],
      ["PUT", `/connectors/${made.id}/`, { mcpRegistryId: GITHUB }],
      ["DELETE", `/connectors/${made.id}/`],
      ["GET", `/connectors/${made.id}/authorized-members/`],
      ["DELETE", `/connectors/${made.id}/authorized-members/${NO_SUCH_ID}/`],
      ["POST", `/connectors/${made.id}/credentials/`, { headers: { A: "b" } }],
      ["DELETE", `/connectors/${made.id}/credentials/`],
    ] as [string, string, unknown?][]) {
      await expectNotFound(await other.fetch(method, path, body));
    }
    expect((await bodyOf<"GET /connectors/">(await other.fetch("GET", "/connectors/"))).count).toBe(0);
  });

  it("stores members' credentials (write-only, encrypted), lists holders, revokes one at once", async () => {
    const owner = await seedOwner();
    const made = await create(owner);
    const viewer = await seedMember(owner, ["tool.view"]);
    const stored = await viewer.fetch("POST", `/connectors/${made.id}/credentials/`, {
      headers: { Authorization: "Bearer mine" },
    });
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect(await stored.json()).toMatchObject({ hasCredential: true });
    // Replacing keeps one row.
    await viewer.fetch("POST", `/connectors/${made.id}/credentials/`, { headers: { Authorization: "Bearer mine-2" } });
    const [row, ...more] = await db().select().from(mcpCredentials).where(eq(mcpCredentials.connectorId, made.id));
    expect(more).toEqual([]);
    expect(row.headersSealed).not.toContain("mine");
    await owner.fetch("POST", `/connectors/${made.id}/credentials/`, { headers: { Authorization: "Bearer owner" } });

    const holders = await bodyOf<"GET /connectors/{id}/authorized-members/">(
      await viewer.fetch("GET", `/connectors/${made.id}/authorized-members/`, undefined, { prefix: "/api" }),
    );
    expect(holders.map((h) => h.memberId)).toEqual([viewer.memberId, expect.any(String)]);
    expect(JSON.stringify(holders)).not.toContain("Bearer");

    // A viewer may revoke only their own.
    await expectDenied(
      await viewer.fetch("DELETE", `/connectors/${made.id}/authorized-members/${holders[1].memberId}/`),
    );
    expect((await viewer.fetch("DELETE", `/connectors/${made.id}/authorized-members/${viewer.memberId}/`)).status).toBe(
      204,
    );
    await expectError(
      await viewer.fetch("DELETE", `/connectors/${made.id}/authorized-members/${viewer.memberId}/`),
      404,
    );
    expect((await owner.fetch("DELETE", `/connectors/${made.id}/credentials/`)).status).toBe(204);
    expect((await owner.fetch("DELETE", `/connectors/${made.id}/credentials/`)).status).toBe(204);
    expect(await (await owner.fetch("GET", `/connectors/${made.id}/authorized-members/`)).json()).toEqual([]);

    for (const body of [{}, { headers: "x" }, { headers: { "Bad Name": "x" } }, { headers: { A: 1 } }]) {
      await expectError(await viewer.fetch("POST", `/connectors/${made.id}/credentials/`, body), 400);
    }
    await expectError(
      await viewer.fetch(
        "POST",
        `/connectors/${made.id}/credentials/`,
        { headers: { A: "b" } },
        { settings: { ENCRYPTION_KEY: undefined } },
      ),
      503,
      "not_configured",
    );
    expect(await (await owner.fetch("GET", `/connectors/${made.id}/authorized-members/`)).json()).toEqual([]);
  });
});

const storedConnector = async (id: string) => (await db().select().from(connectors).where(eq(connectors.id, id)))[0];

describe("connectors: two writes at once", () => {
  it("a PATCH of isEnabled racing a move to another server sends the new server's secret nowhere else", async () => {
    const owner = await seedOwner();
    const made = await create(owner, { authHeaders: { Authorization: "Bearer for-the-custom-server" } });
    const current = await storedConnector(made.id);
    // Meanwhile another PATCH moves the connector to GitHub's server with GitHub's token.
    const move = async () => {
      const res = await owner.fetch("PATCH", `/connectors/${made.id}/`, {
        mcpRegistryId: GITHUB,
        authHeaders: { Authorization: "Bearer github-token" },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const record = await updateConnector(env, updatingAfter(db(), move), current, { isEnabled: false });
    const after = await storedConnector(made.id);
    // The PATCH applies to the connector as the move left it: GitHub's server with GitHub's token, now disabled (it
    // wrote back the custom server's URL and registry entry it had read, pairing them with GitHub's token).
    expect({ serverUrl: after.serverUrl, isEnabled: after.isEnabled }).toEqual({
      serverUrl: "https://api.githubcopilot.com/mcp/",
      isEnabled: false,
    });
    expect(await openHeaders(after.authHeadersSealed, env)).toEqual({ Authorization: "Bearer github-token" });
    expect(record).toMatchObject({ mcpRegistryId: GITHUB, isEnabled: false, hasAuthHeaders: true });
  });

  it("a PATCH racing the connector's delete is a 404, not a 500", async () => {
    const owner = await seedOwner();
    const made = await create(owner, { authHeaders: { A: "b" } });
    const current = await storedConnector(made.id);
    const remove = async () => expect((await owner.fetch("DELETE", `/connectors/${made.id}/`)).status).toBe(204);
    const outcome = await updateConnector(env, updatingAfter(db(), remove), current, { displayName: "Renamed" }).then(
      () => "written",
      (err: unknown) => err,
    );
    // It was a TypeError (connectorRecord of the undefined row the UPDATE returned), which the API answers 500.
    expect(outcome).toMatchObject({ status: 404 });
  });

  it("a member's credential stored while the connector moves to another server is not kept there", async () => {
    const owner = await seedOwner();
    const made = await create(owner);
    const viewer = await seedMember(owner, ["tool.view"]);
    // The credential's write read the connector at the custom server (as POST .../credentials/ does); meanwhile an
    // owner points it at GitHub's server, whose batch deletes the members' credentials it holds.
    const { connector } = await getConnector(db(), owner.organizationId, made.id);
    const moved = await owner.fetch("PATCH", `/connectors/${made.id}/`, { mcpRegistryId: GITHUB });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const target = { connectorId: connector.id, serverUrl: connector.serverUrl };
    const stored = await storeMemberCredential(db(), env, owner.organizationId, viewer.memberId, target, {
      Authorization: "Bearer for-the-custom-server",
    });
    // It was stored after the move's delete, and sent to GitHub's server in the viewer's conversations.
    expect(stored).toBeUndefined();
    expect(await db().select().from(mcpCredentials).where(eq(mcpCredentials.connectorId, made.id))).toEqual([]);
    // Through the API, one given for the server it has now is stored; one given for the old server still is not.
    const again = await viewer.fetch("POST", `/connectors/${made.id}/credentials/`, { headers: { A: "b" } });
    expect(again.status, await again.clone().text()).toBe(201);
    expect(
      await storeMemberCredential(db(), env, owner.organizationId, viewer.memberId, target, { A: "c" }),
    ).toBeUndefined();
  });
});

describe("tool credentials (POST/DELETE /tools/{id}/credentials/)", () => {
  it("only for mcp tools you can see; 400, 401, 403, 404", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/tools/", { displayName: "Remote", toolType: "mcp", mcpUrl: mcp() });
    const tool = await bodyOf<"POST /tools/">(res);
    const api = await bodyOf<"POST /tools/">(
      await owner.fetch("POST", "/tools/", {
        name: "api_x",
        displayName: "Api",
        toolType: "api",
        apiUrl: "https://example.com/x",
        httpMethod: "get",
      }),
    );
    expect(
      (await owner.fetch("POST", `/tools/${tool.id}/credentials/`, { headers: { A: "b" } }, { prefix: "/api" })).status,
    ).toBe(201);
    await expectError(await owner.fetch("POST", `/tools/${api.id}/credentials/`, { headers: { A: "b" } }), 400);
    await expectError(
      await owner.fetch("POST", `/tools/${tool.id}/credentials/`, { headers: { "Bad Name": "b" } }),
      400,
    );
    await expectError(await call("POST", `/api/v1/tools/${tool.id}/credentials/`, { headers: { A: "b" } }), 401);
    await expectError(
      await (await seedMember(owner, [])).fetch("POST", `/tools/${tool.id}/credentials/`, { headers: { A: "b" } }),
      403,
    );
    await expectError(
      await (await seedOwner()).fetch("POST", `/tools/${tool.id}/credentials/`, { headers: { A: "b" } }),
      404,
    );
    expect((await owner.fetch("DELETE", `/tools/${tool.id}/credentials/`)).status).toBe(204);
    expect((await owner.fetch("DELETE", `/tools/${tool.id}/credentials/`)).status).toBe(204);
  });
});
