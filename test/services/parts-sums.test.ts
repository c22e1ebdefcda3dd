// The organization's counters read over its data parts (services/shards/parts-sum.ts; docs/scale.md §5, "One
// organization over several shards", step 3): its figures made through the API before a second part (in its own
// shard), more written in the second part's shard by the pipeline's own statements (the conversation writes are not
// routed to the parts yet), and every reader asked through the API. Each answers the sum of both parts (a contact
// talking in both counted once), the same as with the same rows in one shard, and another organization's rows in the
// same shards never count.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { client } from "../../src/db/prepared";
import { organizationParts } from "../../src/db/schema";
import type { Db } from "../../src/env";
import { uuidv7 } from "../../src/lib/ids";
import { conversationInserts, messageRow, messageWrites, newConversation } from "../../src/services/conversations";
import type { ConversationRow } from "../../src/services/conversations";
import { dataParts } from "../../src/services/shards/parts";
import { rollBackTo, rollUpDays, settledThrough } from "../../src/services/statistics/rollup";
import { usageRange } from "../../src/services/statistics/usage";
import { createChatbot, LOCAL_LLM } from "../fixtures/chatbots";
import { type Actor, db, seedOwner } from "../harness";
import { bodyOf } from "../support/api";
import { secondPart } from "../support/parts";
import { figuredAssistant } from "../routes/statistics/helpers";
import { eq } from "drizzle-orm";

const DAY = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Conversing {
  organizationId: string;
  chatbotId: string;
  inboxId: string;
  contactId?: string | null;
  createdById?: string | null;
  isTest?: boolean;
  at: number;
  turns: number;
}

/**
 * Statements storing a conversation with `turns` questions and replies in `part`, as the conversation's object writes
 * them (services/conversations.ts: the conversation with its month's usage, then each message's writes: figures,
 * unread count, words); the messages themselves live in the object. The same ids each time it is given the same `ids`.
 */
async function conversation(part: Db, c: Conversing, ids: string[]): Promise<D1PreparedStatement[]> {
  const assistant = await figuredAssistant(c.chatbotId);
  let row: ConversationRow = newConversation(
    {
      organizationId: c.organizationId,
      inboxId: c.inboxId,
      chatbotId: c.chatbotId,
      contactId: c.contactId ?? null,
      createdById: c.createdById ?? null,
      isTest: c.isTest ?? false,
    },
    ids[0],
    c.at,
  );
  const statements = conversationInserts(part, row);
  let question = null;
  for (let turn = 0; turn < c.turns; turn++) {
    const at = c.at + turn * 60_000;
    const base = { organizationId: c.organizationId, conversationId: row.id };
    const asked = messageRow({
      ...base,
      id: ids[1 + 2 * turn],
      sequence: 1 + 2 * turn,
      type: "incoming",
      senderType: c.contactId ? "contact" : "user",
      senderId: c.contactId ?? c.createdById ?? null,
      content: "Where is my parcel?",
      createdAt: at,
    });
    statements.push(...messageWrites(part, row, asked, question, assistant));
    row = { ...row, unreadCount: row.unreadCount + (c.contactId && !row.isTest ? 1 : 0) };
    question = asked;
    const answered = messageRow({
      ...base,
      id: ids[2 + 2 * turn],
      sequence: 2 + 2 * turn,
      type: "outgoing",
      senderType: "chatbot",
      senderId: c.chatbotId,
      content: "It left the warehouse this morning.",
      modelId: LOCAL_LLM,
      inputTokens: 30,
      outputTokens: 7,
      createdAt: at + 1_500,
    });
    statements.push(...messageWrites(part, row, answered, question, assistant));
  }
  return statements;
}

const idsFor = (turns: number) => Array.from({ length: 1 + 2 * turns }, () => uuidv7());

/** A contact row in a part, as the plan copies a contact into each part holding one of its conversations. */
const contactIn = (part: Db, organizationId: string, id: string) =>
  client(part)
    .prepare(
      "INSERT OR IGNORE INTO contacts (id, organization_id, name, created_at, updated_at) VALUES (?, ?, 'Ada', ?, ?)",
    )
    .bind(id, organizationId, Date.now(), Date.now());

/** An upload row of `size` bytes (what the organization's uploads store is summed from them, over its parts). */
const uploadIn = (part: Db, organizationId: string, key: string, size: number) =>
  client(part)
    .prepare(
      "INSERT OR IGNORE INTO uploads (key, organization_id, model_name, field_name, filename, max_size, size, " +
        "created_at) VALUES (?1, ?2, 'attachment', 'file', 'a.bin', ?3, ?3, ?4)",
    )
    .bind(key, organizationId, size, Date.now());

async function json(actor: Actor, path: string) {
  const res = await actor.fetch("GET", path);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
}

/** Everything the readers of the organization's counters answer, through the API. */
async function answers(owner: Actor, botId: string, inboxId: string) {
  const org = owner.organizationId;
  const range = `startDate=${date(Date.now() - 5 * DAY)}&endDate=${date(Date.now())}`;
  const usage = `/organizations/${org}/usage-statistics`;
  const [inboxes, organization, bot, bots] = await Promise.all([
    json(owner, "/inboxes/"),
    json(owner, `/organizations/${org}/`),
    json(owner, `/chatbots/${botId}/`),
    json(owner, "/chatbots/"),
  ]);
  const inboxOf = (list: { id: string; unreadConversationsCount: number }[]) =>
    list.find((i) => i.id === inboxId)?.unreadConversationsCount;
  return {
    statistics: await json(owner, `/chatbots/${botId}/statistics/`),
    withTests: await json(owner, `/chatbots/${botId}/statistics/?includeTests=true&timeGranularity=month`),
    llm: await json(owner, `/chatbots/${botId}/llm-usage-statistics/?${range}&timeGranularity=day`),
    llmWithTests: await json(
      owner,
      `/chatbots/${botId}/llm-usage-statistics/?${range}&timeGranularity=month&includeTests=true`,
    ),
    members: await json(owner, `${usage}/members/?${range}`),
    membersByTime: await json(owner, `${usage}/members/?${range}&includeTime=true`),
    chatbots: await json(owner, `${usage}/chatbots/?${range}&sortBy=wordsCount`),
    chatbotsOfOne: await json(owner, `${usage}/chatbots/?${range}&chatbot=${botId}`),
    memberSummary: await json(owner, `${usage}/members/summary/?${range}`),
    chatbotSummary: await json(owner, `${usage}/chatbots/summary/?${range}&timeGranularity=month`),
    usageStatistics: organization.usageStatistics,
    words: bot.totalWordsCount,
    listedWords: (bots.results as { id: string; totalWordsCount: number }[]).find((b) => b.id === botId)
      ?.totalWordsCount,
    unread: inboxOf(inboxes.results as { id: string; unreadConversationsCount: number }[]),
    inboxUnread: (await json(owner, `/inboxes/${inboxId}/`)).unreadConversationsCount,
  };
}

type Answers = Awaited<ReturnType<typeof answers>>;
const total = (a: Answers, key: "statistics" | "withTests") => a[key].total as Record<string, number>;

describe("the organization's counters over its data parts", () => {
  it("adds every part's figures and counts a contact of two parts once, as one shard would", async () => {
    const owner = await seedOwner();
    const org = owner.organizationId;
    const bot = await createChatbot(owner);
    const inboxId = bot.defaultInbox!.id;
    const talk = async (body: Record<string, unknown>) => {
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
    };
    const contact = await bodyOf<"POST /contacts/">(await owner.fetch("POST", "/contacts/", { name: "Ada" }));
    // Before the second part, through the API: a contact's conversation, a member's, a test one.
    await talk({ message: { content: "Where is my parcel?", sender: contact.id } });
    await talk({ message: { content: "And the invoice?" } });
    await talk({ message: { content: "Trying it out" }, test: true });

    // Another organization with figures in the same shards, never counted.
    const stranger = await seedOwner("stranger");
    const strangerBot = await createChatbot(stranger);
    const { homeDb, otherDb } = await secondPart(org, 0);
    const before = await answers(owner, bot.id, inboxId);

    // A few minutes back, so that a turn a minute later is still in today's ranges.
    const now = Date.now() - 5 * 60_000;
    const later = uuidv7(); // the second part's contact, only there
    const uploaded = uuidv7();
    const ours = (c: Omit<Conversing, "organizationId" | "chatbotId" | "inboxId">) => ({
      organizationId: org,
      chatbotId: bot.id,
      inboxId,
      ...c,
    });
    const written = [
      // Ada again: one contact in both parts.
      { c: ours({ contactId: contact.id, at: now, turns: 2 }), ids: idsFor(2) },
      { c: ours({ contactId: later, at: now, turns: 1 }), ids: idsFor(1) },
      { c: ours({ createdById: owner.userId, at: now, turns: 1 }), ids: idsFor(1) },
      { c: ours({ createdById: owner.userId, isTest: true, at: now, turns: 1 }), ids: idsFor(1) },
      // Three days ago, rolled up into the daily tables of the part.
      { c: ours({ createdById: owner.userId, at: now - 3 * DAY, turns: 2 }), ids: idsFor(2) },
    ];
    const write = async (part: Db) => {
      const statements = [contactIn(part, org, contact.id), contactIn(part, org, later)];
      for (const { c, ids } of written) statements.push(...(await conversation(part, c, ids)));
      statements.push(uploadIn(part, org, `uploads/${org}/attachment/${uploaded}/a.bin`, 1_000));
      await client(part).batch(statements);
      await rollBackTo(client(part), now - 3 * DAY);
      await rollUpDays(client(part), now);
    };
    await write(otherDb);
    // The stranger's figures beside them, in both shards.
    const strangerInbox = strangerBot.defaultInbox!.id;
    for (const part of [homeDb, otherDb]) {
      const theirs = { organizationId: stranger.organizationId, chatbotId: strangerBot.id, inboxId: strangerInbox };
      const someone = uuidv7();
      await client(part).batch([
        contactIn(part, stranger.organizationId, someone),
        ...(await conversation(part, { ...theirs, contactId: someone, at: now, turns: 3 }, idsFor(3))),
        ...(await conversation(part, { ...theirs, createdById: stranger.userId, at: now, turns: 1 }, idsFor(1))),
        uploadIn(
          part,
          stranger.organizationId,
          `uploads/${stranger.organizationId}/attachment/${uuidv7()}/a.bin`,
          5_000,
        ),
      ]);
    }
    const both = await answers(owner, bot.id, inboxId);

    // The second part's figures are added to the first's.
    const [was, is] = [total(before, "statistics"), total(both, "statistics")];
    expect(is.conversationsCount).toBe(was.conversationsCount + 4);
    expect(is.incomingMessagesCount).toBe(was.incomingMessagesCount + 6);
    expect(is.contactsCount).toBe(2); // Ada (both parts) and the later contact
    expect(total(both, "withTests").conversationsCount).toBe(total(before, "withTests").conversationsCount + 5);
    // Seven replies of six words, two of them three days ago (the month's usage counts them if in this month).
    const earlier = new Date(now - 3 * DAY).toISOString().slice(0, 7) === new Date(now).toISOString().slice(0, 7);
    const monthsWords = (earlier ? 7 : 5) * 6;
    expect(both.words).toBe((before.words as number) + 7 * 6);
    expect(both.listedWords).toBe(both.words);
    expect(both.unread).toBe((before.unread ?? 0) + 2);
    expect(both.inboxUnread).toBe(both.unread);
    const usageOf = (a: Answers) => a.usageStatistics as Record<string, number>;
    expect(usageOf(both).currentMonthUsedWordsCountTotal).toBe(
      usageOf(before).currentMonthUsedWordsCountTotal + monthsWords,
    );
    expect(usageOf(both).currentMonthUsedConversationsCountTotal).toBe(
      usageOf(before).currentMonthUsedConversationsCountTotal + (earlier ? 5 : 4),
    );
    expect(usageOf(both).usedUploadFileSizeTotal).toBe(usageOf(before).usedUploadFileSizeTotal + 1_000);
    // The owner and the assistant are active in both parts: each counted once.
    expect(both.memberSummary.activeMembersCount).toBe(1);
    expect(both.chatbotSummary.activeChatbotsCount).toBe(1);
    for (const key of ["llm", "members", "chatbots", "chatbotsOfOne", "membersByTime"] as const)
      expect(both[key], key).not.toEqual(before[key]);

    // The same rows in one shard: the second part's rows written in the first, the part removed from the directory.
    await write(homeDb);
    await db().delete(organizationParts).where(eq(organizationParts.organizationId, org));
    const one = await answers(owner, bot.id, inboxId);
    expect(both).toEqual(one);
  });

  it("rolls up the days of every part behind a usage request", async () => {
    const owner = await seedOwner();
    const { homeDb, otherDb } = await secondPart(owner.organizationId, 0);
    const now = Date.now();
    for (const part of [homeDb, otherDb]) await rollBackTo(client(part), now - 3 * DAY);
    const background: Promise<unknown>[] = [];
    await usageRange(
      db(),
      await dataParts(env, owner.organizationId),
      owner.organizationId,
      { timeGranularity: "day" },
      { waitUntil: (p) => background.push(p) },
    );
    await Promise.all(background);
    for (const part of [homeDb, otherDb]) {
      const row = await client(part).prepare("SELECT through FROM usage_rollup WHERE id = 'daily'").first();
      expect(row?.through).toBeGreaterThanOrEqual(settledThrough(now));
    }
  });
});
