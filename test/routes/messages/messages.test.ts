import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf, type Schemas } from "../../support/api";
import { objectMessages } from "../../support/object-messages";
import { uploadKey } from "../attachments/support";

async function conversationOf(owner: Actor) {
  const bot = await createChatbot(owner);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } });
  return { bot, conversationId: (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId };
}

async function waitForMessages(owner: Actor, conversationId: string, n: number): Promise<Schemas["Message"][]> {
  for (let i = 0; i < 60; i++) {
    const page = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`),
    );
    if (page.results.length >= n) return page.results;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("messages did not arrive");
}

describe("POST /messages/ (receipt, then an asynchronous reply)", () => {
  it.each(PREFIXES)("stores the message with every field and replies in the background (%s)", async (prefix) => {
    const owner = await seedOwner();
    const { conversationId } = await conversationOf(owner);
    const body = {
      conversation: conversationId,
      content: "Can I pay by card?",
      content_payload: { content: "Can I pay by card?" },
      attachments: [{ type: "image", filename: "card.png", file: "https://cdn.example.com/card.png" }],
      // The canvas's own fields in snake_case too; its type's object as the client's.
      canvas: { name: "c", title: "T", content: "x", canvas_type: { type: "markdown", line_numbers: true } },
      metadata: { time_zone: "Europe/Paris" },
      query_metadata: {
        knowledge_bases: [
          { knowledge_base_id: NO_SUCH_ID, chatbot_file_ids: [NO_SUCH_ID], has_user_selected_all: false },
        ],
      },
      skill_ids: [NO_SUCH_ID],
      tool_ids: [NO_SUCH_ID],
    };
    const res = await owner.fetch("POST", "/messages/", body, { prefix });
    expect(res.status, await res.clone().text()).toBe(201);
    const receipt = await bodyOf<"POST /messages/">(res);
    expect(receipt).toMatchObject({
      type: "incoming",
      senderType: "contact",
      content: "Can I pay by card?",
      sequence: 3,
      skillIds: [NO_SUCH_ID],
      toolIds: [NO_SUCH_ID],
    });
    expect(receipt.metadata).toEqual({ time_zone: "Europe/Paris" });
    expect(receipt.attachments).toHaveLength(1);
    // The canvas as sent, given an id and its creation time when stored (the spec's sample canvas has both).
    const sent = Date.now();
    expect(receipt.canvas).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      name: "c",
      title: "T",
      content: "x",
      canvasType: { type: "markdown", line_numbers: true },
      createdAt: expect.stringMatching(/^\d+$/),
    });
    expect(Math.abs(Number(receipt.canvas!.createdAt) - sent)).toBeLessThan(60_000);
    // Stored in the new form: knowledgeBaseFileIds replaces the deprecated chatbotFileIds.
    expect(receipt.queryMetadata).toEqual({
      knowledgeBases: [{ knowledgeBaseId: NO_SUCH_ID, knowledgeBaseFileIds: [NO_SUCH_ID], hasUserSelectedAll: false }],
    });
    const messages = await waitForMessages(owner, conversationId, 4);
    expect(messages[0]).toMatchObject({ type: "outgoing", sequence: 4, content: 'You said: "Can I pay by card?".' });
    const one = await owner.fetch("GET", `/messages/${receipt.id}/?conversation=${conversationId}`, undefined, {
      prefix,
    });
    const read = await bodyOf<"GET /messages/{id}/">(one);
    expect(read.id).toBe(receipt.id);
    expect(read.canvas).toEqual(receipt.canvas);
  });

  it("400 for bad input and nothing written; 404 for another organization's conversation; 401; 403", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { conversationId } = await conversationOf(owner);
    const before = (await objectMessages(conversationId)).length;
    for (const body of [
      { content: "x" },
      { conversation: "nope", content: "x" },
      { conversation: conversationId, content: 5 },
      { conversation: conversationId, content: "x", type: "outgoing" },
      // A message needs text or attachments; white space alone is no text.
      { conversation: conversationId, content: "" },
      { conversation: conversationId, content: " \n\t " },
      { conversation: conversationId, content: "x", queryMetadata: { knowledgeBases: [{ knowledgeBaseId: "nope" }] } },
    ]) {
      await expectError(await owner.fetch("POST", "/messages/", body), 400, "invalid");
    }
    expect(await objectMessages(conversationId)).toHaveLength(before);
    await expectError(await other.fetch("POST", "/messages/", { conversation: conversationId, content: "x" }), 404);
    await expectError(await other.fetch("GET", `/messages/?conversation=${conversationId}`), 404);
    await expectError(await call("POST", "/api/v1/messages/", { conversation: conversationId, content: "x" }), 401);
    const viewer = await seedMember(owner, ["conversation.view"]);
    await expectDenied(await viewer.fetch("POST", "/messages/", { conversation: conversationId, content: "x" }));
    expect((await viewer.fetch("GET", `/messages/?conversation=${conversationId}`)).status).toBe(200);
    const nobody = await seedMember(owner);
    await expectDenied(await nobody.fetch("GET", `/messages/?conversation=${conversationId}`));
  });

  it(
    "GET /messages/{id}/: the record; 400 without its conversation; 401; 403 without conversation.view; 404 for " +
      "another organization's or a malformed id",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const { conversationId } = await conversationOf(owner);
      const [latest] = await waitForMessages(owner, conversationId, 2);
      const one = (id: string) => `/messages/${id}/?conversation=${conversationId}`;
      for (const prefix of PREFIXES) {
        const res = await owner.fetch("GET", one(latest.id), undefined, { prefix });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          id: latest.id,
          conversation: conversationId,
          type: latest.type,
          content: latest.content,
        });
      }
      await expectInvalid(await owner.fetch("GET", `/messages/${latest.id}/`), "conversation");
      await expectError(await owner.fetch("GET", `/messages/${latest.id}/?conversation=nope`), 400, "invalid");
      await expectError(await call("GET", `/api/v1${one(latest.id)}`), 401);
      await expectError(await call("GET", `/api/v1/messages/?conversation=${conversationId}`), 401);
      await expectDenied(await (await seedMember(owner)).fetch("GET", one(latest.id)));
      expect((await (await seedMember(owner, ["conversation.view"])).fetch("GET", one(latest.id))).status).toBe(200);
      await expectNotFound(await other.fetch("GET", one(latest.id)));
      await expectNotFound(await owner.fetch("GET", one(NO_SUCH_ID)));
      await expectNotFound(await owner.fetch("GET", one("not-a-uuid")));
    },
  );

  it("pages newest first with a cursor, both ways", async () => {
    const owner = await seedOwner();
    const { bot, conversationId } = await conversationOf(owner);
    for (let i = 0; i < 2; i++)
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: conversationId,
        message: { content: `m${i}` },
      });
    const first = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}&page_size=4`),
    );
    expect(first.results.map((m) => m.sequence)).toEqual([6, 5, 4, 3]);
    expect(first.previous).toBeNull();
    const second = await bodyOf<"GET /messages/">(
      await call("GET", first.next!.replace("http://localhost", ""), undefined, {
        Authorization: `Api-Key ${owner.key}`,
      }),
    );
    expect(second.results.map((m) => m.sequence)).toEqual([2, 1]);
    expect(second.next).toBeNull();
    const back = await bodyOf<"GET /messages/">(
      await call("GET", second.previous!.replace("http://localhost", ""), undefined, {
        Authorization: `Api-Key ${owner.key}`,
      }),
    );
    expect(back.results.map((m) => m.sequence)).toEqual([6, 5, 4, 3]);
    await expectError(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}&cursor=garbage`),
      400,
      "invalid",
    );
  });
});

describe("human handoff", () => {
  it(
    "after update-auto-reply false the assistant stays silent, an agent answers, and switching back resumes " +
      "replies",
    async () => {
      const owner = await seedOwner();
      const { bot, conversationId } = await conversationOf(owner);
      const off = await owner.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, {
        auto_reply_enabled: false,
      });
      expect(await off.json()).toMatchObject({
        autoReplyEnabled: false,
        status: "queued",
        progressStatus: "waiting_for_human",
      });

      const silent = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
          conversation: conversationId,
          message: { content: "human please" },
        }),
      );
      expect(silent).toMatchObject({ content: "", message: null });
      await owner.fetch("POST", "/messages/", { conversation: conversationId, content: "still there?" });

      const agent = await owner.fetch("POST", "/messages/outgoing/", {
        conversation: conversationId,
        content: "Hi, I am Sam.",
      });
      expect(agent.status).toBe(201);
      expect(await agent.json()).toMatchObject({
        type: "outgoing",
        senderType: "user",
        sender: { id: owner.userId },
        sequence: 5,
      });
      const serving = await bodyOf<"GET /conversations/{id}/">(
        await owner.fetch("GET", `/conversations/${conversationId}/`),
      );
      expect(serving).toMatchObject({ status: "open", progressStatus: "human_serving", autoReplyEnabled: false });
      const messages = await waitForMessages(owner, conversationId, 5);
      expect(messages.map((m) => m.senderType)).toEqual(["user", "contact", "contact", "chatbot", "contact"]);

      await owner.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: true });
      const back = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
          conversation: conversationId,
          message: { content: "bot again" },
        }),
      );
      expect(back.content).toBe('You said: "bot again".');
    },
  );

  it("messages/outgoing/: 400 for bad input and nothing written; 401 without a key", async () => {
    const owner = await seedOwner();
    const { conversationId } = await conversationOf(owner);
    const before = (await objectMessages(conversationId)).length;
    for (const body of [
      { content: "x" },
      { conversation: "nope", content: "x" },
      { conversation: conversationId },
      { conversation: conversationId, content: "" },
      { conversation: conversationId, content: "", attachments: [] },
      { conversation: conversationId, content: "   " },
      { conversation: conversationId, content: 5 },
      { conversation: conversationId, content: "x".repeat(32_001) },
    ]) {
      await expectError(await owner.fetch("POST", "/messages/outgoing/", body), 400, "invalid");
    }
    await expectError(
      await call("POST", "/api/v1/messages/outgoing/", { conversation: conversationId, content: "x" }),
      401,
    );
    expect(await objectMessages(conversationId)).toHaveLength(before);
  });

  it("a message of attachments only needs no text; an agent's attachments are resolved as a visitor's", async () => {
    const owner = await seedOwner();
    const other = await seedOwner("other");
    const { conversationId } = await conversationOf(owner);
    const theirs = await bodyOf<"POST /attachments/">(
      await other.fetch("POST", "/attachments/", { file: await uploadKey(other), filename: "cat.png" }),
    );
    for (const path of ["/messages/", "/messages/outgoing/"]) {
      const attachments = [{ file: await uploadKey(owner), filename: "cat.png" }];
      const res = await owner.fetch("POST", path, { conversation: conversationId, attachments });
      expect(res.status, await res.clone().text()).toBe(201);
      const message = await bodyOf<"POST /messages/">(res);
      expect(message).toMatchObject({ content: "", attachments: [{ id: expect.any(String), type: "image" }] });
      expect(message.attachments[0].file).toMatch(/^http:\/\/localhost\//);
      const before = (await objectMessages(conversationId)).length;
      await expectError(
        await owner.fetch("POST", path, {
          conversation: conversationId,
          content: "x",
          attachments: [{ id: theirs.id, filename: "cat.png", file: theirs.file }],
        }),
        400,
        "invalid",
      );
      expect(await objectMessages(conversationId)).toHaveLength(before);
    }
  });

  it("an attachment named by id alone needs no filename or file; without an id both are required", async () => {
    const owner = await seedOwner();
    const { bot, conversationId } = await conversationOf(owner);
    const send = (path: string, attachments: Record<string, unknown>[]) =>
      path === "completions"
        ? owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
            conversation: conversationId,
            message: { content: "see the file", attachments },
          })
        : owner.fetch("POST", path, { conversation: conversationId, content: "see the file", attachments });
    for (const path of ["/messages/", "/messages/outgoing/", "completions"]) {
      const attachment = await bodyOf<"POST /attachments/">(
        await owner.fetch("POST", "/attachments/", { file: await uploadKey(owner), filename: "cat.png" }),
      );
      const res = await send(path, [{ id: attachment.id }]);
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(path === "completions" ? 200 : 201);
      const body = await res.json<Schemas["Message"] | { message: Schemas["Message"] }>();
      const message = "message" in body ? body.message : body;
      if (path !== "completions")
        expect(message.attachments).toMatchObject([{ id: attachment.id, filename: "cat.png" }]);

      const before = (await objectMessages(conversationId)).length;
      const refused = await expectError(await send(path, [{ type: "image" }]), 400, "invalid");
      const at = path === "completions" ? "message.attachments.0" : "attachments.0";
      expect(Object.keys(refused.errors!).sort()).toEqual([`${at}.file`, `${at}.filename`]);
      expect(await objectMessages(conversationId)).toHaveLength(before);
    }
  });

  it("update-auto-reply: 400 bad body, 401, 403, 404 across organizations", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { conversationId } = await conversationOf(owner);
    await expectError(
      await owner.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: "no" }),
      400,
      "invalid",
    );
    await expectError(
      await call("PATCH", `/api/v1/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false }),
      401,
    );
    const viewer = await seedMember(owner, ["conversation.view"]);
    await expectError(
      await viewer.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false }),
      403,
    );
    await expectError(
      await other.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false }),
      404,
    );
    await expectError(
      await other.fetch("POST", "/messages/outgoing/", { conversation: conversationId, content: "x" }),
      404,
    );
    await expectError(
      await viewer.fetch("POST", "/messages/outgoing/", { conversation: conversationId, content: "x" }),
      403,
    );
    const still = await bodyOf<"GET /conversations/{id}/">(
      await owner.fetch("GET", `/conversations/${conversationId}/`),
    );
    expect(still.autoReplyEnabled).toBe(true);
  });
});
