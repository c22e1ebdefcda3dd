import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectError, PREFIXES, seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createKnowledgeBase, ingest } from "../fixtures/knowledge";
import { createTool } from "../fixtures/tools";
import { bodyOf, refinedBodyOf } from "../support/api";

const REWRITE = "00000000-0000-7000-8000-00000000f001";
const ROUTE = "00000000-0000-7000-8000-00000000f002";
const VERIFY = "00000000-0000-7000-8000-00000000f003";
type Step = { name: string; status: string; output: Record<string, unknown> };
type Reply = {
  conversationId: string;
  content: string;
  message: {
    contentPayload: { steps: Step[]; workflow: { id: string }; toolCalls?: { name: string; output: unknown }[] };
    citations: unknown[];
  };
};

async function ask(owner: Actor, botId: string, content: string, conversation?: string) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, { conversation, message: { content } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);
}

async function knowledge(owner: Actor) {
  const kb = await createKnowledgeBase(owner);
  await ingest(owner, kb.id, [
    {
      name: "returns.txt",
      content: "Returns are accepted within 30 days of delivery. Refunds take five business days.",
      type: "text/plain",
    },
  ]);
  return kb;
}

describe("built-in workflows", () => {
  it("lists the catalogue under both prefixes; 401 without a key; 404 for an unknown id", async () => {
    const owner = await seedOwner();
    for (const prefix of PREFIXES) {
      const res = await owner.fetch("GET", "/built-in-workflows/", undefined, { prefix });
      expect(res.status).toBe(200);
      expect((await bodyOf<"GET /built-in-workflows/">(res)).map((w) => w.id)).toEqual([REWRITE, ROUTE, VERIFY]);
      expect((await owner.fetch("GET", `/built-in-workflows/${VERIFY}/`, undefined, { prefix })).status).toBe(200);
      await expectError(await SELF.fetch(`http://localhost${prefix}/built-in-workflows/`), 401);
    }
    await expectError(await owner.fetch("GET", "/built-in-workflows/01900000-0000-7000-8000-000000000000/"), 404);
  });

  it("rewrite, retrieve, answer: each step in contentPayload.steps, grounded answer with citations", async () => {
    const owner = await seedOwner();
    const kb = await knowledge(owner);
    const bot = await createChatbot(owner, {
      replyMode: "workflow",
      builtInWorkflow: REWRITE,
      knowledgeBases: [{ id: kb.id }],
    });
    const first = await ask(owner, bot.id, "How long do refunds take?");
    expect(first.message.contentPayload.steps.map((s) => s.name)).toEqual(["rewrite_query", "retrieve", "answer"]);
    expect(first.content).toContain("Refunds take five business days.");
    const second = await ask(owner, bot.id, "and returns?", first.conversationId);
    expect(second.message.contentPayload.steps[0].output.query).toContain("refunds");
    expect(second.message.citations.length).toBe(1);
  });

  it("intent routing calls the one tool the message asks for", async () => {
    const owner = await seedOwner();
    const tool = await createTool(owner, {
      name: "add_numbers",
      displayName: "Add",
      toolType: "function",
      functionCode: "function main(a) { return a.x + a.y; }",
      rawParametersSchema: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } },
    });
    const bot = await createChatbot(owner, { replyMode: "workflow", builtInWorkflow: ROUTE, tools: [{ id: tool.id }] });
    const reply = await ask(owner, bot.id, "add numbers x: 5, y: 6");
    expect(reply.message.contentPayload.steps.map((s) => [s.name, s.status])).toEqual([
      ["classify_intent", "success"],
      ["call_tool", "success"],
      ["answer", "success"],
    ]);
    expect(reply.message.contentPayload.steps[0].output).toEqual({ intent: "add_numbers" });
    expect(reply.content).toBe("add_numbers returned 11.");
    const none = await ask(owner, bot.id, "hello");
    expect(none.message.contentPayload.steps[1].status).toBe("skipped");
  });

  it("answer then verify: a supported answer stays, an unsupported one becomes the unanswerable text", async () => {
    const owner = await seedOwner();
    const kb = await knowledge(owner);
    const bot = await createChatbot(owner, {
      replyMode: "workflow",
      builtInWorkflow: VERIFY,
      knowledgeBases: [{ id: kb.id }],
      unanswerableTemplate: "I cannot confirm that.",
    });
    const good = await ask(owner, bot.id, "How many days for returns?");
    const verdict = good.message.contentPayload.steps.find((s) => s.name === "verify")!.output;
    expect(verdict.supported).toBe(true);
    expect(good.content).toContain("30 days");
    const bare = await createChatbot(owner, {
      replyMode: "workflow",
      builtInWorkflow: VERIFY,
      unanswerableTemplate: "I cannot confirm that.",
    });
    const bad = await ask(owner, bare.id, "What is the capital of Peru?");
    expect(bad.content).toBe("I cannot confirm that.");
  });
});
