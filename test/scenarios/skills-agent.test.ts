import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectError, NO_SUCH_ID, seedOwner, unique, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { lastUpstreamRequest, upstreamModel } from "../routes/chat-completions/fixtures";
import { fileExpenseTool, uploadSkill } from "../routes/skills/support";
import { bodyOf, refinedBodyOf } from "../support/api";
import type { ToolCall } from "../support/tool-calls";

type Reply = { content: string; message: { contentPayload: { toolCalls: ToolCall[] } } };

async function ask(owner: Actor, botId: string, message: Record<string, unknown>) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, { message });
  expect(res.status, await res.clone().text()).toBe(200);
  return await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);
}

describe("skills in agent replies", () => {
  it("the local model picks a skill by name (use_skill): its instructions come back, lastUsedAt is set", async () => {
    const owner = await seedOwner();
    const name = unique("expense");
    const skill = await uploadSkill(owner, name, { body: "Always ask for the receipt number first." });
    const bot = await createChatbot(owner, { replyMode: "agent", skills: [{ id: skill.id }] });
    expect(bot).toMatchObject({ skills: [{ id: skill.id, name }] });
    const reply = await ask(owner, bot.id, { content: `Use the ${name} skill to file my expenses` });
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({ name: "use_skill", toolType: "skill", input: { name }, status: "success" });
    expect(call.output).toMatchObject({
      skill: name,
      resources: ["reference/policy.md"],
      instructions: "Always ask for the receipt number first.",
    });
    expect(reply.content).toContain("Always ask for the receipt number first.");
    const detail = await bodyOf<"GET /skills/{id}/">(await owner.fetch("GET", `/skills/${skill.id}/`));
    expect(Number(detail.lastUsedAt)).toBeGreaterThan(0);
  });

  it("a skill is used while DB refuses its last-use time (a figure written beside the reply)", async () => {
    const owner = await seedOwner();
    const name = unique("refused");
    const skill = await uploadSkill(owner, name, { body: "Always ask for the receipt number first." });
    const bot = await createChatbot(owner, { replyMode: "agent", skills: [{ id: skill.id }] });
    const trigger = `"skill_use_down_${skill.id.replace(/-/g, "")}"`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE OF last_used_at ON skills ` +
        `WHEN NEW.id = '${skill.id}' BEGIN SELECT RAISE(ABORT, 'last use refused'); END`,
    ).run();
    try {
      const reply = await ask(owner, bot.id, { content: `Use the ${name} skill to file my expenses` });
      expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({ name: "use_skill", status: "success" });
      expect(reply.content).toContain("Always ask for the receipt number first.");
      const detail = await bodyOf<"GET /skills/{id}/">(await owner.fetch("GET", `/skills/${skill.id}/`));
      expect(detail.lastUsedAt).toBeNull();
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
  });

  it("reads a resource by path (read_skill_resource), and refuses paths outside the package", async () => {
    const owner = await seedOwner();
    const name = unique("policy");
    const skill = await uploadSkill(owner, name);
    const bot = await createChatbot(owner, { replyMode: "agent", skills: [{ id: skill.id }] });
    const reply = await ask(owner, bot.id, {
      content: `read skill resource: skill: ${name}; path: reference/policy.md`,
    });
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({
      name: "read_skill_resource",
      status: "success",
      input: { skill: name, path: "reference/policy.md" },
    });
    expect(reply.content).toContain("Meals up to 50 EUR a day.");
    const outside = await ask(owner, bot.id, {
      content: `read skill resource: skill: ${name}; path: ../../other/SKILL.md`,
    });
    expect(outside.message.contentPayload.toolCalls[0]).toMatchObject({
      name: "read_skill_resource",
      status: "failure",
    });
  });

  it("loads the skill's attached tools into the loop once it is used (OpenAI-compatible upstream)", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const toolId = await fileExpenseTool(owner);
    const name = unique("expense");
    const skill = await uploadSkill(owner, name, { fields: { attachedToolIds: JSON.stringify([toolId]) } });
    const bot = await createChatbot(owner, {
      largeLanguageModel: model.id,
      replyMode: "agent",
      skills: [{ id: skill.id }],
    });
    const reply = await ask(owner, bot.id, { content: `use_skill ARGS {"name": "${name}"}` });
    expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({
      name: "use_skill",
      status: "success",
      output: { tools: ["file_expense"] },
    });
    const last = await lastUpstreamRequest(model.modelName);
    expect(last.body.tools!.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "use_skill",
      "read_skill_resource",
      "handoff",
      "file_expense",
    ]);
    expect(last.body.tools![0].function.description).toContain(`${name}: When the user asks to file expenses`);
    expect(last.body.messages.at(-1)!.content).toContain("Tools now available: file_expense");
  });

  it("a message's skillIds narrows the skills; an assistant cannot take unknown skills", async () => {
    const owner = await seedOwner();
    const [a, b] = [await uploadSkill(owner, unique("a")), await uploadSkill(owner, unique("b"))];
    const bot = await createChatbot(owner, { replyMode: "agent", skills: [{ id: a.id }, { id: b.id }] });
    const reply = await ask(owner, bot.id, { content: "use a skill please", skillIds: [b.id] });
    expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({ name: "use_skill", input: { name: b.name } });
    await expectError(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { skills: [{ id: NO_SUCH_ID }] }),
      400,
      "invalid",
    );
    const stranger = await seedOwner();
    const theirs = await uploadSkill(stranger, unique("theirs"));
    await expectError(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { skills: [{ id: theirs.id }] }),
      400,
      "invalid",
    );
    const cleared = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { skills: [] });
    expect(await cleared.json()).toMatchObject({ skills: [] });
  });
});
