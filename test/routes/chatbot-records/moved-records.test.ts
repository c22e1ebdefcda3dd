import { env } from "cloudflare:workers";
import { assert, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { chatbotRecordSegments, chatbotRecords } from "../../../src/db/schema";
import {
  commitRecordSegments,
  cutoffAt,
  moveSettledRecords,
  readRecordSegment,
  type RecordLine,
  settledRecords,
  writeRecordSegments,
} from "../../../src/services/statistics/record-segments";
import { messageFigureWrites } from "../../../src/services/statistics/message-figures";
import { runHousekeeping } from "../../../src/services/housekeeping";
import { chatbotRecordPages } from "../../../src/services/statistics/records";
import { data, parts, seedOwner, type Actor } from "../../harness";
import { client } from "../../../src/db/prepared";
import { bodyOf, problemWithoutRequestOf } from "../../support/api";
import { createChatbot } from "../../fixtures/chatbots";
import { readXlsx } from "../../support/xlsx";
import { figuredAssistant, seedContact, seedConversation, utc } from "../statistics/helpers";

/**
 * Settled records move from D1 to hourly R2 segments (services/statistics/record-segments.ts); the list and the
 * export answer as they did while the records were in D1. This file runs in a database of its own (vitest.config.ts):
 * the moves take every organization's settled records, and it asserts on all of D1.
 */

const HOUR = 3_600_000;
const today = () => new Date().toISOString().slice(0, 10);

/**
 * An assistant with evaluation on and records over four days of May (two asked in the same millisecond), a failed
 * reply, one record still pending evaluation and one failed, and two records of the last hour (too young to move).
 */
async function seedRecords(owner: Actor) {
  const bot = await createChatbot(owner);
  await env.DB.prepare("UPDATE chatbots SET enable_evaluation = 1 WHERE id = ?").bind(bot.id).run();
  const records = client(await data(owner.organizationId));
  const grace = await seedContact(owner.organizationId, "Grace");
  const ada = await seedContact(owner.organizationId, "Ada");
  const inbox = bot.defaultInbox!.id;
  const seed = (turns: Parameters<typeof seedConversation>[3], contactId: string | null = null) =>
    seedConversation(owner.organizationId, bot.id, inbox, turns, { contactId });
  await seed(
    [
      { at: utc("2026-05-01T09:00:00Z"), question: "How do I get a REFUND?", answer: "Refunds take 30 days." },
      { at: utc("2026-05-01T09:05:00Z"), question: "100% sure?", answer: "Yes, within 30 days.", replyMs: 800 },
      { at: utc("2026-05-01T10:30:00Z"), question: "Shipping to Spain?", answer: "Yes, in 5 days." },
    ],
    grace,
  );
  await seed([{ at: utc("2026-05-01T20:15:00Z"), question: "Same time A", answer: "A" }], ada);
  await seed([{ at: utc("2026-05-01T20:15:00Z"), question: "Same time B", answer: "B" }]);
  await seed([
    { at: utc("2026-05-02T12:00:00Z"), question: "Still being scored", answer: "Pending." },
    { at: utc("2026-05-02T18:40:00Z"), question: "Opening hours?", answer: "Nine to five.", replyMs: 2000 },
    { at: utc("2026-05-02T23:59:00Z"), question: "Late refund?", answer: "Refunds are open all night." },
  ]);
  await seed([{ at: utc("2026-05-03T00:00:00Z"), question: "Outside the range", answer: "ok" }], grace);
  await seed([{ at: utc("2026-05-04T07:45:00Z"), question: "Last of May", answer: "ok, 30 days" }]);
  const recent = Date.now() - HOUR;
  await seed(
    [
      { at: recent, question: "Recent refund?", answer: "Recent answer." },
      { at: recent + 60_000, question: "Recent two", answer: "Two." },
    ],
    ada,
  );
  // A failed reply: the question's record carries the error and no answer (statistics/failures.ts).
  const failedId = crypto.randomUUID();
  await records
    .prepare(
      "INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, contact_id, input_message, " +
        "error, created_at) VALUES (?, ?, ?, ?, NULL, 'Will this fail?', 'The model is down.', ?)",
    )
    .bind(failedId, owner.organizationId, bot.id, crypto.randomUUID(), utc("2026-05-02T07:10:00Z"))
    .run();
  const ids = async (question: string) =>
    (await records
      .prepare("SELECT id FROM chatbot_records WHERE chatbot_id = ? AND input_message = ?")
      .bind(bot.id, question)
      .first<{ id: string }>())!.id;
  const pending = await ids("Still being scored");
  const failedScore = await ids("Shipping to Spain?");
  // The judge has scored the rest (and given up on one); the replies of the last hour are being scored.
  await records
    .prepare(
      "UPDATE chatbot_records SET evaluation_status = 'done', faithfulness = 0.5, answer_relevancy = 0.875 " +
        "WHERE chatbot_id = ? AND evaluation_status = 'pending' AND created_at < ? AND id NOT IN (?, ?)",
    )
    .bind(bot.id, recent, pending, failedScore)
    .run();
  await records.prepare("UPDATE chatbot_records SET evaluation_status = 'failed' WHERE id = ?").bind(failedScore).run();
  return { bot, pending, failedId, ids };
}

type Seeded = Awaited<ReturnType<typeof seedRecords>>;

const LISTS = [
  "?startDate=2026-05-01&endDate=TODAY",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=2",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=2&page=2",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=2&page=3",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=3&page=4",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=4&page=3",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=5&page=3",
  "?startDate=2026-05-01&endDate=TODAY&pageSize=2&page=7",
  "?startDate=2026-05-01&endDate=2026-05-02",
  "?startDate=2026-05-01&endDate=2026-05-02&pageSize=3&page=2",
  "?startDate=2026-05-02&endDate=2026-05-02",
  "?startDate=2026-05-03&endDate=2026-05-03&timezone=Asia/Taipei",
  "?startDate=2026-05-01&endDate=2026-05-02&timezone=Asia/Kolkata",
  "?startDate=2026-05-02&endDate=2026-05-03&timezone=America/St_Johns&pageSize=2&page=2",
  "?startDate=2026-05-01&endDate=TODAY&userMessage=refund",
  "?startDate=2026-05-01&endDate=TODAY&userMessage=refund&pageSize=1&page=3",
  `?startDate=2026-05-01&endDate=TODAY&userMessage=${encodeURIComponent("100%")}`,
  "?startDate=2026-05-01&endDate=TODAY&botMessage=30 DAYS",
  "?startDate=2026-05-01&endDate=TODAY&botMessage=30 days&userMessage=sure",
  "?startDate=2026-06-01&endDate=2026-06-30",
  "?startDate=2026-05-01&endDate=2026-05-02&page=9",
].map((q) => q.replace("TODAY", today()));

const EXPORTS = [
  "?startDate=2026-05-01&endDate=TODAY",
  "?startDate=2026-05-01&endDate=2026-05-02&timezone=Asia/Kolkata",
  "?startDate=2026-05-01&endDate=TODAY&userMessage=refund",
].map((q) => q.replace("TODAY", today()));

/** Every answer the list and the export give for the seed: whole JSON bodies, and the spreadsheets' cells. */
async function answers(owner: Actor, { bot }: Pick<Seeded, "bot">) {
  const lists = await Promise.all(
    LISTS.map(async (q) => {
      const res = await owner.fetch("GET", `/chatbots/${bot.id}/records/${q}`);
      const body = res.ok
        ? await bodyOf<"GET /chatbots/{chatbotPk}/records/">(res)
        : await problemWithoutRequestOf(res);
      return { q, status: res.status, body };
    }),
  );
  const exports = await Promise.all(
    EXPORTS.map(async (q) => {
      const res = await owner.fetch("GET", `/chatbots/${bot.id}/records/export-excel/${q}`);
      expect(res.status, q).toBe(200);
      return { q, cells: readXlsx(await res.arrayBuffer()) };
    }),
  );
  return { lists, exports };
}

const d1Ids = async (organizationId: string, chatbotId: string) =>
  (
    await (
      await data(organizationId)
    )
      .select({ id: chatbotRecords.id })
      .from(chatbotRecords)
      .where(eq(chatbotRecords.chatbotId, chatbotId))
  )
    .map((row) => row.id)
    .sort();

const segmentsOf = async (organizationId: string, chatbotId: string) =>
  (await data(organizationId))
    .select()
    .from(chatbotRecordSegments)
    .where(eq(chatbotRecordSegments.chatbotId, chatbotId));

/** A new organization's seeded records, and every answer given for them before anything moved. */
async function seededOrganization({ scored = false } = {}) {
  const owner = await seedOwner();
  const seeded = await seedRecords(owner);
  // The housekeeping re-sends evaluations still pending a minute after the answer, which would change them.
  if (scored)
    await client(await data(owner.organizationId))
      .prepare("UPDATE chatbot_records SET evaluation_status = 'done' WHERE chatbot_id = ?")
      .bind(seeded.bot.id)
      .run();
  return { owner, seeded, ...seeded, before: await answers(owner, seeded) };
}

describe("chatbot records moved to R2 segments", () => {
  it("the list and the export answer the same; D1 keeps what is pending or young", async () => {
    const { owner, seeded, bot, pending, before } = await seededOrganization();
    expect(before.lists[0].body).toMatchObject({ count: 13 });
    expect(before.lists.filter((a) => a.status === 200).length).toBe(LISTS.length - 1);

    await moveSettledRecords(env, await data(owner.organizationId));
    const left = await d1Ids(owner.organizationId, bot.id);
    expect(left).toHaveLength(3);
    expect(left).toContain(pending);
    const segments = await segmentsOf(owner.organizationId, bot.id);
    // One per hour that has a settled record: 09:00, 10:00 and 20:00 of the 1st, 07:00, 18:00 and 23:00 of the 2nd,
    // 00:00 of the 3rd, 07:00 of the 4th.
    expect(segments.map((s) => [new Date(s.hour).toISOString().slice(0, 13), s.records]).sort()).toEqual([
      ["2026-05-01T09", 2],
      ["2026-05-01T10", 1],
      ["2026-05-01T20", 2],
      ["2026-05-02T07", 1],
      ["2026-05-02T18", 1],
      ["2026-05-02T23", 1],
      ["2026-05-03T00", 1],
      ["2026-05-04T07", 1],
    ]);
    for (const s of segments) {
      expect(s.key.startsWith(`records/${owner.organizationId}/${bot.id}/`)).toBe(true);
      const times = (await readRecordSegment(env, s.key)).map((l) => l.createdAt);
      expect([times.length, Math.min(...times), Math.max(...times)]).toEqual([
        s.records,
        s.minCreatedAt,
        s.maxCreatedAt,
      ]);
    }

    expect(await answers(owner, seeded)).toEqual(before);
    // Nothing more to move; a later run changes nothing.
    expect(await moveSettledRecords(env, await data(owner.organizationId))).toBe(0);

    // Once scored, the pending record moves too, and every answer stays.
    await client(await data(owner.organizationId))
      .prepare("UPDATE chatbot_records SET evaluation_status = 'done' WHERE id = ?")
      .bind(pending)
      .run();
    const scored = await answers(owner, seeded);
    expect(await moveSettledRecords(env, await data(owner.organizationId))).toBe(1);
    expect(await d1Ids(owner.organizationId, bot.id)).toHaveLength(2);
    expect(await answers(owner, seeded)).toEqual(scored);
  });

  it("the export's pages, each read past the last record of the one before, give the list's records once", async () => {
    const owner = await seedOwner();
    const { bot } = await seedRecords(owner);
    await moveSettledRecords(env, await data(owner.organizationId));
    expect((await segmentsOf(owner.organizationId, bot.id)).length).toBeGreaterThan(0);
    const range = { chatbotId: bot.id, start: utc("2026-05-01T00:00:00Z"), end: Date.now() + 86_400_000 };
    for (const [filters, query] of [
      [range, ""],
      [{ ...range, userMessage: "refund" }, "&userMessage=refund"],
    ] as const) {
      const listed = await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
        await owner.fetch("GET", `/chatbots/${bot.id}/records/?startDate=2026-05-01&endDate=${today()}${query}`),
      );
      // Pages of one and two split the two records of one millisecond, D1's rows and the segments' lines.
      for (const size of [1, 2, 5]) {
        const ids: string[] = [];
        for await (const page of chatbotRecordPages(env, await parts(owner.organizationId), filters, size))
          ids.push(...page.map((view) => view.record.id));
        expect(ids, `pages of ${size}${query}`).toEqual(listed.results.map((r) => r.id));
      }
    }
  });

  it("an export counts no records: each of its pages reads its own window only", async () => {
    const owner = await seedOwner();
    const { bot } = await seedRecords(owner);
    await moveSettledRecords(env, await data(owner.organizationId));
    const range = { chatbotId: bot.id, start: utc("2026-05-01T00:00:00Z"), end: Date.now() + 86_400_000 };
    const listed = await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
      await owner.fetch("GET", `/chatbots/${bot.id}/records/?startDate=2026-05-01&endDate=${today()}`),
    );
    // Every statement of the parts' batches, as SQL.
    const statements: string[] = [];
    const watched = (await parts(owner.organizationId)).map(
      (part) =>
        new Proxy(part, {
          get: (target, key, receiver) =>
            key === "batch"
              ? (batch: Parameters<typeof target.batch>[0]) => {
                  for (const query of batch)
                    statements.push((query as unknown as { toSQL(): { sql: string } }).toSQL().sql);
                  return target.batch(batch);
                }
              : Reflect.get(target, key, receiver),
        }),
    );
    const ids: string[] = [];
    for await (const page of chatbotRecordPages(env, watched, range, 2))
      ids.push(...page.map((view) => view.record.id));
    expect(ids).toEqual(listed.results.map((r) => r.id));
    expect(statements.length).toBeGreaterThan(ids.length / 2);
    // Each page counted the whole list again before.
    expect(statements.filter((text) => /\bcount\(/i.test(text))).toEqual([]);
  });

  it("a page among D1's records reads no segment, and a segment outside the dates is never opened", async () => {
    const { owner, bot, before } = await seededOrganization();
    const list = async (q: string) =>
      bodyOf<"GET /chatbots/{chatbotPk}/records/">(await owner.fetch("GET", `/chatbots/${bot.id}/records/${q}`));
    const fromTheSecond = `?startDate=2026-05-02&endDate=${today()}&pageSize=10`;
    const second = await list(fromTheSecond);
    expect(second.count).toBe(8);
    await moveSettledRecords(env, await data(owner.organizationId));
    const segments = await segmentsOf(owner.organizationId, bot.id);
    // Without their objects, a read of any of them would fail the request.
    await env.FILES.delete(segments.filter((s) => s.hour < utc("2026-05-02T00:00:00Z")).map((s) => s.key));
    expect(await list(fromTheSecond)).toEqual(second);
    await env.FILES.delete(segments.map((s) => s.key));
    expect(await list(`?startDate=2026-05-01&endDate=${today()}&pageSize=2`)).toEqual(before.lists[1].body);
  });

  it("a move stopped between writing its segments and its D1 batch changes no answer, and moves later", async () => {
    const { owner, seeded, before } = await seededOrganization({ scored: true });
    const cutoff = cutoffAt(Date.now());
    // Only this organization's: the tests of this file share their database.
    const lines = (await settledRecords(await data(owner.organizationId), cutoff)).filter(
      (l) => l.organizationId === owner.organizationId,
    );
    expect(lines.length).toBe(11);
    const written = await writeRecordSegments(env, lines);
    expect(written.length).toBe(9);
    expect(await answers(owner, seeded)).toEqual(before);
    expect(await segmentsOf(owner.organizationId, seeded.bot.id)).toEqual([]);

    // The cron's next run moves them, with its other work.
    await runHousekeeping(env);
    expect(await answers(owner, seeded)).toEqual(before);
    expect(await d1Ids(owner.organizationId, seeded.bot.id)).toHaveLength(2);
  });

  it("a record answered again while its move is under way stays in D1 with its new answer", async () => {
    const owner = await seedOwner();
    const seeded = await seedRecords(owner);
    const { bot, ids } = seeded;
    const cutoff = cutoffAt(Date.now());
    const lines = (await settledRecords(await data(owner.organizationId), cutoff)).filter(
      (l) => l.organizationId === owner.organizationId,
    );
    const written = await writeRecordSegments(env, lines);
    const opening = await ids("Opening hours?");
    const [row] = await (await data(owner.organizationId))
      .select()
      .from(chatbotRecords)
      .where(eq(chatbotRecords.id, opening));
    await answerAgain(owner, row, "Nine to six now.");
    const after = await answers(owner, seeded);
    await commitRecordSegments(await data(owner.organizationId), written, cutoff);
    // Its hour's segment is not listed; every other one is.
    expect((await segmentsOf(owner.organizationId, bot.id)).length).toBe(7);
    expect(await d1Ids(owner.organizationId, bot.id)).toContain(opening);
    expect(await answers(owner, seeded)).toEqual(after);
  });

  it("a moved record answered again shows its new answer in its place, and stays in D1", async () => {
    const { owner, seeded, bot, before } = await seededOrganization();
    await moveSettledRecords(env, await data(owner.organizationId));
    const moved = (
      await Promise.all((await segmentsOf(owner.organizationId, bot.id)).map((s) => readRecordSegment(env, s.key)))
    )
      .flat()
      .find((l) => l.inputMessage === "Late refund?")!;
    expect(await d1Ids(owner.organizationId, bot.id)).not.toContain(moved.id);
    await answerAgain(owner, moved, "Refunds close at midnight.");
    await client(await data(owner.organizationId))
      .prepare("UPDATE chatbot_records SET evaluation_status = 'done' WHERE id = ?")
      .bind(moved.id)
      .run();
    const after = await answers(owner, seeded);
    for (const [i, a] of after.lists.entries()) {
      expect(a.status).toBe(before.lists[i].status);
      if (a.status !== 200) continue;
      const was = before.lists[i].body;
      assert("results" in a.body && "results" in was, a.q);
      expect(a.body.count, a.q).toBe(was.count);
      const shown = a.body.results;
      expect(shown.map((r) => r.id)).toEqual(was.results.map((r) => r.id));
      for (const r of shown) if (r.id === moved.id) expect(r.outputMessage).toBe("Refunds close at midnight.");
    }
    // Even days later it is not moved again (its segment lists it): D1's row keeps its new answer.
    await moveSettledRecords(env, await data(owner.organizationId), Date.now() + 3 * 86_400_000);
    expect(await d1Ids(owner.organizationId, bot.id)).toContain(moved.id);
    expect(await answers(owner, seeded)).toEqual(after);
  });

  it("another organization never reads this one's segments", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const mine = await seedRecords(owner);
    const theirs = await seedRecords(stranger);
    const before = await answers(stranger, theirs);
    await moveSettledRecords(env, await data(owner.organizationId));
    for (const s of await segmentsOf(owner.organizationId, mine.bot.id))
      expect(s.organizationId).toBe(owner.organizationId);
    const q = `?startDate=2026-05-01&endDate=${today()}`;
    expect((await stranger.fetch("GET", `/chatbots/${mine.bot.id}/records/${q}`)).status).toBe(404);
    expect((await stranger.fetch("GET", `/chatbots/${mine.bot.id}/records/export-excel/${q}`)).status).toBe(404);
    expect(await answers(stranger, theirs)).toEqual(before);
    const own = await createChatbot(stranger);
    expect(await (await stranger.fetch("GET", `/chatbots/${own.id}/records/${q}`)).json()).toMatchObject({
      count: 0,
      results: [],
    });
  });
});

/** A record's question answered again now, as a reply stores its record (statistics/message-figures.ts). */
async function answerAgain(owner: Actor, record: RecordLine, answer: string) {
  const conversation = {
    id: record.conversationId,
    organizationId: owner.organizationId,
    chatbotId: record.chatbotId,
    contactId: record.contactId,
    createdById: null,
    isTest: false,
  };
  const reply = {
    id: crypto.randomUUID(),
    type: "outgoing" as const,
    senderType: "chatbot" as const,
    content: answer,
    citationNodes: [],
    wordsCount: 4,
    createdAt: Date.now(),
  };
  const question = { id: record.id, createdAt: record.createdAt, content: record.inputMessage };
  const assistant = await figuredAssistant(record.chatbotId);
  const records = await data(owner.organizationId);
  await client(records).batch(messageFigureWrites(records, conversation, reply, question, assistant));
}
