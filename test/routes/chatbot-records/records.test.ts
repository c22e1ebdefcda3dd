import { describe, expect, it } from "vitest";
import Papa from "papaparse";
import {
  call,
  conversationData,
  data,
  expectError,
  NO_SUCH_ID,
  PREFIXES,
  seedMember,
  seedOwner,
  type Actor,
} from "../../harness";
import { client } from "../../../src/db/prepared";
import { createChatbot } from "../../fixtures/chatbots";
import { upstreamModel } from "../chat-completions/fixtures";
import { excelSerial, readXlsx } from "../../support/xlsx";
import { ok, seedContact, seedConversation, utc } from "../statistics/helpers";
import { problemOf } from "../../support/api";

type Rec = Record<string, unknown> & {
  id: string;
  inputMessage: string;
  outputMessage: string | null;
  replyTime: number | null;
  createdAt: string;
  error: string | null;
  contact: { id: string; name: string } | null;
};
type Page = { count: number; next: string | null; previous: string | null; results: Rec[] };

const list = (id: string, query: string) => `/chatbots/${id}/records/${query}`;
const exportPath = (id: string, query: string) => `/chatbots/${id}/records/export-excel/${query}`;
const csvPath = (id: string, query: string) => `/chatbots/${id}/records/export-csv/${query}`;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** The list, the .xlsx and the CSV: one access check and one query check each. */
const PATHS = [list, exportPath, csvPath];

/** The records' page `query` asks `actor` for, once its status is 200. */
const listed = async (actor: Actor, chatbotId: string, query: string, init?: { prefix: string }) =>
  ok<"GET /chatbots/{chatbotPk}/records/">(await actor.fetch("GET", list(chatbotId, query), undefined, init));

async function seeded() {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const contact = await seedContact(owner.organizationId, "Grace");
  const inbox = bot.defaultInbox!.id;
  await seedConversation(
    owner.organizationId,
    bot.id,
    inbox,
    [
      {
        at: utc("2026-05-01T09:00:00Z"),
        question: "How do I get a refund?",
        answer: "Refunds take 30 days.",
        replyMs: 1250,
      },
      { at: utc("2026-05-01T09:05:00Z"), question: "100% sure?", answer: "Yes, within 30 days.", replyMs: 800 },
    ],
    { contactId: contact },
  );
  const hours = await seedConversation(owner.organizationId, bot.id, inbox, [
    { at: utc("2026-05-02T23:59:00Z"), question: "Opening hours?", answer: "Nine to five.", replyMs: 2000 },
  ]);
  await seedConversation(owner.organizationId, bot.id, inbox, [
    { at: utc("2026-05-03T00:00:00Z"), question: "Outside the range", answer: "ok" },
  ]);
  return { owner, bot, contact, hours };
}

/** Sets scores on the record of "Opening hours?", in its conversation's part, as the evaluation would. */
async function score(organizationId: string, conversationId: string, set: string) {
  const { meta } = await client(await conversationData(organizationId, conversationId))
    .prepare(`UPDATE chatbot_records SET ${set} WHERE conversation_id = ? AND input_message = 'Opening hours?'`)
    .bind(conversationId)
    .run();
  expect(meta.changes).toBe(1);
}

describe("GET /chatbots/{chatbotPk}/records/", () => {
  it.each(PREFIXES)("one record per answered question in the date range, newest first (%s)", async (prefix) => {
    const { owner, bot, contact } = await seeded();
    const page = await listed(owner, bot.id, "?startDate=2026-05-01&endDate=2026-05-02", { prefix });
    expect(page.count).toBe(3);
    expect(page.results.map((r) => [r.inputMessage, r.outputMessage, r.replyTime])).toEqual([
      ["Opening hours?", "Nine to five.", 2],
      ["100% sure?", "Yes, within 30 days.", 0.8],
      ["How do I get a refund?", "Refunds take 30 days.", 1.25],
    ]);
    expect(page.results[2]).toMatchObject({
      createdAt: String(utc("2026-05-01T09:00:00Z")),
      error: null,
      contact: { id: contact, name: "Grace" },
      context: ["Refunds are possible within 30 days."],
      condenseMessage: null,
    });
    expect(page.results[0].contact).toBeNull();
    expect(page.results[0]).not.toHaveProperty("faithfulness");
  });

  it("filters by question and answer text (literally), pages, and reads dates in a timezone", async () => {
    const { owner, bot } = await seeded();
    const q = "?startDate=2026-05-01&endDate=2026-05-02";
    const refunds = await listed(owner, bot.id, `${q}&userMessage=REFUND`);
    expect(refunds.results.map((r) => r.inputMessage)).toEqual(["How do I get a refund?"]);
    expect((await listed(owner, bot.id, `${q}&user_message=${encodeURIComponent("100%")}`)).count).toBe(1);
    expect((await listed(owner, bot.id, `${q}&userMessage=${encodeURIComponent("%")}`)).count).toBe(1);
    expect((await listed(owner, bot.id, `${q}&botMessage=30 days`)).count).toBe(2);
    const first = await listed(owner, bot.id, `${q}&pageSize=2`);
    expect(first.results).toHaveLength(2);
    const second = await ok<"GET /chatbots/{chatbotPk}/records/">(await fetchUrl(owner.key, first.next!));
    expect(second.results.map((r) => r.inputMessage)).toEqual(["How do I get a refund?"]);
    await expectError(await owner.fetch("GET", list(bot.id, `${q}&page=9`)), 404);
    // In Taipei 2026-05-03 begins at 16:00 UTC on 2 May: the question of 23:59 UTC is asked then.
    const taipei = await listed(owner, bot.id, "?startDate=2026-05-03&endDate=2026-05-03&timezone=Asia/Taipei");
    expect(taipei.results.map((r) => r.inputMessage)).toEqual(["Outside the range", "Opening hours?"]);
  });

  it.each([
    ["Asia/Kolkata", "+05:30"],
    ["Asia/Kathmandu", "+05:45"],
    ["Asia/Tehran", "+03:30"],
    ["Australia/Adelaide", "+09:30"],
    ["America/St_Johns", "-02:30"],
  ])("a day in %s (off whole hours) runs from its own midnight, in the list and the export", async (zone, offset) => {
    // Records carry exact times; only the hourly counters round a day to the hour.
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    for (const [local, question] of [
      ["2026-05-01T23:45", "the day before"],
      ["2026-05-02T00:15", "first quarter hour"],
      ["2026-05-02T12:00", "noon"],
      ["2026-05-02T23:45", "last quarter hour"],
      ["2026-05-03T00:15", "the day after"],
    ])
      await seedConversation(owner.organizationId, bot.id, inbox, [
        { at: utc(`${local}:00${offset}`), question, answer: "a" },
      ]);
    const q = `?startDate=2026-05-02&endDate=2026-05-02&timezone=${zone}`;
    const page = await listed(owner, bot.id, q);
    const inside = ["last quarter hour", "noon", "first quarter hour"];
    expect(page.results.map((r) => r.inputMessage)).toEqual(inside);
    expect(page.count).toBe(3);
    const rows = readXlsx(await (await owner.fetch("GET", exportPath(bot.id, q))).arrayBuffer());
    expect(rows.slice(1).map((r) => r[1])).toEqual(inside);
  });

  it("records what completions store, and a failed reply with its error", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Where is my parcel?" } }),
    );
    const model = await upstreamModel(owner, { modelName: "fail-midstream" });
    const failing = await createChatbot(owner, { largeLanguageModel: model.id });
    expect(
      (await owner.fetch("POST", `/chatbots/${failing.id}/completions/`, { message: { content: "Will this fail?" } }))
        .status,
    ).toBe(502);
    const today = new Date().toISOString().slice(0, 10);
    const page = await listed(owner, bot.id, `?startDate=${today}&endDate=${today}`);
    expect(page.results).toEqual([
      expect.objectContaining({
        inputMessage: "Where is my parcel?",
        outputMessage: 'You said: "Where is my parcel?".',
        error: null,
      }),
    ]);
    let failed: Page | null = null;
    for (let i = 0; i < 50 && !failed?.count; i++) {
      failed = await listed(owner, failing.id, `?startDate=${today}&endDate=${today}`);
      if (!failed.count) await new Promise((r) => setTimeout(r, 20));
    }
    expect(failed!.results).toEqual([
      expect.objectContaining({
        inputMessage: "Will this fail?",
        outputMessage: null,
        replyTime: null,
        error: expect.any(String),
      }),
    ]);
    const stats = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", `/chatbots/${failing.id}/statistics/`),
    );
    expect(stats.total).toMatchObject({ failedRepliesCount: 1, repliesCount: 0 });
  });

  it("shows the evaluation scores when the assistant has enableEvaluation", async () => {
    const { owner, bot, hours } = await seeded();
    await ok<"PATCH /chatbots/{id}/enable-evaluation/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/enable-evaluation/`, {}),
    );
    await score(owner.organizationId, hours, "faithfulness = 0.855, evaluation_status = 'done'");
    const page = await listed(owner, bot.id, "?startDate=2026-05-01&endDate=2026-05-02");
    expect(page.results[0]).toMatchObject({
      evaluationStatus: "done",
      faithfulness: 0.855,
      faithfulnessDisplay: "86%",
      answerRelevancy: null,
      answerRelevancyDisplay: "-",
    });
  });

  it.each([
    ["?endDate=2026-05-02", "startDate"],
    ["?startDate=2026-05-01", "endDate"],
    ["?startDate=2026-05-01&endDate=May", "endDate"],
    ["?startDate=2026-05-03&endDate=2026-05-02", "endDate"],
    ["?startDate=2026-05-01&endDate=2026-05-02&pageSize=x", "pageSize"],
    ["?startDate=2026-05-01&endDate=2026-05-02&timezone=Nowhere", "timezone"],
  ])("400 for %s, from the list and both exports", async (query, field) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // The exports take the list's filters, not its page size.
    const exported = query.replace("&pageSize=x", "&timezone=Nowhere");
    for (const path of PATHS.map((p) => p(bot.id, p === list ? query : exported))) {
      const res = await owner.fetch("GET", path);
      const body = await problemOf(res.clone());
      await expectError(res, 400);
      if (path.includes("/records/?")) expect(Object.keys(body.errors ?? {})).toContain(field);
    }
  });

  it("401, 403 without conversation.view, 404 for another organization's assistant: list and exports", async () => {
    const { owner, bot } = await seeded();
    const q = "?startDate=2026-05-01&endDate=2026-05-02";
    const manager = await seedMember(owner, ["chatbot.manage", "statistics.view"]);
    const own = await createChatbot(manager);
    for (const path of PATHS) {
      await expectError(await call("GET", `/api/v1${path(bot.id, q)}`), 401, "not_authenticated");
      await expectError(await (await seedOwner()).fetch("GET", path(bot.id, q)), 404, "not_found");
      await expectError(await manager.fetch("GET", path(own.id, q)), 403, "permission_denied");
    }
    await expectError(await owner.fetch("GET", list(NO_SUCH_ID, q)), 404, "not_found");
    const viewer = await seedMember(owner, ["conversation.view"]);
    // Not one of the assistants they may see.
    await expectError(await viewer.fetch("GET", list(bot.id, q)), 404, "not_found");
  });
});

describe("GET /chatbots/{chatbotPk}/records/export-excel/", () => {
  it.each(PREFIXES)("the same rows as an .xlsx with typed cells, read back cell by cell (%s)", async (prefix) => {
    const { owner, bot, hours } = await seeded();
    await ok<"PATCH /chatbots/{id}/enable-evaluation/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/enable-evaluation/`, {}),
    );
    await score(owner.organizationId, hours, "faithfulness = 0.5, answer_relevancy = 1");
    const q = "?startDate=2026-05-01&endDate=2026-05-02";
    const res = await owner.fetch("GET", exportPath(bot.id, q), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(XLSX);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="records-2026-05-01-2026-05-02.xlsx"');
    const rows = readXlsx(await res.arrayBuffer());
    const page = await listed(owner, bot.id, q);
    expect(rows[0]).toEqual([
      "Asked at",
      "Question",
      "Answer",
      "Context",
      "Reply time (s)",
      "Error",
      "Conversation",
      "Contact",
      "Faithfulness",
      "Answer relevancy",
      "Context precision",
      "Answer correctness",
      "Answer similarity",
      "Context recall",
    ]);
    expect(rows.slice(1)).toEqual(
      page.results.map((r) => [
        excelSerial(Number(r.createdAt)),
        r.inputMessage,
        r.outputMessage,
        "Refunds are possible within 30 days.",
        r.replyTime,
        null,
        r.conversation,
        r.contact?.name ?? null,
        r.faithfulness ?? null,
        r.answerRelevancy ?? null,
        null,
        null,
        null,
        null,
      ]),
    );
    expect(rows[1].slice(8, 10)).toEqual([0.5, 1]);
  });

  it("filters like the list and has no score columns without evaluation", async () => {
    const { owner, bot } = await seeded();
    const res = await owner.fetch(
      "GET",
      exportPath(bot.id, "?startDate=2026-05-01&endDate=2026-05-02&botMessage=nine"),
    );
    const rows = readXlsx(await res.arrayBuffer());
    expect(rows.map((r) => r.length)).toEqual([8, 8]);
    expect(rows[1][1]).toBe("Opening hours?");
  });

  it("holds at most 8 MiB of cells: past that a 400 export_too_large naming the limit and the CSV", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // 280 answers of 30,000 characters: 8.4 MB of text, past 8 MiB (though far from 50,000 rows).
    const answer = "Long answer. ".repeat(2_308).slice(0, 30_000);
    const at = utc("2026-05-01T09:00:00Z");
    await insertRecords(
      owner,
      bot.id,
      Array.from({ length: 280 }, (_, i) => ({ createdAt: at + i * 1000, question: `q${i}`, answer })),
    );
    const q = "?startDate=2026-05-01&endDate=2026-05-01";
    const refused = await expectError(await owner.fetch("GET", exportPath(bot.id, q)), 400, "export_too_large");
    expect(refused.detail).toContain("8 MiB");
    expect(refused.detail).toContain("export-csv/");
    // The CSV streams them all.
    const [, ...rows] = await csvRows(await owner.fetch("GET", csvPath(bot.id, q)));
    expect(rows).toHaveLength(280);
    expect(rows.every((r) => r[2] === answer)).toBe(true);
  });

  it("cuts a text cell to Excel's 32,767 characters, saying so (Excel called the file damaged)", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const answer = `${"Long answer. ".repeat(3_500)}end`; // 45,503 characters
    const conversation = await seedConversation(owner.organizationId, bot.id, bot.defaultInbox!.id, [
      { at: utc("2026-05-01T09:00:00Z"), question: "Tell me everything", answer },
    ]);
    // A reply citing many long passages: the Context cell joins them all (48,144 characters).
    const passages = Array.from({ length: 12 }, (_, i) => ({ node: { text: `Passage ${i} ${"x".repeat(4_000)}` } }));
    await client(await conversationData(owner.organizationId, conversation))
      .prepare("UPDATE chatbot_records SET context = ? WHERE conversation_id = ?")
      .bind(JSON.stringify(passages), conversation)
      .run();
    const res = await owner.fetch("GET", exportPath(bot.id, "?startDate=2026-05-01&endDate=2026-05-01"));
    expect(res.status).toBe(200);
    const rows = readXlsx(await res.arrayBuffer());
    expect(rows).toHaveLength(2);
    const [question, cutAnswer, context] = rows[1].slice(1, 4) as string[];
    expect(question).toBe("Tell me everything");
    for (const cell of [cutAnswer, context]) {
      expect(cell).toHaveLength(32_767);
      expect(cell.endsWith("… (cut)")).toBe(true);
    }
    expect(answer.startsWith(cutAnswer.slice(0, -"… (cut)".length))).toBe(true);
  });
});

/** Records of `chatbotId` straight into the organization's shard, in one batch: `createdAt` and the question. */
async function insertRecords(
  owner: Actor,
  chatbotId: string,
  rows: { createdAt: number; question: string; answer?: string }[],
) {
  const d1 = client(await data(owner.organizationId));
  const insert = d1.prepare(
    "INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, input_message, output_message, " +
      "reply_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, 1500, ?)",
  );
  const records = rows.map((r) => ({ id: crypto.randomUUID(), ...r }));
  await d1.batch(
    records.map((r) =>
      insert.bind(
        r.id,
        owner.organizationId,
        chatbotId,
        crypto.randomUUID(),
        r.question,
        r.answer ?? "ok",
        r.createdAt,
      ),
    ),
  );
  return records;
}

/** A CSV answer's rows (its byte order mark checked and dropped), each a list of fields. */
async function csvRows(res: Response) {
  if (res.status !== 200) expect(res.status, await res.text()).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(3));
  const parsed = Papa.parse<string[]>(text, { newline: "\r\n", skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

describe("GET /chatbots/{chatbotPk}/records/export-csv/", () => {
  it("every record once, newest first, over several pages, those of one millisecond included", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // 250 records over pages of 100, seven to a millisecond: a millisecond's records cross each page's end.
    const at = utc("2026-05-01T09:00:00Z");
    const tricky = ['He said "hi", then\nleft', '=HYPERLINK("http://x")', "-1 or +1?", "@home, 100%"];
    const seeded = await insertRecords(
      owner,
      bot.id,
      Array.from({ length: 250 }, (_, i) => ({ createdAt: at + Math.floor(i / 7), question: tricky[i] ?? `q${i}` })),
    );
    const newestFirst = [...seeded].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    const q = "?startDate=2026-05-01&endDate=2026-05-01";
    const res = await owner.fetch("GET", csvPath(bot.id, q));
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="records-2026-05-01-2026-05-01.csv"');
    const [header, ...rows] = await csvRows(res);
    expect(header).toEqual([
      "Asked at",
      "Question",
      "Answer",
      "Context",
      "Reply time (s)",
      "Error",
      "Conversation",
      "Contact",
    ]);
    // A text that would run as a formula starts with '; the rest as stored.
    const shown = (question: string) => (/^[=+\-@]/.test(question) ? `'${question}` : question);
    expect(rows.map((r) => r[1])).toEqual(newestFirst.map((r) => shown(r.question)));
    expect(rows[0]).toEqual([
      new Date(newestFirst[0].createdAt).toISOString(),
      newestFirst[0].question,
      "ok",
      "",
      "1.5",
      "",
      expect.any(String),
      "",
    ]);
    // The spreadsheet reads the same pages.
    const sheet = readXlsx(await (await owner.fetch("GET", exportPath(bot.id, q))).arrayBuffer());
    expect(sheet.slice(1).map((r) => r[1])).toEqual(newestFirst.map((r) => r.question));
  });

  it("filters like the list (its 400, 401, 403 and 404: with the list's, above)", async () => {
    const { owner, bot } = await seeded();
    const [, ...rows] = await csvRows(
      await owner.fetch("GET", csvPath(bot.id, "?startDate=2026-05-01&endDate=2026-05-02&botMessage=30 days")),
    );
    expect(rows.map((r) => r[1])).toEqual(["100% sure?", "How do I get a refund?"]);
  });
});

const fetchUrl = (key: string, url: string) =>
  call("GET", new URL(url).pathname + new URL(url).search, undefined, { Authorization: `Api-Key ${key}` });
