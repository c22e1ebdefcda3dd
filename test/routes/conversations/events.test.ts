import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { liveEvents, type InboxStreamEvent } from "../../support/sse";
import { signIn, withPassword } from "../sessions/fixtures";
import { client, pub, seedWebChat, startSession } from "../widget/fixtures";
import { bodyOf } from "../../support/api";

/** The organization's live inbox stream, once subscribed (its `ready` event read). */
async function subscribe(actor: Pick<Actor, "fetch" | "organizationId">, prefix = "/api/v1") {
  const res = await actor.fetch("GET", `/organizations/${actor.organizationId}/conversation-events/`, undefined, {
    prefix,
  });
  expect(res.status, res.ok ? "" : await res.clone().text()).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("text/event-stream");
  const events = liveEvents<InboxStreamEvent>(res);
  expect((await events.next()).event).toBe("ready");
  return events;
}

/** Accepts an event of conversation `conversationId` that `extra` accepts too (`events.next(name, of(id))`). */
const of =
  <E extends { data: { conversation: { id: string } } }>(
    conversationId: string,
    extra: (e: E) => boolean = () => true,
  ) =>
  (e: E) =>
    e.data.conversation.id === conversationId && extra(e);

describe("GET /organizations/{organizationPk}/conversation-events/", () => {
  it.each(PREFIXES)("streams new conversations, their messages and state changes (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const events = await subscribe(owner, prefix);
    // A completion's first turn (answered without the conversation's object).
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } }),
    );
    const id = first.conversationId;
    const created = await events.next("conversation.created", of(id));
    expect(created.data.conversation).toMatchObject({
      id,
      inbox: { id: bot.defaultInbox!.id },
      chatbot: { id: bot.id },
      status: "open",
    });
    const incoming = await events.next("message.created", of(id));
    expect(incoming.data.message).toMatchObject({
      conversation: id,
      senderType: "contact",
      content: "hello",
      sequence: 1,
    });
    expect(incoming.data.conversation).toMatchObject({ progressStatus: "ai_processing", lastMessage: "hello" });
    const reply = await events.next("message.created", of(id));
    expect(reply.data.message).toMatchObject({ senderType: "chatbot", sequence: 2 });

    // A later turn, through the conversation's object.
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { conversation: id, message: { content: "again" } });
    expect((await events.next("message.created", of(id))).data.message).toMatchObject({
      content: "again",
      sequence: 3,
    });
    expect((await events.next("message.created", of(id))).data.message).toMatchObject({
      senderType: "chatbot",
      sequence: 4,
    });

    // Takeover, a human agent's reply, resolve.
    expect((await owner.fetch("POST", `/conversations/${id}/take-over/`, undefined, { prefix })).status).toBe(200);
    const takenOver = await events.next("conversation.updated", of(id));
    expect(takenOver.data.conversation).toMatchObject({
      progressStatus: "human_serving",
      autoReplyEnabled: false,
      assignee: { id: owner.userId },
    });
    expect(takenOver.data).toMatchObject({
      reason: "operator",
      changes: {
        progressStatus: ["ai_processing", "human_serving"],
        assignee: [null, owner.userId],
        autoReplyEnabled: [true, false],
      },
    });
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Sam here" });
    const human = await events.next("message.created", of(id));
    expect(human.data.message).toMatchObject({ senderType: "user", content: "Sam here", sequence: 5 });
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    const resolved = await events.next("conversation.updated", of(id));
    expect(resolved.data.conversation).toMatchObject({ status: "resolved", progressStatus: "resolved" });
    expect(resolved.data).toMatchObject({
      reason: "resolved",
      changes: { status: ["open", "resolved"], progressStatus: ["human_serving", "resolved"] },
    });
    await events.close();
  });

  it("an assistant's handoff is a conversation.updated with its reason, after the message that says it", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const events = await subscribe(owner);
    const { conversationId: id } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hello" } }),
    );
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: id,
      message: { content: "I want to talk to a human" },
    });
    const said = await events.next(
      "message.created",
      of(id, (e) => e.data.message.senderType === "chatbot" && !!e.data.message.contentPayload?.handoff),
    );
    expect(said.data.message.contentPayload).toEqual({ handoff: { reason: "visitor_request" } });
    const updated = await events.next("conversation.updated", of(id));
    expect(updated.data).toMatchObject({
      reason: "visitor_request",
      changes: {
        status: ["open", "queued"],
        progressStatus: ["ai_processing", "waiting_for_human"],
        autoReplyEnabled: [true, false],
      },
      conversation: { status: "queued", progressStatus: "waiting_for_human" },
    });
    // A member's reply picks it up: taken over first (reason operator, the member its assignee), then the reply.
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Sam here" });
    const served = await events.next("conversation.updated", of(id));
    expect(served.data).toMatchObject({
      reason: "operator",
      changes: { status: ["queued", "open"], progressStatus: ["waiting_for_human", "human_serving"] },
      conversation: { assignee: { id: owner.userId } },
    });
    await events.next(
      "message.created",
      of(id, (e) => e.data.message.senderType === "user"),
    );
    await events.close();
  });

  it("streams what visitors write in the widget, and a conversation created empty", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const events = await subscribe(owner);
    const session = await startSession(chat.id);
    const sent = await client().post(pub(chat.id, "messages/"), { content: "From the widget" }, session.token);
    expect(sent.status).toBe(200);
    const text = await sent.text();
    const id = JSON.parse(
      text
        .trim()
        .split("\n\n")
        .at(-1)!
        .replace(/^id: .*\n/, "")
        .slice(6),
    ).conversationId as string;
    expect((await events.next("conversation.created", of(id))).data.conversation).toMatchObject({
      inbox: { id: chat.inboxId },
      contact: { id: session.contact.id },
    });
    expect((await events.next("message.created", of(id))).data.message).toMatchObject({
      content: "From the widget",
      senderType: "contact",
    });
    expect((await events.next("message.created", of(id))).data.message).toMatchObject({ senderType: "chatbot" });

    const empty = await bodyOf<"POST /conversations/">(
      await owner.fetch("POST", "/conversations/", { webChat: chat.id }),
    );
    expect((await events.next("conversation.created", of(empty.id))).data.conversation).toMatchObject({
      lastMessage: null,
    });
    await events.close();
  });

  it("carries nothing of another organization", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const [mine, theirs] = await Promise.all([createChatbot(owner), createChatbot(other)]);
    const events = await subscribe(owner);
    const foreign = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await other.fetch("POST", `/chatbots/${theirs.id}/completions/`, { message: { content: "secret" } }),
    );
    const own = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${mine.id}/completions/`, { message: { content: "ours" } }),
    );
    // Events of one organization come in order: the first one seen is ours, the foreign one never comes.
    const seen = await events.next((e) => e.event !== "ready");
    expect("conversation" in seen.data && seen.data.conversation.id).toBe(own.conversationId);
    expect(JSON.stringify(seen)).not.toContain(foreign.conversationId);
    await events.close();
  });

  it("a stream opened after events went unheard gets the next ones at once", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // Nobody listens: the hub says so, and this isolate stops publishing for a while...
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "unheard" } });
    await new Promise((r) => setTimeout(r, 100));
    // ...until a stream opens here.
    const events = await subscribe(owner);
    const heard = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "heard" } }),
    );
    expect((await events.next("message.created", of(heard.conversationId))).data.message).toMatchObject({
      content: "heard",
    });
    // The conversation's object, which skips its events while unheard, publishes again too, in order.
    await Promise.all(
      ["again", "and again"].map((content) =>
        owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
          conversation: heard.conversationId,
          message: { content },
        }),
      ),
    );
    const sequences: number[] = [];
    for (let i = 0; i < 5; i++)
      sequences.push((await events.next("message.created", of(heard.conversationId))).data.message.sequence);
    expect(sequences).toEqual([2, 3, 4, 5, 6]);
    await events.close();
  });

  it("authenticates by the console's cookie", async () => {
    const owner = await withPassword(await seedOwner());
    const bot = await createChatbot(owner);
    const browser = await signIn({ email: owner.email, password: "correct horse battery" });
    const events = await subscribe({ fetch: browser.fetch, organizationId: owner.organizationId });
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hi" } }),
    );
    expect((await events.next("conversation.created", of(first.conversationId))).event).toBe("conversation.created");
    await events.close();
  });

  it("401 without a key, 403 without conversation.view, 404 for an organization one is not a member of", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    await expectError(await call("GET", `/api/v1/organizations/${owner.organizationId}/conversation-events/`), 401);
    const nobody = await seedMember(owner, ["chatbot.view"]);
    await expectError(await nobody.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`), 403);
    await expectError(await other.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`), 404);
    await expectError(await owner.fetch("GET", `/organizations/${NO_SUCH_ID}/conversation-events/`), 404);
    await expectError(await owner.fetch("GET", "/organizations/not-an-id/conversation-events/"), 404);
    const viewer = await seedMember(owner, ["conversation.view"]);
    const events = await subscribe(viewer);
    await events.close();
  });
});
