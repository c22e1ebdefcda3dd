import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOwner, unique, type Actor } from "../../harness";
import { createTool, weatherToolBody } from "../../fixtures/tools";
import { refinedBodyOf } from "../../support/api";
import type { McpTestServer } from "../../support/mcp-server.mjs";
import { type ToolCall, agentWith } from "../../support/tool-calls";

type Reply = { message: { contentPayload: { toolCalls: ToolCall[] } } };

/**
 * Asks an agent on the built-in model, which calls get_weather with the arguments the question spells (the city;
 * `spelled` adds more, which `fields` of the tool, such as its rawParametersSchema, let it send).
 */
async function callThrough(
  owner: Actor,
  apiUrl: string,
  httpMethod = "get",
  spelled = "",
  fields: Record<string, unknown> = {},
): Promise<ToolCall> {
  const tool = await createTool(
    owner,
    weatherToolBody({ apiUrl, httpMethod, rawHeaders: { "X-Api-Key": "tool-secret" }, ...fields }),
  );
  const bot = await agentWith(owner, [tool]);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
    message: { content: `Use get_weather with city: Paris${spelled}` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const reply = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);
  return reply.message.contentPayload.toolCalls[0];
}

const redirectTo = (target: string, status = 302) =>
  `${env.TEST_RECEIVER_URL}/redirect/x?to=${encodeURIComponent(target)}&status=${status}`;

describe("api tools behind a redirect", () => {
  it("a redirect to another origin does not carry the tool's headers; one within the origin does", async () => {
    const owner = await seedOwner();
    // The MCP test server is another origin on loopback (allowed in the tests) that records each request's headers.
    const elsewhere = `/moved/${unique("tool")}`;
    const away = await callThrough(owner, redirectTo(`${env.TEST_MCP_URL}${elsewhere}`));
    expect(away.name).toBe("get_weather");
    const stats = await (await fetch(`${env.TEST_MCP_URL}/stats`)).json<McpTestServer["stats"]>();
    const [moved] = stats.requests.filter((r) => r.path === elsewhere);
    expect(moved).toMatchObject({ method: "GET", apiKey: null });

    const near = await callThrough(await seedOwner(), redirectTo(`${env.TEST_RECEIVER_URL}/echo/weather`));
    expect(near).toMatchObject({ status: "success", output: { path: "/echo/weather" } });
    expect((near.output as { headers: Record<string, string> }).headers["x-api-key"]).toBe("tool-secret");
  });

  it("a POST tool goes on as a GET without its body after a 303, and as a POST with it after a 307", async () => {
    const owner = await seedOwner();
    const echo = `${env.TEST_RECEIVER_URL}/echo/weather`;
    type Echo = { method: string; body: unknown; headers: Record<string, string> };
    const seeOther = await callThrough(owner, redirectTo(echo, 303), "post");
    expect(seeOther.status).toBe("success");
    const got = seeOther.output as Echo;
    expect({ method: got.method, body: got.body, type: got.headers["content-type"] }).toEqual({
      method: "GET",
      body: null,
      type: undefined,
    });
    const temporary = (await callThrough(await seedOwner(), redirectTo(echo, 307), "post")).output as Echo;
    expect({ method: temporary.method, body: temporary.body }).toEqual({ method: "POST", body: { city: "Paris" } });
  });
});

describe("api tools' query", () => {
  it("parameters fixed in the tool's URL win over the model's arguments of the same names", async () => {
    const owner = await seedOwner();
    const properties = { city: { type: "string" }, api_key: { type: "string" }, units: { type: "string" } };
    const call = await callThrough(
      owner,
      `${env.TEST_RECEIVER_URL}/echo/weather?api_key=fixed&lang=en`,
      "get",
      ", api_key: stolen, units: metric",
      { rawParametersSchema: { type: "object", properties, required: ["city"] } },
    );
    expect(call).toMatchObject({ status: "success", input: { city: "Paris", api_key: "stolen", units: "metric" } });
    // The tool's author fixed api_key and lang; the model adds what the URL leaves open.
    expect((call.output as { query: Record<string, string> }).query).toEqual({
      api_key: "fixed",
      lang: "en",
      city: "Paris",
      units: "metric",
    });
  });
});
