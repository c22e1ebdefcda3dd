import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../harness";
import { agentWith } from "../support/tool-calls";
import { createTool } from "../fixtures/tools";
import { upstreamModel } from "../routes/chat-completions/fixtures";
import { refinedBodyOf } from "../support/api";

/**
 * An api tool whose host does not resolve, or whose port refuses, is a failure record saying so, and
 * the model reads the same words (docs/decisions.md, "Outbound errors a person can act on").
 * 127.0.0.1:19 is allowed in vitest.config.ts and nothing listens there.
 */
type ToolCall = { name: string; status: string; error: string | null };
type Reply = { content: string; message: { contentPayload: { toolCalls: ToolCall[] } } };

/** The answer of a POST, its status asserted; the caller reads the body as the document types it. */
async function post(actor: Actor, path: string, body: unknown, status = 201) {
  const res = await actor.fetch("POST", path, body);
  expect(res.status, await res.clone().text()).toBe(status);
  return res;
}

const apiTool = (owner: Actor, name: string, apiUrl: string) =>
  createTool(owner, {
    name,
    displayName: name,
    toolType: "api",
    apiUrl,
    httpMethod: "get",
    rawParametersSchema: { type: "object", properties: {} },
  });

describe("api tools that cannot reach their API", () => {
  it("record why, with the host or port, and the model is told", async () => {
    const owner = await seedOwner();
    // The upstream's `parallel-tools` model calls every tool at once, then answers with what each said (its words
    // 5 ms apart, `-pace-`: what is checked is what they say).
    const model = await upstreamModel(owner, { modelName: "parallel-tools-pace-5" });
    const tools = [
      await apiTool(owner, "nowhere_api", "http://no-such-host.invalid/x"),
      await apiTool(owner, "closed_api", "http://127.0.0.1:19/x"),
    ];
    const bot = await agentWith(owner, tools, model);
    const reply = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(
      await post(owner, `/chatbots/${bot.id}/completions/`, { message: { content: "Try every tool" } }, 200),
    );
    const calls = Object.fromEntries(reply.message.contentPayload.toolCalls.map((c) => [c.name, c]));
    expect(calls.nowhere_api).toMatchObject({
      status: "failure",
      error: "Could not reach the API: could not resolve host no-such-host.invalid.",
    });
    expect(calls.closed_api).toMatchObject({
      status: "failure",
      error: "Could not reach the API: connection refused (127.0.0.1:19).",
    });
    expect(reply.content).toContain("could not resolve host no-such-host.invalid");
    expect(reply.content).toContain("connection refused (127.0.0.1:19)");
  });
});
