// Satisfaction ratings from the widget: only a resolved conversation, stored on the conversation
// (its record's `csat`), replaced by a second answer within 7 days, told to the live inbox.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { conversations } from "../../../src/db/schema";
import { conversationData, expectError, seedOwner, type Actor } from "../../harness";
import { liveEvents, type InboxStreamEvent } from "../../support/sse";
import { pub, startSession, visitorConversation } from "./fixtures";
import { bodyOf } from "../../support/api";

type Csat = "POST /web-chats/{id}/public/conversations/{conversationId}/csat/";

async function ratedConversation(owner: Actor) {
  const { chat, visitor, session, id } = await visitorConversation(owner);
  const rate = (body: unknown, token: string | undefined = session.token, conversationId = id) =>
    visitor.post(pub(chat.id, `conversations/${conversationId}/csat/`), body, token);
  return { chat, visitor, session, id, rate };
}

const recordOf = async (owner: Actor, id: string) =>
  await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${id}/`));

describe("POST /web-chats/{id}/public/conversations/{conversationId}/csat/", () => {
  it("rates a resolved conversation: stored, on the record, told to the live inbox; a later rating wins", async () => {
    const owner = await seedOwner();
    const { id, rate } = await ratedConversation(owner);
    expect((await recordOf(owner, id)).csat).toBeNull();
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    const stream = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
    const events = liveEvents<InboxStreamEvent>(stream);
    expect((await events.next()).event).toBe("ready");

    const res = await rate({ rating: 4, comment: "  Quick and friendly.  " });
    expect(res.status, await res.clone().text()).toBe(200);
    const given = await bodyOf<Csat>(res);
    expect(given).toEqual({ rating: 4, comment: "Quick and friendly.", createdAt: expect.stringMatching(/^\d+$/) });
    expect((await recordOf(owner, id)).csat).toEqual(given);
    const updated = await events.next("conversation.updated", (e) => e.data.conversation.id === id);
    expect(updated.data.conversation).toMatchObject({ id, status: "resolved" });
    await events.close();

    // A slip corrected: the answer replaced, its time (the first answer's) kept.
    const again = await bodyOf<Csat>(await rate({ rating: 5 }));
    expect(again).toEqual({ rating: 5, comment: null, createdAt: given!.createdAt });
    expect((await recordOf(owner, id)).csat).toEqual(again);
    // No comment said as null, as the record reads it back.
    const nulled = await rate({ rating: 3, comment: null });
    expect(nulled.status, await nulled.clone().text()).toBe(200);
    expect(await bodyOf<Csat>(nulled)).toEqual({ rating: 3, comment: null, createdAt: given!.createdAt });
  });

  it("keeps a comment's lone surrogate (half an emoji) as one U+FFFD", async () => {
    const owner = await seedOwner();
    const { id, rate } = await ratedConversation(owner);
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    const res = await rate({ rating: 5, comment: "Great \ud83d" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await recordOf(owner, id)).csat).toMatchObject({ comment: "Great \uFFFD" });
  });

  it("400 conversation_not_resolved for an open conversation; bad ratings, long comments 400; none kept", async () => {
    const owner = await seedOwner();
    const { id, rate } = await ratedConversation(owner);
    const open = await expectError(await rate({ rating: 5 }), 400, "conversation_not_resolved");
    expect(open.detail).toBe("Only a resolved conversation can be rated: it is still open.");
    await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: false });
    const queued = await expectError(await rate({ rating: 5 }), 400, "conversation_not_resolved");
    expect(queued.detail).toBe("Only a resolved conversation can be rated: it is still waiting for a person.");
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    for (const body of [
      { rating: 0 },
      { rating: 6 },
      { rating: 3.5 },
      { rating: "4" },
      {},
      { rating: 3, comment: "x".repeat(1001) },
    ]) {
      const problem = await expectError(await rate(body), 400, "invalid");
      expect(problem.detail.length).toBeGreaterThan(0);
    }
    expect((await recordOf(owner, id)).csat).toBeNull();
  });

  it("after 7 days the rating stands (409); 401 without the token; 404 for another visitor's one", async () => {
    const owner = await seedOwner();
    const mine = await ratedConversation(owner);
    const theirs = await ratedConversation(owner);
    await owner.fetch("POST", `/conversations/${mine.id}/resolve/`);
    await owner.fetch("POST", `/conversations/${theirs.id}/resolve/`);
    await expectError(await mine.rate({ rating: 3 }, ""), 401);
    await expectError(await mine.rate({ rating: 3 }, mine.session.token, theirs.id), 404);
    expect((await recordOf(owner, theirs.id)).csat).toBeNull();

    expect((await mine.rate({ rating: 2 })).status).toBe(200);
    const eightDaysAgo = Date.now() - 8 * 24 * 3600 * 1000;
    await (await conversationData(owner.organizationId, mine.id))
      .update(conversations)
      .set({ csatAt: eightDaysAgo })
      .where(eq(conversations.id, mine.id));
    await expectError(await mine.rate({ rating: 5 }), 409, "conflict");
    expect((await recordOf(owner, mine.id)).csat).toMatchObject({ rating: 2, createdAt: String(eightDaysAgo) });
  });
});

describe("the visitor's conversations tell the widget whether to ask for a rating", () => {
  it("status and rated in the session and conversations/: open, then resolved and not rated, then rated", async () => {
    const owner = await seedOwner();
    const { chat, visitor, session, id, rate } = await ratedConversation(owner);
    const listed = async () => {
      // Where the widget reads it: the session it resumes with its stored token, and the list of conversations.
      const resumed = (await startSession(chat.id, { token: session.token }, visitor)).conversations;
      const res = await visitor.get(pub(chat.id, "conversations/"), session.token);
      expect(res.status).toBe(200);
      const { results } = await bodyOf<"GET /web-chats/{id}/public/conversations/">(res);
      expect(results).toEqual(resumed);
      return results;
    };
    expect(await listed()).toEqual([expect.objectContaining({ id, status: "open", rated: false })]);
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    expect(await listed()).toEqual([expect.objectContaining({ id, status: "resolved", rated: false })]);
    expect((await rate({ rating: 5 })).status).toBe(200);
    expect(await listed()).toEqual([expect.objectContaining({ id, status: "resolved", rated: true })]);
  });
});
