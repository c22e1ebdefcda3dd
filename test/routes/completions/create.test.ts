import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, countInParts, data, expectError, seedMember, seedOwner } from "../../harness";
import { client } from "../../../src/db/prepared";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createChatbot, createUnanswering } from "../../fixtures/chatbots";
import { chunksOf, readEvents, storedReply, type StreamEvent } from "../../support/sse";
import { bodyOf } from "../../support/api";
import { upstreamModel } from "../chat-completions/fixtures";

const completions = (chatbotId: string) => `/chatbots/${chatbotId}/completions/`;

describe("POST /chatbots/{chatbotId}/completions/", () => {
  it.each(PREFIXES)("answers directly and starts a conversation in the default inbox (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const res = await owner.fetch(
      "POST",
      completions(bot.id),
      { message: { content: "Where is my parcel?" } },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
    expect(body.content).toBe('You said: "Where is my parcel?".');
    expect(body.message).toMatchObject({
      content: body.content,
      type: "outgoing",
      senderType: "chatbot",
      sequence: 2,
      conversation: body.conversationId,
    });
    expect(body.message!.sender).toMatchObject({ id: bot.id, name: bot.name });
    expect(body.message!.usage).toEqual({ promptTokens: 4, completionTokens: 6 });
    const incoming = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${body.conversationId}`),
    );
    expect(incoming.results.find((m) => m.type === "incoming")!.usage).toBeNull();

    const conversation = await bodyOf<"GET /conversations/{id}/">(
      await owner.fetch("GET", `/conversations/${body.conversationId}/`),
    );
    expect(conversation).toMatchObject({
      inbox: { id: bot.defaultInbox!.id, channelType: "api" },
      chatbot: { id: bot.id },
      progressStatus: "ai_processing",
      title: "Where is my parcel?",
    });

    // Words used feed the assistant and the organization's month.
    const words = 6; // You said Where is my parcel
    expect(await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
      totalWordsCount: words,
    });
    const org = await bodyOf<"GET /organizations/{id}/">(
      await owner.fetch("GET", `/organizations/${owner.organizationId}/`),
    );
    expect(org.usageStatistics).toMatchObject({
      currentMonthUsedWordsCountTotal: words,
      currentMonthUsedConversationsCountTotal: 1,
    });
  });

  it.each([null, ""])("a conversation of %o starts a new conversation, like an absent one", async (conversation) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const res = await owner.fetch("POST", completions(bot.id), { conversation, message: { content: "Hello" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
    expect(
      await countInParts(
        owner.organizationId,
        "conversations",
        "id = ? AND chatbot_id = ?",
        reply.conversationId,
        bot.id,
      ),
    ).toBe(1);
    expect(reply.message!.sequence).toBe(2);
  });

  it("continues a conversation with its history, in sequence", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "one" } }),
    );
    const second = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), {
        conversation: first.conversationId,
        message: { content: "two" },
      }),
    );
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.message!.sequence).toBe(4);
    const list = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${first.conversationId}`),
    );
    expect(list.results.map((m) => m.type)).toEqual(["outgoing", "incoming", "outgoing", "incoming"]);
    expect(list.results[1].content).toBe("two");
  });

  it.each([{ isStreaming: true }, { is_streaming: true }])(
    "streams the reply as server-sent events (%o)",
    async (flag) => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const res = await owner.fetch("POST", completions(bot.id), {
        message: { content: "Tell me about the weather in Paris" },
        ...flag,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toContain("text/event-stream");
      expect(res.headers.get("Cache-Control")).toBe("no-cache");
      expect(res.headers.get("X-Accel-Buffering")).toBe("no");
      const events = await readEvents<StreamEvent>(res);
      const deltas = chunksOf(events).filter((c) => c.done === false);
      expect(deltas.length).toBeGreaterThan(3);
      const last = storedReply(events);
      expect(last).toMatchObject({ done: true, content: "" });
      const { message } = last;
      expect(deltas.map((c) => c.content).join("")).toBe(message.content);
      for (const c of deltas) expect(c).toMatchObject({ conversationId: last.conversationId, messageId: message.id });
      const stored = await owner.fetch("GET", `/messages/${message.id}/?conversation=${last.conversationId}`);
      const record = await bodyOf<"GET /messages/{id}/">(stored);
      expect(record.content).toBe(message.content);
      // The tokens the model reported, in the streamed record and the stored one.
      expect(message).toMatchObject({ usage: { promptTokens: expect.any(Number), completionTokens: 9 } });
      expect(record.usage).toEqual(message.usage);
    },
  );

  it("returns JSON valid against rawOutputFormat in json_schema mode", async () => {
    const owner = await seedOwner();
    const schema = {
      type: "object",
      properties: { answer: { type: "string" }, confident: { type: "boolean" } },
      required: ["answer", "confident"],
    };
    const bot = await createChatbot(owner, { outputMode: "json_schema", rawOutputFormat: schema });
    const body = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "hi" } }),
    );
    expect(JSON.parse(body.content)).toEqual({ answer: "Hello! How can I help you today?", confident: false });
  });

  it("a rawOutputFormat the check cannot use (saved before the check) is a model error, not a 500", async () => {
    const owner = await seedOwner();
    const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
    const bot = await createChatbot(owner, { outputMode: "json_schema", rawOutputFormat: schema });
    const broken = { ...schema, properties: { answer: { $ref: "#/$defs/Answer" } } };
    await env.DB.prepare("UPDATE chatbots SET raw_output_format = ? WHERE id = ?")
      .bind(JSON.stringify(broken), bot.id)
      .run();
    const res = await owner.fetch("POST", completions(bot.id), { message: { content: "hi" } });
    const body = await expectError(res, 502, "upstream_error");
    expect(body.detail).toContain("rawOutputFormat cannot be used");
  });

  it("a provider answering 200 with an error body is a 502 with its message, not an empty answer", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner, { modelName: `error-200-${crypto.randomUUID()}` });
    const bot = await createChatbot(owner, { largeLanguageModel: model.id });
    const res = await owner.fetch("POST", completions(bot.id), { message: { content: "hi" } });
    const body = await expectError(res, 502, "upstream_error");
    expect(body.detail).toBe("The model provider failed: The provider is overloaded, try later.");
  });

  it("template mode answers with the unanswerable text when nothing relevant is found", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, {
      replyMode: "template",
      template: "Answer: {{answer}}",
      unanswerableTemplate: "Sorry, I don't know that yet.",
    });
    const body = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "What is the refund policy?" } }),
    );
    expect(body.content).toBe("Sorry, I don't know that yet.");
  });

  it("a sender must be a contact of the organization: 400 on message.sender, nothing written", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const bot = await createChatbot(owner);
    const [{ id: foreignContact }] = (
      await client(await data(other.organizationId))
        .prepare(
          "INSERT INTO contacts (id, organization_id, name, created_at, updated_at) VALUES (?, ?, 'x', 0, 0) " +
            "RETURNING id",
        )
        .bind(crypto.randomUUID(), other.organizationId)
        .all<{ id: string }>()
    ).results;
    const before = await countInParts(owner.organizationId, "conversations");
    const body = await expectError(
      await owner.fetch("POST", completions(bot.id), { message: { content: "hi", sender: foreignContact } }),
      400,
      "invalid",
    );
    expect(body.errors).toHaveProperty(["message.sender"]);
    expect(await countInParts(owner.organizationId, "conversations")).toBe(before);
  });

  it("uses a contact of the organization as the sender", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const contactId = crypto.randomUUID();
    await client(await data(owner.organizationId))
      .prepare("INSERT INTO contacts (id, organization_id, name, created_at, updated_at) VALUES (?, ?, 'Ada', 0, 0)")
      .bind(contactId, owner.organizationId)
      .run();
    const body = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "hi", sender: contactId } }),
    );
    const conversation = await bodyOf<"GET /conversations/{id}/">(
      await owner.fetch("GET", `/conversations/${body.conversationId}/`),
    );
    expect(conversation.contact).toMatchObject({ id: contactId, name: "Ada" });
    const list = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${body.conversationId}`),
    );
    expect(list.results[1].sender.id).toBe(contactId);
  });

  it("400 for bad input, and nothing is written", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const before = await countInParts(owner.organizationId, "messages");
    for (const body of [
      {},
      { message: {} },
      { message: { content: "" } },
      { message: { content: " \n " } },
      { message: { content: "x".repeat(32_001) } },
      { message: { content: "hi" }, conversation: "nope" },
      { message: { content: "hi" }, isStreaming: "yes" },
    ]) {
      await expectError(await owner.fetch("POST", completions(bot.id), body), 400, "invalid");
    }
    expect(await countInParts(owner.organizationId, "messages")).toBe(before);
  });

  it("a missing field is refused as Required, not with the validator's words for a JavaScript value", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    for (const body of [{}, { messages: [{ role: "user", content: "hi" }] }]) {
      const refused = await expectError(await owner.fetch("POST", completions(bot.id), body), 400, "invalid");
      expect(refused.errors).toEqual({ message: ["Required"] });
      expect(refused.detail).toBe("Invalid request. message: Required");
    }
    const noText = await expectError(await owner.fetch("POST", completions(bot.id), { message: {} }), 400, "invalid");
    expect(noText.errors).toEqual({ "message.content": ["Required"] });
  });

  it("a body that is not JSON is a 415 naming what was sent and what to send; nothing is written", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const before = await countInParts(owner.organizationId, "messages");
    const sent = JSON.stringify({ message: { content: "hi" } });
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await owner.fetch("POST", completions(bot.id), sent, { headers: { "Content-Type": type } });
      const body = await expectError(res, 415, "unsupported_media_type");
      expect(body.detail).toBe(`Unsupported media type "${type}"; send application/json.`);
    }
    expect(await countInParts(owner.organizationId, "messages")).toBe(before);
  });

  it(
    "401 without a key, 403 without conversation.manage, 404 for another organization's assistant or " + "conversation",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const bot = await createChatbot(owner);
      const otherBot = await createChatbot(other);
      await expectError(await call("POST", `/api/v1${completions(bot.id)}`, { message: { content: "hi" } }), 401);
      const viewer = await seedMember(owner, ["conversation.view", "chatbot.view"]);
      await expectDenied(await viewer.fetch("POST", completions(bot.id), { message: { content: "hi" } }));
      await expectNotFound(await owner.fetch("POST", completions(otherBot.id), { message: { content: "hi" } }));
      await expectNotFound(await owner.fetch("POST", completions(NO_SUCH_ID), { message: { content: "hi" } }));
      const theirs = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await other.fetch("POST", completions(otherBot.id), { message: { content: "hi" } }),
      );
      await expectError(
        await owner.fetch("POST", completions(bot.id), {
          conversation: theirs.conversationId,
          message: { content: "hi" },
        }),
        404,
        "not_found",
      );
    },
  );

  it("400 when the conversation belongs to another assistant of the organization", async () => {
    const owner = await seedOwner();
    const a = await createChatbot(owner);
    const b = await createChatbot(owner);
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(a.id), { message: { content: "hi" } }),
    );
    const body = await expectError(
      await owner.fetch("POST", completions(b.id), { conversation: first.conversationId, message: { content: "hi" } }),
      400,
    );
    expect(body.errors).toHaveProperty("conversation");
  });
});

describe("what completions remember of an assistant (2 s per isolate, forgotten on writes)", () => {
  it("a change to the assistant applies to the very next completion", async () => {
    const owner = await seedOwner();
    const bot = await createUnanswering(owner, "First answer.");
    const ask = async () =>
      (
        await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
          await owner.fetch("POST", completions(bot.id), { message: { content: "Anything?" } }),
        )
      ).content;
    expect(await ask()).toBe("First answer.");
    expect(
      (await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { unanswerableTemplate: "Second answer." })).status,
    ).toBe(200);
    expect(await ask()).toBe("Second answer.");
  });

  it("an assistant taken from the member's group is gone for the member's very next completion", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["conversation.manage", "chatbot.view"]);
    const bot = await createChatbot(owner, { groups: [{ id: member.groupId }] });
    expect((await member.fetch("POST", completions(bot.id), { message: { content: "hi" } })).status).toBe(200);
    expect((await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [] })).status).toBe(200);
    await expectNotFound(await member.fetch("POST", completions(bot.id), { message: { content: "hi" } }));
  });
});

describe("an assistant's default inbox", () => {
  it("cannot be deleted or given to another assistant", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const other = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    await expectError(await owner.fetch("DELETE", `/inboxes/${inbox}/`), 400, "default_inbox");
    const moved = await expectError(
      await owner.fetch("PATCH", `/inboxes/${inbox}/`, { chatbot: { id: other.id } }),
      400,
    );
    expect(moved.errors).toHaveProperty("chatbot");
    expect((await owner.fetch("PATCH", `/inboxes/${inbox}/`, { name: "API", chatbot: { id: bot.id } })).status).toBe(
      200,
    );
  });
});
