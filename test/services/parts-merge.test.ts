// The organization's ordered lists over its data parts (services/shards/parts-merge.ts; docs/scale.md §5, "One
// organization over several shards", step 4). Conversations and their rows are made through the API and the services'
// writers in the organization's shard; those made after the second part's start are then moved to the part's shard
// by SQL, row for row (the writes are not routed to the parts yet). Every list must answer what it answered while the
// same rows were in one shard, with rows of both parts in it.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { client } from "../../src/db/prepared";
import { conversationHandoffs, members, toolExecutionRecords } from "../../src/db/schema";
import { uuidv7 } from "../../src/lib/ids";
import { assignWaiting, autoAssign } from "../../src/services/assignment/round-robin";
import { conversationDb, dataParts } from "../../src/services/shards/parts";
import { chatbotRecordPages } from "../../src/services/statistics/records";
import type { PublicWebChat } from "../../src/services/widget/web-chats";
import { visitorConversations } from "../../src/services/widget/visitors";
import { data, db, seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createTool, functionToolBody } from "../fixtures/tools";
import { assistantWithInbox, seedAgent } from "../routes/assignment/fixtures";
import { seedContact, seedConversation, utc } from "../routes/statistics/helpers";
import { createWebhook, insertDelivery } from "../routes/webhooks/fixtures";
import { client as widget, pub, seedWebChat, startSession } from "../routes/widget/fixtures";
import type { Schemas } from "../support/api";
import { readEvents, type StreamEvent, storedReply } from "../support/sse";
import { secondPart, type TwoParts } from "../support/parts";

const H = 3_600_000;
const DAY0 = utc("2026-05-01T08:00:00Z");
const RANGE = "startDate=2026-05-01&endDate=2026-05-02";

/** Tables whose rows belong to one conversation, moved with it (its contact is copied: kept in both parts). */
const OWNED = [
  "conversation_labels",
  "conversation_handoffs",
  "conversation_events",
  "chatbot_records",
  "tool_execution_records",
  "webhook_deliveries",
  "messages",
  "conversation_terms_pending",
];

async function copyRows(from: D1Database, to: D1Database, table: string, where: string, ids: string) {
  const { results } = await from
    .prepare(`SELECT * FROM ${table} WHERE ${where}`)
    .bind(ids)
    .all<Record<string, unknown>>();
  if (!results.length) return;
  // A pending search row's id is its database's own sequence.
  const columns = Object.keys(results[0]).filter((c) => !(table === "conversation_terms_pending" && c === "id"));
  const insert = to.prepare(
    `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  await to.batch(results.map((row) => insert.bind(...columns.map((c) => row[c]))));
}

/** Moves conversations with their rows from one shard to another, as they would be had they been written there. */
async function moveConversations(from: D1Database, to: D1Database, conversationIds: string[]) {
  const ids = JSON.stringify(conversationIds);
  const owned = "conversation_id IN (SELECT value FROM json_each(?1))";
  const contacts = "id IN (SELECT contact_id FROM conversations WHERE id IN (SELECT value FROM json_each(?1)))";
  await copyRows(from, to, "contacts", contacts, ids);
  await copyRows(from, to, "conversations", "id IN (SELECT value FROM json_each(?1))", ids);
  // The target's triggers open a stretch for a queued conversation inserted: the moved ones replace it.
  await to.prepare(`DELETE FROM conversation_handoffs WHERE ${owned}`).bind(ids).run();
  for (const table of OWNED) await copyRows(from, to, table, owned, ids);
  await from.batch([
    ...OWNED.map((table) => from.prepare(`DELETE FROM ${table} WHERE ${owned}`).bind(ids)),
    from.prepare("DELETE FROM conversations WHERE id IN (SELECT value FROM json_each(?1))").bind(ids),
  ]);
}

const d1 = (parts: TwoParts) => ({ home: client(parts.homeDb), other: client(parts.otherDb) });

/** The part's start: a moment between the conversations made before (`a`) and those made after (`b`). */
async function splitBetween(organizationId: string, make: (later: boolean) => Promise<string[]>) {
  const a = await make(false);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const split = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const b = await make(true);
  return { a, b, split, twoParts: () => secondPart(organizationId, Date.now() - split) };
}

/** A conversation of the inbox waiting for a person since `at`, written in the organization's shard. */
async function queued(organizationId: string, chatbotId: string, inboxId: string, at: number): Promise<string> {
  const id = await seedConversation(organizationId, chatbotId, inboxId, [{ at, question: "help" }]);
  await client(await data(organizationId))
    .prepare("UPDATE conversations SET status = 'queued', waiting_since = ? WHERE id = ?")
    .bind(at, id)
    .run();
  return id;
}

/**
 * A round-robin inbox (`capacity` places an agent) with one online agent, and one conversation waiting in each part:
 * `a` in the organization's own shard, `b` in the second part; `assign` is the service's autoAssign of one of them.
 */
async function waitingInBothParts(capacity: number) {
  const owner = await seedOwner();
  const org = owner.organizationId;
  const { bot, inboxId } = await assistantWithInbox(owner, { mode: "round_robin", teamId: null, capacity });
  const agent = await seedAgent(owner, "online");
  const { a, b, twoParts } = await splitBetween(org, async (later) => [
    await queued(org, bot.id, inboxId, DAY0 + (later ? H : 0)),
  ]);
  const parts = await twoParts();
  await moveConversations(d1(parts).home, d1(parts).other, b);
  const all = await dataParts(env, org);
  const assign = async (id: string) => autoAssign(db(), await conversationDb(env, org, id), id, DAY0 + 2 * H, [], all);
  return { org, agent, parts, a: a[0], b: b[0], assign };
}

async function get<T>(actor: Actor, path: string): Promise<T> {
  const res = await actor.fetch("GET", path.replace("http://localhost", ""), undefined, {
    prefix: path.startsWith("http") ? "" : undefined,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<T>();
}

type CursorPage = { next: string | null; previous: string | null; results: { id: string }[] };
type NumberedPage = { count: number; next: string | null; results: { id: string }[] };

/** A cursor list walked to its end by pages of 2, then back to its start: the ids, each page's in order. */
async function walkCursor(actor: Actor, query: string) {
  const pages: string[][] = [];
  let page = await get<CursorPage>(actor, `/conversations/?pageSize=2&${query}`);
  pages.push(page.results.map((r) => r.id));
  while (page.next) {
    page = await get<CursorPage>(actor, page.next);
    pages.push(page.results.map((r) => r.id));
  }
  const back: string[][] = [];
  while (page.previous) {
    page = await get<CursorPage>(actor, page.previous);
    back.unshift(page.results.map((r) => r.id));
  }
  expect(back).toEqual(pages.slice(0, -1));
  return pages.flat();
}

/** A page-number list walked to its end by pages of 2: the count of each page and the ids in order. */
async function walkPages(actor: Actor, path: string) {
  const counts = new Set<number>();
  const ids: string[] = [];
  for (let n = 1; ; n++) {
    const page = await get<NumberedPage>(actor, `${path}${path.includes("?") ? "&" : "?"}pageSize=2&page=${n}`);
    counts.add(page.count);
    ids.push(...page.results.map((r) => r.id));
    if (!page.next) break;
  }
  expect(counts.size).toBe(1);
  return { count: [...counts][0], ids };
}

/**
 * An organization with six conversations of one assistant and contact, three before the part's start and three
 * after, their times interleaved (i = 0, 2, 4 before and 1, 3, 5 after, at 08:00 + i hours), each with a record per
 * turn, a tool execution record (of one tool before, another after), a webhook delivery and a handoff stretch; the
 * filters of the tests each select rows of both.
 */
async function world() {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const inboxId = bot.defaultInbox!.id;
  const contact = await seedContact(owner.organizationId, "Grace");
  const tools = [
    await createTool(owner, functionToolBody(`before_${uuidv7().slice(-8)}`)),
    await createTool(owner, functionToolBody(`after_${uuidv7().slice(-8)}`)),
  ];
  const webhook = await createWebhook(owner, inboxId);
  const make = async (later: boolean) => {
    const ids: string[] = [];
    for (const i of later ? [1, 3, 5] : [0, 2, 4]) {
      const at = DAY0 + i * H;
      const asked = i % 3 === 0 ? "refund please" : "where is my parcel";
      const status = i % 3 === 1 ? "failure" : "success";
      const id = await seedConversation(
        owner.organizationId,
        bot.id,
        inboxId,
        [
          { at, question: `${asked} (${i})`, answer: "On its way." },
          { at: at + 600_000, question: `and again (${i})`, answer: "Yes." },
        ],
        { contactId: contact },
      );
      const d = await data(owner.organizationId);
      // Its messages' search terms, not folded yet (services/conversation/search-terms.ts).
      await client(d)
        .prepare(
          "INSERT INTO conversation_terms_pending (organization_id, conversation_id, at, terms) VALUES (?, ?, ?, ?)",
        )
        .bind(owner.organizationId, id, at, JSON.stringify(i % 3 === 0 ? ["courier", "late"] : ["parcel"]))
        .run();
      await client(d)
        .prepare("UPDATE conversations SET title = ?, status = ?, waiting_since = ? WHERE id = ?")
        .bind([1, 2, 5].includes(i) ? `lost parcel ${i}` : `invoice ${i}`, i % 3 === 0 ? "open" : "queued", at, id)
        .run();
      await d.insert(toolExecutionRecords).values({
        id: uuidv7(),
        organizationId: owner.organizationId,
        chatbotId: bot.id,
        chatbotName: bot.name,
        toolId: tools[Number(later)].id,
        toolName: tools[Number(later)].name!,
        toolDisplayName: tools[Number(later)].displayName,
        toolType: "function",
        conversationId: id,
        messageId: null,
        messageText: asked,
        status,
        input: { i },
        output: null,
        error: null,
        durationMs: 5,
        createdAt: at,
        updatedAt: at,
      });
      await insertDelivery(owner, {
        webhookId: webhook.id,
        inboxId,
        chatbotId: bot.id,
        messageId: uuidv7(),
        conversationId: id,
        status,
        createdAt: at,
      });
      await d.insert(conversationHandoffs).values({
        id: uuidv7(),
        organizationId: owner.organizationId,
        conversationId: id,
        inboxId,
        chatbotId: bot.id,
        reason: "visitor_request",
        queuedAt: at,
        assignedAt: at + (i + 1) * 1000,
        firstResponseAt: at + (i + 2) * 7000,
        endedAt: at + (i + 3) * 60_000,
        resolved: true,
      });
      ids.push(id);
    }
    return ids;
  };
  return { owner, bot, inboxId, contact, webhook, make };
}

type World = Awaited<ReturnType<typeof world>>;

/** A visitor's send streams back like a completion, with the public record of the reply. */
type Reply = StreamEvent<Schemas["WidgetMessage"]>;

/** Every list merged over the parts, as the owner reads it through the API (the export and a visitor's list through
 * their services, given the parts as their routes give them). */
async function answers(w: World) {
  const { owner, bot, inboxId, webhook } = w;
  const org = owner.organizationId;
  const parts = await dataParts(env, org);
  const chat = { inboxId, webChat: { organizationId: org } } as unknown as PublicWebChat;
  const deliveries = `/inboxes/${inboxId}/webhooks/${webhook.id}/records/`;
  // Pages of 3: each part's first 3 past the page before, merged.
  const exported = [];
  for await (const page of chatbotRecordPages(env, parts, { chatbotId: bot.id, start: DAY0, end: DAY0 + 24 * H }, 3))
    exported.push(...page);
  return {
    conversations: await walkCursor(owner, ""),
    queued: await walkCursor(owner, "status=queued"),
    waiting: await walkCursor(owner, "view=waiting"),
    keyword: await walkCursor(owner, "keyword=parcel"),
    terms: await walkCursor(owner, "keyword=courier"),
    contact: await walkCursor(owner, `contact=${w.contact}`),
    records: await walkPages(owner, `/chatbots/${bot.id}/records/?${RANGE}`),
    refunds: await walkPages(owner, `/chatbots/${bot.id}/records/?${RANGE}&userMessage=refund`),
    exported: exported.map((v) => v.record.id),
    toolRecords: await walkPages(owner, "/tool-execution-records/"),
    toolFailures: await walkPages(owner, "/tool-execution-records/?status=failure"),
    tools: await get<{ id: string }[]>(owner, "/tool-execution-records/tools/"),
    deliveries: await walkPages(owner, deliveries),
    failedDeliveries: await walkPages(owner, `${deliveries}?status=failure`),
    human: await get<{ total: { handoffsCount: number } }>(owner, `/organizations/${org}/human-statistics/?${RANGE}`),
    humanByDay: await get(owner, `/organizations/${org}/human-statistics/?${RANGE}&groupBy=day`),
    visitor: (await visitorConversations(parts, chat, w.contact)).map((c) => c.id),
  };
}

const count = async (d: D1Database, table: string, organizationId: string) =>
  (await d.prepare(`SELECT count(*) AS n FROM ${table} WHERE organization_id = ?`).bind(organizationId).first<{
    n: number;
  }>())!.n;

describe("the organization's lists over two data parts", () => {
  it("answer both parts' rows in one order, every row once, as the same rows in one shard", async () => {
    const w = await world();
    const org = w.owner.organizationId;
    const { a, b, twoParts } = await splitBetween(org, w.make);
    const inOneShard = await answers(w);

    // Another organization's conversations and rows, in both shards.
    const stranger = await world();
    const theirs = [...(await stranger.make(false)), ...(await stranger.make(true))];
    const parts = await twoParts();
    const { home, other } = d1(parts);
    const strangerHome = (await dataParts(env, stranger.owner.organizationId))[0];
    await moveConversations(client(strangerHome), client(strangerHome) === home ? other : home, theirs.slice(3));
    await moveConversations(home, other, b);
    expect([await count(home, "conversations", org), await count(other, "conversations", org)]).toEqual([3, 3]);
    expect(await count(other, "chatbot_records", org)).toBe(6);

    const merged = await answers(w);
    for (const [list, answer] of Object.entries(merged))
      expect.soft(answer, list).toEqual(inOneShard[list as keyof typeof merged]);
    // Rows of both parts, in each list's order.
    const [a0, a2, a4] = a;
    const [b1, b3, b5] = b;
    expect(merged.conversations).toEqual([b5, b3, b1, a4, a2, a0]);
    expect(merged.queued).toEqual([b5, b1, a4, a2]);
    expect(merged.waiting).toEqual([b1, a2, a4, b5]);
    expect(merged.keyword).toEqual([b5, b3, b1, a4, a2, a0].filter((id) => id !== b3 && id !== a0));
    expect(merged.terms).toEqual([b3, a0]);
    expect(merged.contact).toHaveLength(6);
    expect(merged.visitor).toEqual([b5, a4, b3, a2, b1, a0]);
    expect(merged.records.count).toBe(12);
    expect(new Set(merged.records.ids).size).toBe(12);
    expect(merged.exported).toEqual(merged.records.ids);
    expect(merged.refunds.count).toBe(2);
    expect(merged.toolRecords.count).toBe(6);
    expect(merged.toolFailures.count).toBe(2);
    expect(merged.tools).toHaveLength(2);
    expect(merged.deliveries.count).toBe(6);
    expect(merged.failedDeliveries.count).toBe(2);
    expect(merged.human.total.handoffsCount).toBeGreaterThanOrEqual(6);
    for (const id of theirs) expect(JSON.stringify(merged)).not.toContain(id);
  });

  it("assigns the waiting conversations of both parts to an agent coming online, longest waiting first", async () => {
    const owner = await seedOwner();
    const org = owner.organizationId;
    const { bot, inboxId } = await assistantWithInbox(owner, { mode: "round_robin", teamId: null, capacity: 10 });
    const agent = await seedAgent(owner, "online");
    const make = async (later: boolean) => {
      const ids: string[] = [];
      for (const i of later ? [1, 3] : [0, 2]) ids.push(await queued(org, bot.id, inboxId, DAY0 + i * H));
      return ids;
    };
    const { a, b, twoParts } = await splitBetween(org, make);
    const parts = await twoParts();
    await moveConversations(d1(parts).home, d1(parts).other, b);
    const [member] = await db()
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.userId, agent.userId), eq(members.organizationId, org)));
    const events = await assignWaiting(db(), await dataParts(env, org), org, member.id);
    const assigned = events.map((e) => (e.data as { conversation: { id: string } }).conversation.id);
    expect(assigned).toEqual([a[0], b[0], a[1], b[1]]);
    // Each on the part it is in.
    for (const [d, ids] of [
      [d1(parts).home, a],
      [d1(parts).other, b],
    ] as const) {
      const { results } = await d
        .prepare("SELECT assignee_id FROM conversations WHERE id IN (SELECT value FROM json_each(?))")
        .bind(JSON.stringify(ids))
        .all<{ assignee_id: string }>();
      expect(results.map((r) => r.assignee_id)).toEqual([agent.userId, agent.userId]);
    }
  });

  it("two assignments at once in two parts never give an agent more than their capacity", async () => {
    const { org, agent, parts, a, b, assign } = await waitingInBothParts(1);
    const results = await Promise.all([assign(a), assign(b)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    let served = 0;
    for (const d of [d1(parts).home, d1(parts).other])
      served += (await d
        .prepare("SELECT count(*) AS n FROM conversations WHERE organization_id = ? AND assignee_id = ?")
        .bind(org, agent.userId)
        .first<number>("n"))!;
    expect(served).toBe(1);
  });

  it("an agent held by an assignment that never ended is passed over, and served once the hold runs out", async () => {
    const { agent, b, assign } = await waitingInBothParts(2);
    const hold = (until: number) =>
      db().update(members).set({ assigningUntil: until }).where(eq(members.id, agent.memberId));
    await hold(Date.now() + 60_000);
    expect(await assign(b)).toBeNull();
    await hold(Date.now() - 1);
    expect(await assign(b)).toMatchObject({ data: { conversation: { assignee: { id: agent.userId } } } });
    const [row] = await db().select().from(members).where(eq(members.id, agent.memberId));
    expect(row.assigningUntil).toBeNull();
  });

  it("finds a visitor's conversations in both parts: their list, a resumed session, a rated answer", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const session = await startSession(chat.id);
    const answers = new Map<string, string>();
    const make = async () => {
      const res = await widget().post(pub(chat.id, "messages/"), { content: "Where is my parcel?" }, session.token);
      expect(res.status, await res.clone().text()).toBe(200);
      const { conversationId, messageId } = storedReply(await readEvents<Reply>(res));
      answers.set(conversationId, messageId!);
      return [conversationId];
    };
    const { a, b, twoParts } = await splitBetween(owner.organizationId, make);
    const parts = await twoParts();
    await moveConversations(d1(parts).home, d1(parts).other, b);

    const listed = await widget().get(pub(chat.id, "conversations/"), session.token);
    expect(listed.status, await listed.clone().text()).toBe(200);
    expect((await listed.json<{ results: { id: string }[] }>()).results.map((c) => c.id)).toEqual([b[0], a[0]]);
    const resumed = await startSession(chat.id, { token: session.token });
    expect(resumed.conversations.map((c) => c.id)).toEqual([b[0], a[0]]);
    for (const id of [a[0], b[0]]) {
      const rated = await widget().post(
        pub(chat.id, `messages/${answers.get(id)}/feedback/`),
        { feedback: "like" },
        session.token,
      );
      expect(rated.status, await rated.clone().text()).toBe(200);
      expect(await rated.json()).toMatchObject({ id: answers.get(id), feedback: "like" });
    }
  });
});
