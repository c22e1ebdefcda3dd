// The conversation object's own message store (durable-objects/conversation-store.ts): its schema migrations, the
// messages D1 holds on their way to it (a first turn the worker stored, messages of before) taken and deleted from D1,
// its own writes (never in D1), and the readers of one conversation's messages read through it (`GET /messages/`, a
// message by id, the widget's history and catch-up), answering exactly as the D1 reads they replaced answered. D1's
// rows of a conversation are read in its part; an organization from before the shards has its own file
// (conversation-store-before-shards.test.ts).
import { env, runInDurableObject } from "cloudflare:test";
import { eq, getTableColumns } from "drizzle-orm";
import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { COPY_PAGE, MIGRATIONS, migrate } from "../../durable-objects/conversation-store";
import type { Conversation } from "../../durable-objects/conversation-entry";
import { client, rowMapper } from "../../src/db/prepared";
import { channelDeliveries, messages } from "../../src/db/schema";
import { cursorResponse, decodeCursor, encodeCursor, type Cursor } from "../../src/lib/pagination";
import { conversationObject } from "../../src/services/conversations";
import { storedMessages } from "../../src/services/messages";
import { messageRecord } from "../../src/services/records/messages";
import { runHousekeeping } from "../../src/services/housekeeping";
import { createChatbot } from "../fixtures/chatbots";
import {
  conversationData,
  conversationRow,
  expectError,
  messagesInD1,
  seedOwner,
  unique,
  waitFor,
  type Actor,
} from "../harness";
import { bodyOf, type Body } from "../support/api";
import { pub, visitorConversation } from "../routes/widget/fixtures";

const toRow = rowMapper(messages);

/** The conversation's rows as the object's SQLite holds them, oldest first (read without the object's code). */
const storedRows = (conversationId: string) =>
  runInDurableObject(conversationObject(env, conversationId), (_instance, state) =>
    state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'messages'").toArray().length === 0
      ? []
      : state.storage.sql
          .exec("SELECT * FROM messages WHERE conversation_id = ? ORDER BY sequence", conversationId)
          .toArray()
          .map((raw) => toRow(raw as Record<string, unknown>)),
  );

/**
 * The message list as the D1 read answered it (its window over `sequence`: newest first, past the cursor, read
 * backwards for a "p" cursor), applied to the stored rows: the reference every read through the object equals.
 */
async function referenceList(conversationId: string, cursor: Cursor | null, pageSize: number) {
  const rows = await storedRows(conversationId);
  const k = Number(cursor?.k);
  const ascending = cursor?.d === "p";
  const taken = cursor ? rows.filter((m) => (ascending ? m.sequence > k : m.sequence < k)) : rows;
  const ordered = ascending ? taken : [...taken].reverse();
  return ordered.slice(0, pageSize + 1).map(messageRecord);
}

/** `GET /messages/` at `url` as the D1 read answered it (the same paging of the same rows). */
async function referenceAnswer(url: string) {
  const q = new URL(url).searchParams;
  const cursor = decodeCursor(q.get("cursor") ?? undefined);
  const pageSize = Number(q.get("pageSize"));
  const rows = await referenceList(q.get("conversation")!, cursor, pageSize);
  const c = { req: { url } } as Context;
  return JSON.parse(JSON.stringify(cursorResponse(c, cursor, pageSize, rows, (m) => m.sequence)));
}

/** Every page of the conversation's list through the API, forwards then back, each equal to the reference; the
 * sequences seen. */
async function walkAgainstReference(owner: Actor, conversationId: string, pageSize: number) {
  const get = async (url: string) => {
    const res = await owner.fetch("GET", url.replace("http://localhost/api/v1", ""));
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await bodyOf<"GET /messages/">(res);
    expect(body).toEqual(await referenceAnswer(url));
    return body;
  };
  const seen: number[] = [];
  let url: string | null = `http://localhost/api/v1/messages/?conversation=${conversationId}&pageSize=${pageSize}`;
  let page: Body<"GET /messages/"> | null = null;
  while (url) {
    page = await get(url);
    seen.push(...page.results.map((m) => m.sequence));
    url = page.next;
  }
  for (url = page!.previous; url; url = page!.previous) page = await get(url);
  return seen;
}

const storeOf = (conversationId: string) => {
  // A stub of its own for each call: one used when the object was reset stays broken.
  const stub = () => conversationObject(env, conversationId);
  return {
    stub,
    /** The sequences stored in the object's SQLite, and how far its copy of D1 is known complete (none before the
     * store's first use, which makes its tables). */
    state: () =>
      runInDurableObject(stub(), (_instance, state) =>
        state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'messages'").toArray().length === 0
          ? { sequences: [], through: 0 }
          : {
              sequences: state.storage.sql
                .exec<{ sequence: number }>("SELECT sequence FROM messages ORDER BY sequence")
                .toArray()
                .map((r) => r.sequence),
              through:
                state.storage.sql
                  .exec<{ through: number }>("SELECT through FROM copies WHERE conversation_id = ?", conversationId)
                  .toArray()[0]?.through ?? 0,
            },
      ),
  };
};

/** A conversation whose first turn the worker stored (a direct completion), and its assistant. */
async function workerConversation(owner: Actor) {
  const bot = await createChatbot(owner);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } });
  expect(res.status, await res.clone().text()).toBe(200);
  return { bot, id: (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId };
}

const listed = async (owner: Actor, conversationId: string) =>
  (await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`)))
    .results;

/** The object's first read of its store (a conversation no one has): its schema is made then. */
const firstUse = (stub: DurableObjectStub<Conversation>) =>
  stub.listMessages(crypto.randomUUID(), crypto.randomUUID(), null, 1);

describe("the conversation object's schema", () => {
  it(
    "is migrated once, on the object's first use, and upgraded by later migrations, each in one " + "transaction",
    async () => {
      const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(unique("store")));
      // Started ahead of use (the spare of every new conversation): no tables yet.
      await stub.warm();
      const tablesOf = (sql: SqlStorage) =>
        sql
          .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
          .toArray()
          .map((t) => t.name);
      await runInDurableObject(stub, (_instance, state) => {
        expect(tablesOf(state.storage.sql)).not.toContain("schema_version");
      });
      await firstUse(stub);
      await runInDurableObject(stub, (_instance, state) => {
        const storage = state.storage;
        const version = () => storage.sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version;
        expect(version()).toBe(MIGRATIONS.length);
        expect(tablesOf(storage.sql)).toEqual(expect.arrayContaining(["copies", "messages", "schema_version"]));
        // Applied already: a second run (another instance's first use) changes nothing; its CREATE TABLE would fail.
        expect(migrate(storage)).toBe(MIGRATIONS.length);

        // An older object: the version it stored, a row it holds, a later migration applied once, the row kept.
        storage.sql.exec("INSERT INTO copies (conversation_id, through) VALUES ('c', 7)");
        const later = [...MIGRATIONS, ["CREATE TABLE later (x integer)", "INSERT INTO later (x) VALUES (1)"]];
        expect(migrate(storage, later)).toBe(MIGRATIONS.length + 1);
        expect(migrate(storage, later)).toBe(MIGRATIONS.length + 1);
        expect(storage.sql.exec("SELECT count(*) AS n FROM later").one().n).toBe(1);
        expect(storage.sql.exec("SELECT through FROM copies").one().through).toBe(7);

        // A migration that fails leaves the version and the schema as they were.
        const failing = [...later, ["CREATE TABLE half (x integer)", "NOT SQL"]];
        expect(() => migrate(storage, failing)).toThrow();
        expect(version()).toBe(MIGRATIONS.length + 1);
        expect(storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").one().n).toBe(0);
        // Code older than its storage (a deploy rolled back) leaves it as it is.
        expect(migrate(storage)).toBe(MIGRATIONS.length + 1);
        expect(version()).toBe(MIGRATIONS.length + 1);
      });
    },
  );

  it("upgrades an object stored before it had a schema, keeping what it stored", async () => {
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(unique("store")));
    await firstUse(stub);
    await runInDurableObject(stub, (_instance, state) => {
      const storage = state.storage;
      for (const table of ["messages", "copies", "unsettled", "schema_version"])
        storage.sql.exec(`DROP TABLE ${table}`);
      storage.kv.put("pendingReply", { incomingId: "m", attempts: 1 });
      expect(migrate(storage)).toBe(MIGRATIONS.length);
      expect(storage.sql.exec("SELECT version FROM schema_version").one().version).toBe(MIGRATIONS.length);
      expect(storage.kv.get("pendingReply")).toEqual({ incomingId: "m", attempts: 1 });
    });
  });

  it("has D1's message columns, with their types, defaults and keys", async () => {
    const columns = `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('messages') ORDER BY name`;
    const d1 = (await env.DB.prepare(columns).all()).results;
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(unique("store")));
    await firstUse(stub);
    const local = await runInDurableObject(stub, (_instance, state) => state.storage.sql.exec(columns).toArray());
    expect(local).toEqual(d1);
    // And the schema's (src/db/schema), whose columns a copy reads and an own write fills.
    expect(local.map((c) => c.name).sort()).toEqual(
      Object.values(getTableColumns(messages))
        .map((c) => c.name)
        .sort(),
    );
  });
});

describe("GET /messages/ through the conversation object", () => {
  it(
    "copies a conversation whose first turn the worker stored on its first read, then keeps its own " + "writes",
    async () => {
      const owner = await seedOwner();
      const { bot, id } = await workerConversation(owner);
      const store = storeOf(id);
      expect(await store.state()).toEqual({ sequences: [], through: 0 });
      expect(await messagesInD1(id)).toBe(2);
      expect(await walkAgainstReference(owner, id, 20)).toEqual([2, 1]);
      expect(await store.state()).toEqual({ sequences: [1, 2], through: 2 });
      // Taken: D1 holds them no more.
      expect(await messagesInD1(id)).toBe(0);

      // The object's own writes are in its store once their D1 batch is stored, before any read, and never in D1.
      const turn = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: id,
        message: { content: "again" },
      });
      expect(turn.status).toBe(200);
      const reply = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "A person here." });
      expect(reply.status, await reply.clone().text()).toBe(201);
      expect(await store.state()).toEqual({ sequences: [1, 2, 3, 4, 5], through: 5 });
      expect(await messagesInD1(id)).toBe(0);
      expect(await walkAgainstReference(owner, id, 2)).toEqual([5, 4, 3, 2, 1]);
    },
  );

  it("stores a conversation the object creates from its first message on", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // An attachment sends the first turn through the object (first-turn.ts, answersWithoutObject).
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: {
        content: "see this",
        attachments: [{ type: "image", filename: "a.png", file: "https://cdn.example.com/a.png" }],
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const id = (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
    expect(await storeOf(id).state()).toEqual({ sequences: [1, 2], through: 2 });
    expect(await messagesInD1(id)).toBe(0);
    expect(await walkAgainstReference(owner, id, 1)).toEqual([2, 1]);
  });

  it(
    "answers as D1 does for replies, private notes, attachments, feedback and delivery metadata, in every page " +
      "size, both ways",
    async () => {
      const owner = await seedOwner();
      const { bot, id } = await workerConversation(owner);
      const post = async (path: string, body: Record<string, unknown>) => {
        const res = await owner.fetch("POST", path, { conversation: id, ...body });
        expect(res.status, await res.clone().text()).toBe(201);
      };
      await post("/messages/", {
        content: "Can I pay by card?",
        content_payload: { content: "Can I pay by card?" },
        attachments: [{ type: "image", filename: "card.png", file: "https://cdn.example.com/card.png" }],
        canvas: { name: "c", title: "T", content: "x", canvasType: { type: "markdown" } },
        metadata: { time_zone: "Europe/Paris" },
        skill_ids: [],
        tool_ids: [],
      });
      expect(
        await waitFor(
          () => listed(owner, id),
          (m) => m.length === 4,
        ),
      ).toHaveLength(4);
      await post("/messages/outgoing/", { content: "Checking with billing.", private: true });
      await post("/messages/outgoing/", { content: "Yes, you can." });
      const turn = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: id,
        message: { content: "thanks" },
      });
      expect(turn.status).toBe(200);
      // What is written after a message is stored, by the object (widget/feedback.ts rates through it; a channel
      // delivery's sender tells it each state it writes, channels/outbound.ts): in its store alone.
      const object = conversationObject(env, id);
      const conversation = await conversationRow(owner.organizationId, id);
      const { organizationId, inboxId } = conversation;
      const at = async (sequence: number) => (await storedRows(id)).find((m) => m.sequence === sequence)!.id;
      const rate = async (sequence: number, feedback: "like" | "dislike" | null) =>
        expect(await object.rate(conversation, await at(sequence), feedback)).not.toBeNull();
      const delivered = async (sequence: number, status: "sent" | "failed") => {
        const messageId = await at(sequence);
        const row = { status, attempts: 1, platformMessageIds: ["p1"], shown: false };
        await (await conversationData(owner.organizationId, id))
          .insert(channelDeliveries)
          .values({
            id: `d-${messageId}`,
            organizationId,
            inboxId,
            conversationId: id,
            messageId,
            nextAttemptAt: 0,
            ...row,
          })
          .onConflictDoUpdate({ target: channelDeliveries.id, set: row });
        await object.deliveryState(organizationId, id, messageId);
      };
      await rate(2, "like");
      await delivered(6, "sent");
      for (const size of [1, 2, 3, 100])
        expect(await walkAgainstReference(owner, id, size)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
      const records = await listed(owner, id);
      expect(records.find((m) => m.sequence === 5)).toMatchObject({ private: true });
      expect(records.find((m) => m.sequence === 3)?.attachments).toHaveLength(1);

      // Changed after the copy: the next read shows it.
      await rate(2, "dislike");
      await rate(8, "like");
      await delivered(6, "failed");
      await delivered(3, "sent");
      expect(await walkAgainstReference(owner, id, 3)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
      await rate(2, null);
      expect(await walkAgainstReference(owner, id, 100)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
      expect((await listed(owner, id)).find((m) => m.sequence === 6)?.metadata).toMatchObject({
        channelDelivery: { status: "failed" },
      });

      // A cursor that names no sequence reads as D1 reads it.
      const odd = encodeCursor({ k: "not-a-number", d: "n" });
      const url = `http://localhost/api/v1/messages/?conversation=${id}&pageSize=5&cursor=${odd}`;
      const res = await owner.fetch("GET", url.replace("http://localhost/api/v1", ""));
      expect(await res.json()).toEqual(await referenceAnswer(url));
    },
  );

  it("copies a long conversation in pages, once", async () => {
    const owner = await seedOwner();
    const { id } = await workerConversation(owner);
    const [first] = await (await conversationData(owner.organizationId, id))
      .select()
      .from(messages)
      .where(eq(messages.conversationId, id))
      .limit(1);
    const total = COPY_PAGE * 2 + 30;
    const rows = Array.from({ length: total - 2 }, (_, i) => ({
      ...first,
      id: crypto.randomUUID(),
      sequence: i + 3,
      content: `message ${i + 3}`,
      createdAt: first.createdAt + i + 10,
    }));
    const part = await conversationData(owner.organizationId, id);
    await part.batch(rows.map((row) => part.insert(messages).values(row)) as never);
    const page = await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${id}&pageSize=5`));
    expect(page.results.map((m) => m.sequence)).toEqual([total, total - 1, total - 2, total - 3, total - 4]);
    const state = await storeOf(id).state();
    expect(state.through).toBe(total);
    expect(state.sequences).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(await messagesInD1(id)).toBe(0);
    expect((await walkAgainstReference(owner, id, 100)).length).toBe(total);
  });

  it(
    "once the object has stored a message of its own, a read asks D1 nothing; the housekeeping cron takes what D1 " +
      "still holds, but a sequence the conversation has",
    async () => {
      const owner = await seedOwner();
      const { bot, id } = await workerConversation(owner);
      const [first] = await (await conversationData(owner.organizationId, id))
        .select()
        .from(messages)
        .where(eq(messages.conversationId, id))
        .limit(1);
      const turn = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: id,
        message: { content: "more" },
      });
      expect(turn.status).toBe(200);
      const store = storeOf(id);
      expect(await store.state()).toEqual({ sequences: [1, 2, 3, 4], through: 4 });
      // Rows no writer of today puts there (a read would not look): one past the store, one of a sequence it has (a
      // first turn's worker taken for dead, whose reply the object answered in its place).
      const late = { ...first, id: crypto.randomUUID(), content: "late", createdAt: first.createdAt + 1 };
      await (await conversationData(owner.organizationId, id)).insert(messages).values([
        { ...late, sequence: 5 },
        { ...late, id: crypto.randomUUID(), sequence: 2 },
      ]);
      expect((await listed(owner, id)).map((m) => m.sequence)).toEqual([4, 3, 2, 1]);
      expect(await messagesInD1(id)).toBe(2);
      await runHousekeeping(env);
      expect(await messagesInD1(id)).toBe(0);
      const rows = await storedRows(id);
      expect(rows.map((m) => m.sequence)).toEqual([1, 2, 3, 4, 5]);
      expect(rows.find((m) => m.sequence === 2)!.content).not.toBe("late");
      expect((await listed(owner, id)).map((m) => m.sequence)).toEqual([5, 4, 3, 2, 1]);
    },
  );

  it("never reads another organization's conversation: the route's 404, and nothing from the object", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { id } = await workerConversation(owner);
    expect(await listed(owner, id)).toHaveLength(2);
    await expectError(await other.fetch("GET", `/messages/?conversation=${id}`), 404);
    const stub = conversationObject(env, id);
    expect(await stub.listMessages(other.organizationId, id, null, 20)).toEqual([]);
    expect(await stub.listMessages(owner.organizationId, id, null, 20)).toHaveLength(2);
  });
});

describe("the columns written after a message is stored, by the conversation object", () => {
  /** The message `sequence` of conversation `id` as the object stores it. */
  const storedMessage = async (id: string, sequence: number) =>
    (await storedRows(id)).find((m) => m.sequence === sequence)!;

  it("a rating is the store's: one at a time, each counted once, with the dislikes since a handoff", async () => {
    const owner = await seedOwner();
    const { id } = await workerConversation(owner);
    const conversation = await conversationRow(owner.organizationId, id);
    const [question, reply] = await (await conversationData(owner.organizationId, id))
      .select()
      .from(messages)
      .where(eq(messages.conversationId, id))
      .orderBy(messages.sequence);
    const object = storeOf(id).stub();
    // Only an answer of this conversation is rated: the visitor's own message, and another id, are not.
    expect(await object.rate(conversation, question.id, "like")).toBeNull();
    expect(await object.rate(conversation, crypto.randomUUID(), "like")).toBeNull();
    const rated = await Promise.all(
      (["dislike", "like", "dislike"] as const).map((f) => object.rate(conversation, reply.id, f)),
    );
    // RPC's types cannot name a stored row (its JSON columns are `unknown`): the answers are matched, not read.
    expect(rated).toMatchObject([
      { message: { feedback: "dislike" }, dislikes: 1 },
      { message: { feedback: "like" }, dislikes: 0 },
      { message: { feedback: "dislike" }, dislikes: 1 },
    ]);
    expect((await storedMessage(id, 2)).feedback).toBe("dislike");
    expect((await listed(owner, id)).find((m) => m.sequence === 2)?.feedback).toBe("dislike");
    const likes = await client(await conversationData(owner.organizationId, id))
      .prepare("SELECT sum(likes) AS likes, sum(dislikes) AS dislikes FROM usage_hourly WHERE chatbot_id = ?")
      .bind(conversation.chatbotId)
      .first();
    expect(likes).toEqual({ likes: 0, dislikes: 1 });
    expect(await messagesInD1(id)).toBe(0);
  });

  it("a delivery state its object was not told reaches the message through the housekeeping cron", async () => {
    const owner = await seedOwner();
    const { id } = await workerConversation(owner);
    const { inboxId } = await conversationRow(owner.organizationId, id);
    const shownBefore = (await listed(owner, id)).find((m) => m.sequence === 2)?.metadata;
    const reply = await storedMessage(id, 2);
    // The sender's write of the state, then a call to the object that failed: no trigger writes the message.
    await (await conversationData(owner.organizationId, id)).insert(channelDeliveries).values({
      id: crypto.randomUUID(),
      organizationId: owner.organizationId,
      inboxId,
      conversationId: id,
      messageId: reply.id,
      status: "sent",
      attempts: 2,
      nextAttemptAt: 0,
      platformMessageIds: ["p9"],
      shown: false,
    });
    expect((await storedMessage(id, 2)).metadata).toEqual(reply.metadata);
    expect((await listed(owner, id)).find((m) => m.sequence === 2)?.metadata).toEqual(shownBefore);

    await runHousekeeping(env);
    const channelDelivery = {
      status: "sent",
      attempts: 2,
      error: null,
      platformMessageId: "p9",
      platformMessageIds: ["p9"],
    };
    expect((await storedMessage(id, 2)).metadata).toEqual({ ...reply.metadata, channelDelivery });
    expect((await listed(owner, id)).find((m) => m.sequence === 2)?.metadata).toEqual({
      ...reply.metadata,
      channelDelivery,
    });
    const [delivery] = await (await conversationData(owner.organizationId, id))
      .select()
      .from(channelDeliveries)
      .where(eq(channelDeliveries.messageId, reply.id));
    expect(delivery.shown).toBe(true);
    const triggers = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'channel_deliveries_shown_%'",
    ).all();
    expect(triggers.results).toEqual([]);
  });
});

describe("the other readers of one conversation, through the conversation object", () => {
  /** The conversation's messages as D1 holds them (before a read takes them), oldest first. */
  const d1Messages = async (organizationId: string, conversationId: string) =>
    (await conversationData(organizationId, conversationId))
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(messages.sequence);

  it("GET /messages/{id}/ answers each message as D1 holds it, the conversation copied on the first read", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { id } = await workerConversation(owner);
    const store = storeOf(id);
    expect(await store.state()).toEqual({ sequences: [], through: 0 });
    const rows = await d1Messages(owner.organizationId, id);
    for (const row of rows) {
      const res = await owner.fetch("GET", `/messages/${row.id}/?conversation=${id}`);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toEqual(JSON.parse(JSON.stringify(messageRecord(row))));
    }
    expect(await store.state()).toEqual({ sequences: [1, 2], through: 2 });

    // Another organization's conversation: 404, and the object answers nothing for that organization.
    await expectError(await other.fetch("GET", `/messages/${rows[0].id}/?conversation=${id}`), 404);
    expect(await store.stub().lookupMessages(other.organizationId, id, [{ id: rows[0].id }, { latest: {} }])).toEqual([
      null,
      null,
    ]);
    // A message of another conversation, named with this one: 404.
    const elsewhere = await workerConversation(owner);
    const [foreign] = await d1Messages(owner.organizationId, elsewhere.id);
    await expectError(await owner.fetch("GET", `/messages/${foreign.id}/?conversation=${id}`), 404);
  });

  it("looks up the latest message a filter takes, as D1 holds it; none for another organization", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { bot, id } = await workerConversation(owner);
    const turn = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: id,
      message: { content: "again" },
    });
    expect(turn.status).toBe(200);
    const note = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "n", private: true });
    expect(note.status).toBe(201);
    const rows = await storedRows(id);
    const lookups = [
      { latest: {} },
      { latest: { senderType: "contact" as const } },
      { latest: { type: "incoming" as const, threadKey: true } },
      { id: rows[1].id },
    ];
    const [newest, visitor, fromPlatform, second] = await storedMessages(env, owner.organizationId, id).lookup(lookups);
    expect(newest).toEqual(rows.at(-1));
    expect(visitor).toEqual(rows.filter((m) => m.senderType === "contact").at(-1));
    expect(fromPlatform).toBeNull();
    expect(second).toEqual(rows[1]);
    expect(await storeOf(id).stub().lookupMessages(other.organizationId, id, lookups)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it(
    "the widget's history pages, catch-up and first messages are D1's visible messages, and nothing for " +
      "another organization",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const { chat, visitor, session, id } = await visitorConversation(owner);
      await owner.fetch("POST", `/conversations/${id}/take-over/`);
      for (const [content, note] of [
        ["one", false],
        ["for the team", true],
        ["two", false],
        ["three", false],
      ] as const) {
        const res = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content, private: note });
        expect(res.status, await res.clone().text()).toBe(201);
      }
      const visible = (await storedRows(id)).filter((m) => !m.private);
      expect(visible.map((m) => m.content)).toEqual(["hello", expect.any(String), "one", "two", "three"]);

      // Read backwards two at a time, as the widget does.
      const seen: string[] = [];
      let before: number | undefined;
      for (;;) {
        const q = `pageSize=2${before ? `&before=${before}` : ""}`;
        const page = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
          await visitor.get(pub(chat.id, `conversations/${id}/messages/?${q}`), session.token),
        );
        seen.unshift(...page.results.map((m) => m.id));
        if (!page.hasMore) break;
        before = page.results[0].sequence;
      }
      expect(seen).toEqual(visible.map((m) => m.id));

      const stub = storeOf(id).stub();
      const windows = [{ limit: 100 }, { newest: true, limit: 100 }, { afterId: visible[0].id, limit: 100 }];
      for (const window of windows) {
        expect(await stub.visibleMessages(other.organizationId, id, window)).toEqual([]);
        const mine = await storedMessages(env, owner.organizationId, id).visible(window);
        expect(mine.length).toBeGreaterThan(0);
      }
      const after = await storedMessages(env, owner.organizationId, id).visible(windows[2]);
      expect(after.map((m) => m.id)).toEqual(visible.slice(1).map((m) => m.id));
      // A message id of another conversation names no place in this one.
      const elsewhere = await workerConversation(owner);
      const [foreign] = await d1Messages(owner.organizationId, elsewhere.id);
      expect(await stub.visibleMessages(owner.organizationId, id, { afterId: foreign.id, limit: 100 })).toEqual([]);
    },
  );
});
