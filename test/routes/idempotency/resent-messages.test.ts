import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countRows, call, expectError, NO_SUCH_ID, seedMember, seedOwner, type Actor, waitFor } from "../../harness";
import { startedConversation } from "../../support/conversation-search";
import { expectDenied } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { upstreamModel, upstreamRequestCount } from "../chat-completions/fixtures";
import { liveEvents, readEvents, storedReply, type StreamEvent } from "../../support/sse";
import { client, pub, seedWebChat, startSession } from "../widget/fixtures";
import { bodyOf } from "../../support/api";
import { objectMessages } from "../../support/object-messages";
import { client as dbClient } from "../../../src/db/prepared";
import { dataDbs, placement } from "../../../src/services/shards";
import { ownOrganizationOf } from "../chatbots/helpers";

// A message resent with the same Idempotency-Key (after a time-out, a restart) is stored once: the
// repeat gets the first request's outcome (docs/decisions.md, "Resent messages").
const key = () => crypto.randomUUID();
const withKey = (k: string, prefix?: string) => ({ headers: { "Idempotency-Key": k }, ...(prefix ? { prefix } : {}) });
// Summed over every data plane (`DB` and the shards): the organizations' conversations and keys are in their shard.
const count = async (from: string, ...binds: unknown[]) => {
  let n = 0;
  for (const data of dataDbs(env)) n += await countRows(dbClient(data), from, ...binds);
  return n;
};
const conversationsOf = (owner: Actor) => count("conversations WHERE organization_id = ?", owner.organizationId);
const messagesIn = async (conversationId: string) => (await objectMessages(conversationId)).length;
const keyRows = (k: string) => count("idempotency_keys WHERE key = ?", k);
/** A member of an organization who owns one of their own, the two in one data plane (where their keys could meet). */
async function memberOfTwoOrganizationsInOnePlane() {
  const owner = await seedOwner();
  for (;;) {
    const member = await seedMember(owner, ["conversation.manage", "chatbot.manage"]);
    const own = await ownOrganizationOf(member.userId);
    if (placement(own) === placement(owner.organizationId)) return { owner, member, own };
  }
}

describe("Idempotency-Key on completions", () => {
  it(
    "a direct completion resent (under the other prefix too) returns the first reply, marked replayed, and " +
      "stores nothing more",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const k = key();
      const body = { message: { content: "What are your opening hours?" } };
      const first = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
      expect(first.status).toBe(200);
      expect(first.headers.get("Idempotent-Replayed")).toBeNull();
      const answer = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(first);
      for (const prefix of ["/api/v1", "/api"]) {
        const again = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k, prefix));
        expect(again.status).toBe(200);
        expect(again.headers.get("Idempotent-Replayed")).toBe("true");
        expect(await again.json()).toEqual(answer);
      }
      expect(await conversationsOf(owner)).toBe(1);
      expect(await messagesIn(answer.conversationId)).toBe(2);
      // Without a key, or with a new one, the same text is a new message.
      const fresh = await owner.fetch(
        "POST",
        `/chatbots/${bot.id}/completions/`,
        { ...body, conversation: answer.conversationId },
        withKey(key()),
      );
      expect(fresh.status).toBe(200);
      expect(await messagesIn(answer.conversationId)).toBe(4);
    },
  );

  it("422 when the key comes back with a different request, 400 for a malformed key; nothing stored", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const k = key();
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "one" } }, withKey(k));
    const other = await expectError(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "two" } }, withKey(k)),
      422,
      "idempotency_key_reused",
    );
    expect(other.detail).toMatch(/different request/);
    for (const bad of ["x".repeat(256), "has space"]) {
      await expectError(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "three" } }, withKey(bad)),
        400,
        "invalid",
      );
    }
    expect(await conversationsOf(owner)).toBe(1);
  });

  it(
    "a streamed completion resent while it runs is 409 with Retry-After; once done, the resend replays its " +
      "events (deltas merged) with the stored message",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner, { modelName: "delay-40" });
      const bot = await createChatbot(owner, { largeLanguageModel: model.id });
      const k = key();
      const body = { message: { content: "Tell me slowly" }, isStreaming: true };
      const first = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
      const live = liveEvents(first.clone());
      await live.next();
      const busy = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
      await expectError(busy.clone(), 409, "idempotency_in_progress");
      expect(busy.headers.get("Retry-After")).toBe("1");
      const done = storedReply(await readEvents<StreamEvent>(first));
      expect(done.done).toBe(true);

      const again = await waitFor(
        () => owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k)),
        (r) => r.status !== 409,
        3_000,
        30,
      );
      expect(again.headers.get("Content-Type")).toContain("text/event-stream");
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      const replayed = await readEvents(again);
      expect(replayed).toHaveLength(2);
      expect(replayed[0].data).toMatchObject({
        conversationId: done.conversationId,
        content: done.message.content,
        done: false,
      });
      expect(replayed[1].data).toEqual(done);
      expect(await conversationsOf(owner)).toBe(1);
      expect(await messagesIn(done.conversationId)).toBe(2);
    },
  );

  it(
    "a failure after the message was stored is replayed too: the resend neither stores the message again nor " +
      "asks the model",
    async () => {
      const owner = await seedOwner();
      const name = `fail-500x1-${crypto.randomUUID()}`;
      const model = await upstreamModel(owner, { modelName: name });
      const bot = await createChatbot(owner, { largeLanguageModel: model.id });
      const k = key();
      const body = { message: { content: "hello" } };
      const first = await expectError(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k)),
        502,
        "upstream_error",
      );
      const again = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await expectError(again, 502, "upstream_error")).toEqual(first);
      expect(await conversationsOf(owner)).toBe(1);
      expect(await upstreamRequestCount(name)).toBe(1);
    },
  );

  it("a request refused before it reached the conversation frees its key: 400, 401, 403, 404 keep none", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const other = await seedOwner("other");
    const k = key();
    await expectError(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: {} }, withKey(k)),
      400,
      "invalid",
    );
    await expectError(
      await owner.fetch(
        "POST",
        `/chatbots/${bot.id}/completions/`,
        { conversation: NO_SUCH_ID, message: { content: "x" } },
        withKey(k),
      ),
      404,
    );
    await expectError(
      await other.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "x" } }, withKey(k)),
      404,
    );
    const member = await seedMember(owner, ["conversation.view"]);
    await expectDenied(
      await member.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "x" } }, withKey(k)),
    );
    await expectError(
      await call(
        "POST",
        `/api/v1/chatbots/${bot.id}/completions/`,
        { message: { content: "x" } },
        { "Idempotency-Key": k },
      ),
      401,
    );
    expect(await keyRows(k)).toBe(0);
    // The key is free: it now carries a request that works.
    expect(
      (await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "x" } }, withKey(k))).status,
    ).toBe(200);
    expect(await keyRows(k)).toBe(1);
  });

  it("keys are each client's own: another member sending the same key is a request of its own", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const member = await seedMember(owner, ["conversation.manage", "chatbot.view"]);
    await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: member.groupId }] });
    const k = key();
    const body = { message: { content: "same words" } };
    const mine = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k)),
    );
    const res = await member.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId).not.toBe(mine.conversationId);
  });
  it(
    "a key repeated in another organization of the same user is another request: refused, never answered with " +
      "the first organization's outcome",
    async () => {
      const { owner, member, own } = await memberOfTwoOrganizationsInOnePlane();
      // A personal assistant is its maker's in every organization: one path and one body in both.
      const bot = await createChatbot(member, { organization: null });
      const k = key();
      const body = { message: { content: "same words" } };
      const first = await member.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
      expect(first.status, await first.clone().text()).toBe(200);
      const answer = await first.json();

      const elsewhere = await member.fetch("POST", `/chatbots/${bot.id}/completions/`, body, {
        headers: { "Idempotency-Key": k, "X-Organization-Id": own },
      });
      expect(elsewhere.headers.get("Idempotent-Replayed")).toBeNull();
      const refused = await expectError(elsewhere, 422, "idempotency_key_reused");
      expect(refused.detail).toMatch(/another organization/);
      // The first organization's key is as it was: its repeat is still replayed.
      const again = await member.fetch("POST", `/chatbots/${bot.id}/completions/`, body, withKey(k));
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await again.json()).toEqual(answer);
      expect(await conversationsOf(owner)).toBe(1);
      expect(await keyRows(k)).toBe(1);
    },
  );
});

describe("Idempotency-Key on POST /messages/", () => {
  it("the receipt is replayed and the message stored once, with one reply", async () => {
    const owner = await seedOwner();
    const start = await startedConversation(owner);
    const k = key();
    const body = { conversation: start.conversationId, content: "Can I pay by card?" };
    const first = await owner.fetch("POST", "/messages/", body, withKey(k));
    expect(first.status).toBe(201);
    const receipt = await first.json();
    const again = await owner.fetch("POST", "/messages/", body, withKey(k));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(receipt);
    expect(
      await waitFor(
        () => messagesIn(start.conversationId),
        (n) => n >= 4,
        3_000,
        30,
      ),
    ).toBe(4);
    await new Promise((r) => setTimeout(r, 200));
    expect(await messagesIn(start.conversationId)).toBe(4);
  });
});

describe("Idempotency-Key on the widget's send", () => {
  it(
    "a visitor's message resent after a lost connection is replayed with its event ids; another visitor's same " +
      "key is its own",
    async () => {
      const owner = await seedOwner();
      const chat = await seedWebChat(owner);
      const c = client();
      const session = await startSession(chat.id, {}, c);
      const k = key();
      const body = { content: "Where is my parcel?" };
      const first = await c.post(pub(chat.id, "messages/"), body, session.token, { "Idempotency-Key": k });
      const raw = await first.text();
      const again = await waitFor(
        () => c.post(pub(chat.id, "messages/"), body, session.token, { "Idempotency-Key": k }),
        (r) => r.status !== 409,
        3_000,
        30,
      );
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      const replay = await again.text();
      const ids = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
      expect(ids(replay)).toEqual(ids(raw).slice(-2));
      const conversations = await count("conversations WHERE contact_id = ?", session.contact.id);
      expect(conversations).toBe(1);

      // The widget runs on the business's site: the header passes CORS, and the replay can be seen.
      const preflight = await call("OPTIONS", pub(chat.id, "messages/"), undefined, {
        Origin: "https://shop.example.com",
        "Access-Control-Request-Headers": "idempotency-key",
      });
      expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Idempotency-Key");
      expect(again.headers.get("Access-Control-Expose-Headers")).toContain("Idempotent-Replayed");

      const stranger = await startSession(chat.id, {}, client());
      const theirs = await client().post(pub(chat.id, "messages/"), body, stranger.token, { "Idempotency-Key": k });
      expect(theirs.status).toBe(200);
      expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
      await theirs.text();
    },
  );
});
