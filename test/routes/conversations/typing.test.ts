// Typing indicators, both ways: an operator's reaches the visitor's live stream, a visitor's the
// organization's live inbox stream. Nothing is stored.
import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied } from "../../support/refusals";
import { liveEvents } from "../../support/sse";
import { pub, visitorConversation } from "../widget/fixtures";
import { bodyOf } from "../../support/api";

/** A visitor's conversation in a web chat (one answered message), and the visitor's means to reach it. */
async function typingConversation(owner: Actor) {
  const { chat, visitor, session, id } = await visitorConversation(owner, {
    session: { contact: { name: "Ada Visitor" } },
  });
  const typing = (body: unknown, token: string | undefined = session.token) =>
    visitor.post(pub(chat.id, `conversations/${id}/typing/`), body, token);
  const live = async () => {
    const res = await visitor.get(pub(chat.id, `conversations/${id}/events/`), session.token);
    expect(res.status).toBe(200);
    return liveEvents(res);
  };
  return { chat, visitor, session, id, typing, live };
}

async function inboxStream(actor: Actor) {
  const res = await actor.fetch("GET", `/organizations/${actor.organizationId}/conversation-events/`);
  expect(res.status).toBe(200);
  const events = liveEvents(res);
  expect((await events.next()).event).toBe("ready");
  return events;
}

const lastMessageOf = async (owner: Actor, id: string) =>
  (await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${id}/`))).lastMessage;

describe("POST /conversations/{id}/typing/ (an operator typing)", () => {
  it.each(PREFIXES)(
    "reaches the widget's live stream as event: typing with the operator's name, and the live inbox (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const { id, live } = await typingConversation(owner);
      const before = await lastMessageOf(owner, id);
      const widget = await live();
      const inbox = await inboxStream(owner);
      const me = await bodyOf<"GET /users/current/">(await owner.fetch("GET", "/users/current/"));
      const res = await owner.fetch("POST", `/conversations/${id}/typing/`, { typing: true }, { prefix });
      expect(res.status, await res.clone().text()).toBe(204);
      expect((await widget.next((e) => e.event === "typing")).data).toEqual({ typing: true, name: me.name });
      expect((await inbox.next((e) => e.event === "conversation.typing")).data).toEqual({
        conversationId: id,
        typing: true,
        sender: { type: "user", id: owner.userId, name: me.name },
      });
      await owner.fetch("POST", `/conversations/${id}/typing/`, { typing: false }, { prefix });
      expect((await widget.next((e) => e.event === "typing")).data).toEqual({ typing: false, name: me.name });
      await widget.close();
      await inbox.close();
      // Nothing stored: the conversation's last message is still the assistant's answer.
      expect(await lastMessageOf(owner, id)).toBe(before);
    },
  );

  it(
    "bad input is 400 with a detail; no key 401; another organization's conversation 404; without " +
      "conversation.manage 403",
    async () => {
      const owner = await seedOwner();
      const { id } = await typingConversation(owner);
      const bad = await expectError(
        await owner.fetch("POST", `/conversations/${id}/typing/`, { typing: "yes" }),
        400,
        "invalid",
      );
      expect(JSON.stringify(bad)).toContain("typing");
      await expectError(await owner.fetch("POST", `/conversations/${id}/typing/`, {}), 400);
      await expectError(await call("POST", `/api/v1/conversations/${id}/typing/`, { typing: true }), 401);
      const other = await seedOwner("other");
      await expectError(await other.fetch("POST", `/conversations/${id}/typing/`, { typing: true }), 404);
      await expectError(await owner.fetch("POST", `/conversations/${NO_SUCH_ID}/typing/`, { typing: true }), 404);
      const viewer = await seedMember(owner, ["conversation.view"]);
      await expectDenied(await viewer.fetch("POST", `/conversations/${id}/typing/`, { typing: true }));
    },
  );
});

describe("POST /web-chats/{id}/public/conversations/{conversationId}/typing/ (a visitor typing)", () => {
  it("reaches the organization's live stream as conversation.typing, sent by the visitor; nothing stored", async () => {
    const owner = await seedOwner();
    const { id, session, typing } = await typingConversation(owner);
    const before = await lastMessageOf(owner, id);
    const inbox = await inboxStream(owner);
    const res = await typing({ typing: true });
    expect(res.status, await res.clone().text()).toBe(204);
    const event = await inbox.next((e) => e.event === "conversation.typing");
    expect(event.data).toEqual({
      conversationId: id,
      typing: true,
      sender: { type: "contact", id: session.contact.id, name: "Ada Visitor" },
    });
    expect((await typing({ typing: false })).status).toBe(204);
    expect((await inbox.next((e) => e.event === "conversation.typing")).data).toMatchObject({
      conversationId: id,
      typing: false,
    });
    await inbox.close();
    expect(await lastMessageOf(owner, id)).toBe(before);
  });

  it(
    "400 for bad input, 401 without the visitor token, 404 for another visitor's conversation, 429 past 40 a " +
      "minute",
    async () => {
      const owner = await seedOwner();
      const mine = await typingConversation(owner);
      const theirs = await typingConversation(owner);
      const bad = await expectError(await mine.typing({ typing: 1 }), 400, "invalid");
      expect(JSON.stringify(bad)).toContain("typing");
      await expectError(await mine.typing({ typing: true }, ""), 401);
      await expectError(
        await mine.visitor.post(
          pub(mine.chat.id, `conversations/${theirs.id}/typing/`),
          { typing: true },
          mine.session.token,
        ),
        404,
      );
      let last: Response | null = null;
      for (let i = 0; i < 41; i++) {
        last = await mine.typing({ typing: i % 2 === 0 });
        if (last.status !== 204) break;
      }
      const throttled = await expectError(last!, 429, "throttled");
      expect(throttled.detail).toContain("typing");
      expect(last!.headers.get("Retry-After")).toMatch(/^\d+$/);
    },
  );
});
