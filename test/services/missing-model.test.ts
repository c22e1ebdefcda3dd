// An assistant whose language model is gone cannot answer: every reply mode that asks a model refuses with the same
// 400 (services/llm/fallback.ts `replyModel`), before it asks anything.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, type messages } from "../../src/db/schema";
import { ModelError } from "../../src/services/llm";
import { BUILT_IN_WORKFLOWS } from "../../src/services/agent/workflows";
import { generateReply } from "../../src/services/conversation/replies";
import { db, seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";

describe("a reply without the assistant's language model", () => {
  it.each(["normal", "agent", "workflow"] as const)("%s: 400, the model no longer exists", async (mode) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const [row] = await db().select().from(chatbots).where(eq(chatbots.id, bot.id));
    // The columns the reply reads before it asks a model; the others stay unset, as in a row the object builds.
    const incoming = {
      id: crypto.randomUUID(),
      organizationId: owner.organizationId,
      conversationId: crypto.randomUUID(),
      sequence: 1,
      type: "incoming",
      senderType: "contact",
      content: "When do you open?",
      attachments: null,
      metadata: null,
      queryMetadata: null,
      toolIds: null,
      createdAt: Date.now(),
    } as typeof messages.$inferSelect;
    const asked: string[] = [];
    const reply = generateReply(
      env,
      db(),
      {
        chatbot: { ...row, replyMode: mode, builtInWorkflowId: BUILT_IN_WORKFLOWS[0].id },
        model: null,
        knowledgeBases: [],
        history: [],
        incoming,
      },
      (text) => asked.push(text),
    );
    const refusal = await reply.then(
      () => null,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(ModelError);
    expect(refusal).toMatchObject({ status: 400, message: "The assistant's language model no longer exists." });
    expect(asked).toEqual([]);
  });
});
