// The visitor's live stream (`conversations/{id}/events/`): who serves the conversation, the
// messages missed while the stream was down (Last-Event-ID), and its time limit.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { conversationRow, db, expectError, seedOwner, type Actor } from "../../harness";
import { liveOpening } from "../../../src/services/widget/live";
import { liveEvents } from "../../support/sse";
import { client, pub, seedWebChat, startSession, visitorConversation } from "./fixtures";
import { bodyOf } from "../../support/api";
import { createChatbot } from "../../fixtures/chatbots";
import { upstreamModel } from "../chat-completions/fixtures";

/**
 * A visitor of a web chat whose assistant answers through the local upstream's `model` (`delay-<ms>` a word over 20
 * words, `fail-midstream`), and the assistant, whose model a test may change.
 */
async function upstreamVisitor(owner: Actor, model: string) {
  const bot = await createChatbot(owner, { largeLanguageModel: (await upstreamModel(owner, { modelName: model })).id });
  const chat = await seedWebChat(owner, { enableAnonymous: true }, bot);
  const visitor = client();
  const { token } = await startSession(chat.id, {}, visitor);
  const send = (content: string, conversation?: string) =>
    visitor.post(pub(chat.id, "messages/"), { content, ...(conversation ? { conversation } : {}) }, token);
  const open = (id: string) => visitor.get(pub(chat.id, `conversations/${id}/events/`), token);
  return { bot, send, open };
}

/** The events of a live stream up to the first that `last` accepts, as `event role-or-replying`. */
async function eventsUntil(
  live: ReturnType<typeof liveEvents<{ event: string; data: Record<string, unknown> }>>,
  last: (e: { event: string; data: Record<string, unknown> }) => boolean,
) {
  const seen: string[] = [];
  for (;;) {
    const e = await live.next();
    seen.push(`${e.event} ${e.event === "replying" ? e.data.replying : (e.data.role ?? "")}`.trim());
    if (last(e)) return seen;
  }
}

/** A visitor's conversation with one exchange (their message, the assistant's reply). */
async function liveConversation(owner: Actor) {
  const { chat, visitor, session, id } = await visitorConversation(owner);
  const history = async () =>
    (
      await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
        await visitor.get(pub(chat.id, `conversations/${id}/messages/`), session.token),
      )
    ).results;
  const open = (headers: Record<string, string> = {}, settings?: Parameters<typeof visitor.get>[3]) =>
    visitor.get(pub(chat.id, `conversations/${id}/events/`), session.token, headers, settings);
  return { chat, visitor, session, id, history, open };
}

describe("the visitor's live stream", () => {
  it("tells the visitor who serves the conversation: an agent joins by name, hands back, resolves", async () => {
    const owner = await seedOwner();
    const { id, open } = await liveConversation(owner);
    const res = await open();
    expect(res.status).toBe(200);
    const live = liveEvents(res);
    // First the state it has when the stream opens.
    expect(await live.next()).toEqual({
      event: "status",
      id: null,
      data: { status: "open", progressStatus: "ai_processing", agent: null },
    });
    await owner.fetch("POST", `/conversations/${id}/take-over/`);
    const me = await bodyOf<"GET /users/current/">(await owner.fetch("GET", "/users/current/"));
    const serving = { status: "open", progressStatus: "human_serving", agent: { name: me.name, avatar: null } };
    expect(await live.next((e) => e.event === "status")).toMatchObject({ id: null, data: serving });
    // Opened again (a reload) while a person serves: the stream starts with them.
    const reopened = liveEvents(await open());
    expect(await reopened.next()).toMatchObject({ event: "status", data: serving });
    await reopened.close();
    await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: true });
    expect((await live.next((e) => e.event === "status")).data).toEqual({
      status: "open",
      progressStatus: "ai_processing",
      agent: null,
    });
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    expect((await live.next((e) => e.event === "status")).data).toEqual({
      status: "resolved",
      progressStatus: "resolved",
      agent: null,
    });
    await live.close();
  });

  it(
    "tells whether the assistant is replying: at the opening (a reload mid-reply), as a reply begins, and when it " +
      "ends, stored or failed",
    async () => {
      const owner = await seedOwner();
      const { bot, send, open } = await upstreamVisitor(owner, "delay-40");
      const first = await send("hello");
      const id = /"conversationId":"([^"]+)"/.exec(await first.text())![1];
      const live = liveEvents(await open(id));
      expect(await eventsUntil(live, (e) => e.event === "replying")).toEqual(["status", "replying false"]);

      const sent = await send("Where is my parcel?", id);
      expect(await eventsUntil(live, (e) => e.event === "replying")).toEqual(["message visitor", "replying true"]);
      // Opened while the reply is under way, as after a reload: it says so at once, after the state.
      const reloaded = liveEvents(await open(id));
      expect(await eventsUntil(reloaded, (e) => e.event === "replying")).toEqual(["status", "replying true"]);
      for (const stream of [live, reloaded])
        expect(await eventsUntil(stream, (e) => e.event === "replying")).toEqual([
          "message assistant",
          "replying false",
        ]);
      await sent.text();
      await reloaded.close();

      // A reply that fails: under way, then no longer, and no message of the assistant's. Also when the model fails at
      // once (a 500 before any word), sooner than the visitor's message is stored: still told in that order.
      for (const [fault, content] of [
        ["fail-midstream", "And my invoice?"],
        ["fail-500", "And my refund?"],
      ]) {
        const failing = await upstreamModel(owner, { modelName: fault });
        const patched = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: failing.id });
        expect(patched.status, await patched.clone().text()).toBe(200);
        const failed = await send(content, id);
        expect(await eventsUntil(live, (e) => e.event === "replying" && !e.data.replying), fault).toEqual([
          "message visitor",
          "replying true",
          "replying false",
        ]);
        await failed.text();
      }
      await live.close();
    },
  );

  it("with Last-Event-ID, sends the messages stored since first, in order, then live ones, each once", async () => {
    const owner = await seedOwner();
    const { id, open, history } = await liveConversation(owner);
    const [hello, reply] = await history();
    await owner.fetch("POST", `/conversations/${id}/take-over/`);
    for (const content of ["one", "two"])
      await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content });

    const live = liveEvents(await open({ "Last-Event-ID": hello.id }));
    expect((await live.next()).event).toBe("status"); // the state, before what was missed
    const missed = [await live.next(), await live.next(), await live.next()];
    expect(missed.map((e) => [e.event, e.data.role, e.data.content])).toEqual([
      ["message", "assistant", reply.content],
      ["message", "agent", "one"],
      ["message", "agent", "two"],
    ]);
    expect(missed.map((e) => e.id)).toEqual(missed.map((e) => e.data.id));
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "three" });
    const next = await live.next((e) => e.event === "message");
    expect(next.data).toMatchObject({
      role: "agent",
      content: "three",
      sequence: (missed[2].data.sequence as number) + 1,
    });
    await live.close();

    // From the newest message: nothing replayed, the next live one only.
    const stored = await history();
    const after = liveEvents(await open({ "Last-Event-ID": stored.at(-1)!.id }));
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "four" });
    expect((await after.next((e) => e.event === "message")).data).toMatchObject({ content: "four" });
    await after.close();
  });

  it("opens with the state as it is once subscribed, not as the route read it to check the visitor", async () => {
    // A takeover between the route's check (visitorConversation) and its subscription is broadcast to no one: the
    // opening must tell it, or the visitor would hear of the agent only when the stream opened again.
    const owner = await seedOwner();
    const { id } = await liveConversation(owner);
    const checked = await conversationRow(owner.organizationId, id);
    expect(checked.progressStatus).toBe("ai_processing");
    await owner.fetch("POST", `/conversations/${id}/take-over/`);
    const me = await bodyOf<"GET /users/current/">(await owner.fetch("GET", "/users/current/"));
    const { state } = await liveOpening(env, db(), checked, undefined);
    expect(state).toEqual({ status: "open", progressStatus: "human_serving", agent: { name: me.name, avatar: null } });
  });

  it("replays nothing for another conversation's message id, and refuses an id that is not a UUID (400)", async () => {
    const owner = await seedOwner();
    const mine = await liveConversation(owner);
    const theirs = await liveConversation(owner);
    const [foreign] = await theirs.history();
    await owner.fetch("POST", `/conversations/${mine.id}/take-over/`);
    const live = liveEvents(await mine.open({ "Last-Event-ID": foreign.id }));
    await owner.fetch("POST", "/messages/outgoing/", { conversation: mine.id, content: "live only" });
    // The first message event is the live one: the foreign id named no place in this conversation.
    expect((await live.next((e) => e.event === "message")).data).toMatchObject({ content: "live only" });
    await live.close();

    const bad = await mine.open({ "Last-Event-ID": "nope" });
    const problem = await expectError(bad, 400);
    expect(JSON.stringify(problem)).toContain("Last-Event-ID");
  });

  it("ends after WIDGET_STREAM_MAX_MS; reopened with Last-Event-ID, nothing stored meanwhile is missed", async () => {
    const owner = await seedOwner();
    const { id, open } = await liveConversation(owner);
    await owner.fetch("POST", `/conversations/${id}/take-over/`);
    const settings = { WIDGET_STREAM_MAX_MS: "300" };
    const live = liveEvents(await open({}, settings));
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "before the end" });
    const seen = await live.next((e) => e.event === "message");
    await expect(live.next()).rejects.toThrow("the stream ended");
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "while away" });
    const again = liveEvents(await open({ "Last-Event-ID": seen.id! }, settings));
    expect((await again.next((e) => e.event === "message")).data).toMatchObject({ content: "while away" });
    await again.close();
  });

  it("ends with event: error once its token is no longer taken or the web chat closed, not at its end", async () => {
    const settings = { INBOX_STREAM_RECHECK_MS: "100" };
    const owner = await seedOwner();
    const { chat, id, open } = await liveConversation(owner);
    // Made private: an anonymous visitor's token is refused from now on, the open stream's too.
    const live = liveEvents(await open({}, settings));
    await live.next((e) => e.event === "status");
    expect((await owner.fetch("PATCH", `/web-chats/${chat.id}/`, { accessType: "private" })).status).toBe(200);
    expect(await live.next((e) => e.event === "error")).toMatchObject({ data: { code: "not_authenticated" } });
    await expect(live.next()).rejects.toThrow("the stream ended");

    // The web chat closed.
    const other = await liveConversation(owner);
    const stream = liveEvents(await other.open({}, settings));
    await stream.next((e) => e.event === "status");
    expect((await owner.fetch("PATCH", `/web-chats/${other.chat.id}/`, { isActive: false })).status).toBe(200);
    expect(await stream.next((e) => e.event === "error")).toMatchObject({ data: { code: "web_chat_inactive" } });
    expect(id).not.toBe(other.id);
  });
});
