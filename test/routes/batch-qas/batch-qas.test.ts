import { env } from "cloudflare:workers";
import { strToU8, zipSync } from "fflate";
import { eq } from "drizzle-orm";
import { assert, describe, expect, it } from "vitest";
import {
  bindingsWith,
  countInParts,
  countRows,
  type Actor,
  call,
  data,
  db,
  expectError,
  NO_SUCH_ID,
  PREFIXES,
  seedMember,
  seedOwner,
  type Settings,
} from "../../harness";
import { client } from "../../../src/db/prepared";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { createInbox } from "../inboxes/fixtures";
import { readXlsx } from "../../support/xlsx";
import { ok } from "../statistics/helpers";
import type { Body } from "../../support/api";
import { runQueue } from "../../support/queues";
import { createBatchQa, requeueStalledBatchQas, runBatchQa, STALLED_BATCH_MS } from "../../../src/services/batch-qa";
import { lexicalScores } from "../../../src/services/evaluation/metrics";
import { batchQaItems, organizationUsage, uploads } from "../../../src/db/schema";
import { currentMonth } from "../../../src/services/organizations";
import { upstreamModel } from "../chat-completions/fixtures";
import { createTool, weatherToolBody } from "../../fixtures/tools";

type Batch = Body<"GET /web-chats/{webchatPk}/batch-qas/{id}/">;

/** An operator's plan of 5 words a month, every organization's. */
const TINY: Settings = {
  PLANS: JSON.stringify({ tiny: { planName: "Tiny", monthlyWords: 5 } }),
  DEFAULT_PLAN: "tiny",
};

/** The organization's words of this month, past TINY's. */
const useWordsOfMonth = async (organizationId: string) =>
  (await data(organizationId))
    .insert(organizationUsage)
    .values({ organizationId, month: currentMonth(), wordsCount: 50, conversationsCount: 1 });

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function webChatWithBot(owner: Actor) {
  const bot = await createChatbot(owner);
  const inbox = await createInbox(owner, { chatbot: { id: bot.id } });
  assert(inbox.channel, "a web inbox comes with its web chat");
  return { bot, webChatId: inbox.channel.id };
}

/** A batch of `questions` written as the route writes it, but not queued: the test runs its job. */
async function unqueuedBatch(owner: Actor, questions: { question: string; expectedAnswer: string | null }[]) {
  const { bot, webChatId } = await webChatWithBot(owner);
  const file = `uploads/${owner.organizationId}/batch-qa/x/q.csv`;
  const written = { organizationId: owner.organizationId, webChatId, chatbotId: bot.id, createdById: owner.userId };
  return { webChatId, batch: await createBatchQa(env.DB, { ...written, file, filename: "q.csv" }, questions) };
}

/** A file `actor` uploaded: its object, and its upload row as the signed upload leaves it. */
async function upload(actor: Actor, filename: string, body: string | Uint8Array, contentType: string) {
  const key = `uploads/${actor.organizationId}/batch-qa/${crypto.randomUUID()}/${filename}`;
  await env.FILES.put(key, body, { httpMetadata: { contentType } });
  const size = typeof body === "string" ? new TextEncoder().encode(body).length : body.length;
  await (await data(actor.organizationId)).insert(uploads).values({
    key,
    organizationId: actor.organizationId,
    modelName: "batch-qa",
    fieldName: "file",
    filename,
    contentType,
    maxSize: size,
    size,
    createdBy: actor.userId,
    uploadedAt: Date.now(),
  });
  return key;
}

/** A batch started (201) on the web chat from an uploaded file (`body.file`, its key). */
async function startBatch(owner: Actor, webChatId: string, body: { file: string; filename?: string }, prefix?: string) {
  return ok<"POST /web-chats/{webchatPk}/batch-qas/">(
    await owner.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, body, { prefix }),
    201,
  );
}

/** A minimal workbook: shared strings in the header, inline strings in the rows. */
function workbook(rows: string[][]): Uint8Array {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const header = rows[0];
  const shared = `<sst>${header.map((h) => `<si><t>${esc(h)}</t></si>`).join("")}</sst>`;
  const col = (i: number) => String.fromCharCode(65 + i);
  // The header row's cells are shared strings (their index), the others inline strings.
  const cell = (v: string, x: number, y: number) =>
    y === 0
      ? `<c r="${col(x)}${y + 1}" t="s"><v>${x}</v></c>`
      : `<c r="${col(x)}${y + 1}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
  const xmlRows = rows.map((r, y) => `<row r="${y + 1}">${r.map((v, x) => cell(v, x, y)).join("")}</row>`);
  return zipSync({
    "[Content_Types].xml": strToU8("<Types/>"),
    "xl/workbook.xml": strToU8("<workbook/>"),
    "xl/sharedStrings.xml": strToU8(shared),
    "xl/worksheets/sheet1.xml": strToU8(`<worksheet><sheetData>${xmlRows.join("")}</sheetData></worksheet>`),
  });
}

async function finished(owner: Actor, webChatId: string, id: string): Promise<Batch> {
  let batch!: Batch;
  for (let i = 0; i < 200; i++) {
    batch = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/">(
      await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${id}/`),
    );
    if (batch.status === "done") return batch;
    await new Promise((r) => setTimeout(r, 50));
  }
  return batch;
}

describe("batch QA: POST /web-chats/{webchatPk}/batch-qas/, GET .../{id}/, GET .../{id}/export-excel/", () => {
  it.each(PREFIXES)(
    "runs every question of an .xlsx through the assistant with the local model, end to end (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const { bot, webChatId } = await webChatWithBot(owner);
      const questions = Array.from({ length: 14 }, (_, i) => `Question number ${i + 1}?`);
      const rows = [
        ["Question", "Expected answer"],
        ...questions.map((q, i) => [q, i % 2 ? `You said: "${q}".` : "Something else entirely."]),
      ];
      const key = await upload(owner, "questions.xlsx", workbook(rows), XLSX);
      const created = await startBatch(owner, webChatId, { file: key }, prefix);
      expect(created).toMatchObject({
        status: "pending",
        total: 14,
        completed: 0,
        filename: "questions.xlsx",
        chatbot: { id: bot.id, name: bot.name },
      });
      const done = await finished(owner, webChatId, created.id);
      expect(done).toMatchObject({ status: "done", total: 14, completed: 14, failed: 0, progress: 1 });
      expect(done.averageAnswerCorrectness!).toBeGreaterThan(0.3);

      const res = await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${created.id}/export-excel/`, undefined, {
        prefix,
      });
      expect(res.headers.get("Content-Type")).toBe(XLSX);
      expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="batch-qa-${created.id}.xlsx"`);
      const sheet = readXlsx(await res.arrayBuffer());
      expect(sheet[0]).toEqual([
        "#",
        "Question",
        "Expected answer",
        "Answer",
        "Citations",
        "Reply time (s)",
        "Status",
        "Error",
        "Answer correctness",
        "Answer similarity",
        "Faithfulness",
        "Answer relevancy",
        "Context precision",
        "Context recall",
      ]);
      expect(sheet).toHaveLength(15);
      const items = await env.DB.prepare("SELECT * FROM batch_qa_items WHERE batch_qa_id = ? ORDER BY position")
        .bind(created.id)
        .all<Record<string, number | string | null>>();
      sheet.slice(1).forEach((row, i) => {
        const item = items.results[i];
        expect(row).toEqual([
          i + 1,
          questions[i],
          rows[i + 1][1],
          `You said: "${questions[i]}".`,
          null,
          (item.reply_ms as number) / 1000,
          "done",
          null,
          item.answer_correctness,
          item.answer_similarity,
          item.faithfulness,
          item.answer_relevancy,
          null,
          0,
        ]); // no passages: no precision, and none of the reference recalled
      });
      // The expected answer that matches the local model's reply scores 1; the other one low.
      expect(sheet[2][8]).toBe(1);
      expect(sheet[1][8] as number).toBeLessThan(0.5);
      // No conversation or statistics came of it.
      expect(
        await countRows(client(await data(owner.organizationId)), "conversations WHERE chatbot_id = ?", bot.id),
      ).toBe(0);
    },
  );

  it("an agent assistant's tool calls answer the questions but leave no tool execution records", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const tool = await createTool(
      owner,
      weatherToolBody({ apiUrl: `${env.TEST_RECEIVER_URL}/echo/weather`, rawHeaders: { "X-Api-Key": "k" } }),
    );
    const bot = await createChatbot(owner, {
      replyMode: "agent",
      largeLanguageModel: model.id,
      tools: [{ id: tool.id }],
    });
    const inbox = await createInbox(owner, { chatbot: { id: bot.id } });
    const key = await upload(owner, "questions.csv", "Question\nWhat is the weather? use get_weather\n", "text/csv");
    const created = await startBatch(owner, inbox.channel!.id, { file: key });
    expect(await finished(owner, inbox.channel!.id, created.id)).toMatchObject({ status: "done", completed: 1 });
    const items = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/items/">(
      await owner.fetch("GET", `/web-chats/${inbox.channel!.id}/batch-qas/${created.id}/items/`),
    );
    expect(items.results[0].answer).toMatch(/^Result: \{"method":"GET"/);
    // Nothing but the items is stored: no records of a conversation that does not exist.
    const records = await ok<"GET /tool-execution-records/">(
      await owner.fetch("GET", `/tool-execution-records/?chatbot=${bot.id}`),
    );
    expect(records.count).toBe(0);
    // Nor in the control plane's table, where a reply without a data plane wrote them.
    expect(await countRows(env.DB, "tool_execution_records WHERE chatbot_id = ?", bot.id)).toBe(0);
    expect(await countInParts(owner.organizationId, "tool_execution_records", "chatbot_id = ?", bot.id)).toBe(0);
  });

  it("a job failing at its last delivery fails its batch, not leaving it waiting; earlier ones retry", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    // DB refuses to start any batch of this web chat: every job of it fails, the queue's own included.
    const trigger = `"batch_qa_down_${webChatId.replace(/-/g, "")}"`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE OF status ON batch_qas WHEN NEW.web_chat_id = '${webChatId}' ` +
        `AND NEW.status = 'running' BEGIN SELECT RAISE(ABORT, 'batch refused'); END`,
    ).run();
    try {
      const key = await upload(owner, "q.csv", "Where is my parcel?\n", "text/csv");
      const created = await startBatch(owner, webChatId, { file: key });
      const consume = (attempts: number) =>
        runQueue("chatbot-evaluation", [
          { id: `job-${attempts}`, attempts, body: { kind: "batchQa", batchQaId: created.id } },
        ]);
      expect((await consume(1)).retryMessages).toEqual([{ msgId: "job-1" }]);
      expect((await consume(6)).explicitAcks).toEqual(["job-6"]);
      const batch = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/">(
        await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${created.id}/`),
      );
      expect(batch).toMatchObject({ status: "failed", completed: 0, total: 1 });
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
  });

  it("keeps an answer when the judge model then fails: the item is done, scored as without a judge", async () => {
    const owner = await seedOwner();
    // The judge's provider answers 500 (the in-test upstream's fault model).
    const judge = await upstreamModel(owner, { modelName: `fail-500-${crypto.randomUUID()}` });
    const question = { question: "Where is my parcel?", expectedAnswer: "On its way." };
    const { batch } = await unqueuedBatch(owner, [question]);
    await runBatchQa(bindingsWith({ EVALUATION_MODEL: judge.id }), db(), batch.id);
    const [item] = await db().select().from(batchQaItems).where(eq(batchQaItems.batchQaId, batch.id));
    expect({ status: item.status, error: item.error }).toEqual({ status: "done", error: null });
    expect(item.answer).toContain("parcel");
    const { faithfulness, answerRelevancy, contextPrecision, contextRecall, answerCorrectness, answerSimilarity } =
      item;
    expect({
      faithfulness,
      answerRelevancy,
      contextPrecision,
      contextRecall,
      answerCorrectness,
      answerSimilarity,
    }).toEqual(lexicalScores({ ...question, answer: item.answer!, contexts: [], reference: question.expectedAnswer }));
  });

  it("a batch whose job was lost is sent again by the housekeeping once stalled, and finishes", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const key = await upload(owner, "q.csv", "Where is my parcel?\nDo you ship abroad?\n", "text/csv");
    const created = await startBatch(owner, webChatId, { file: key });
    expect((await finished(owner, webChatId, created.id)).status).toBe("done");
    // As a job lost with its consumer leaves it: running, the questions unanswered.
    const d1 = client(db());
    const lost = (at: number) =>
      d1.batch([
        d1
          .prepare("UPDATE batch_qa_items SET status = 'pending', answer = NULL WHERE batch_qa_id = ?")
          .bind(created.id),
        d1
          .prepare(
            "UPDATE batch_qas SET status = 'running', completed = 0, finished_at = NULL, updated_at = ? WHERE id = ?",
          )
          .bind(at, created.id),
      ]);
    const now = Date.now();
    await lost(now - STALLED_BATCH_MS + 60_000);
    expect(await requeueStalledBatchQas(env, db(), now)).not.toContain(created.id);
    await lost(now - STALLED_BATCH_MS - 1);
    expect(await requeueStalledBatchQas(env, db(), now)).toContain(created.id);
    // Sent again: it runs, and a second look soon after does not send it again.
    expect(await requeueStalledBatchQas(env, db(), now + 1)).not.toContain(created.id);
    const done = await finished(owner, webChatId, created.id);
    expect(done).toMatchObject({ status: "done", completed: 2, total: 2, failed: 0 });
  });

  it("reads a .csv without a header (questions first, expected answers second)", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const key = await upload(
      owner,
      "q.csv",
      '"Where, exactly, is my parcel?"\nOpening hours?,Nine to five\n\n',
      "text/csv",
    );
    const created = await startBatch(owner, webChatId, { file: key, filename: "q.csv" });
    expect(created.total).toBe(2);
    expect((await finished(owner, webChatId, created.id)).completed).toBe(2);
  });

  it("reads a .csv saved as UTF-16 (Excel's Unicode text); refuses one in another encoding, saying so", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const text = "問題,標準答案\n營業時間？,九點到五點\n";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) new DataView(utf16.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    const created = await startBatch(owner, webChatId, { file: await upload(owner, "q.csv", utf16, "text/csv") });
    const items = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/items/">(
      await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${created.id}/items/`),
    );
    expect(items.results.map((i) => [i.question, i.expectedAnswer])).toEqual([["營業時間？", "九點到五點"]]);

    // The same questions in Big5: read as UTF-8 they were stored as U+FFFD.
    const big5 = new Uint8Array([0xb0, 0xdd, 0xc3, 0x44, 0x0a, 0xc0, 0xe7, 0xb7, 0x7e, 0xae, 0xc9, 0xb6, 0xa1, 0x0a]);
    const refused = await expectError(
      await owner.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, {
        file: await upload(owner, "big5.csv", big5, "text/csv"),
      }),
      400,
      "invalid",
    );
    expect(refused.errors).toHaveProperty("file");
    expect(refused.detail).toContain("UTF-8");
    expect(await countRows(env.DB, "batch_qas WHERE organization_id = ?", owner.organizationId)).toBe(1);
  });

  it("400 for a missing, foreign, empty or broken file (415 for another type), and nothing is written", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const stranger = await seedOwner();
    const cases: unknown[] = [
      {},
      { file: "" },
      { file: `uploads/${owner.organizationId}/batch-qa/${crypto.randomUUID()}/missing.csv` },
      { file: await upload(stranger, "theirs.csv", "Q?\n", "text/csv") },
      { file: await upload(owner, "empty.csv", "\n\n", "text/csv") },
      { file: await upload(owner, "broken.xlsx", "not a zip", XLSX) },
      { file: `uploads/${owner.organizationId}/../x.csv` },
    ];
    for (const body of cases)
      await expectError(await owner.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, body), 400);
    // Outside the batchQa file spec: 415, as for every upload.
    await expectError(
      await owner.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, {
        file: await upload(owner, "notes.txt", "Q?\n", "text/plain"),
      }),
      415,
    );
    expect(await countRows(env.DB, "batch_qas WHERE organization_id = ?", owner.organizationId)).toBe(0);
  });

  it("another member's upload is a key of nothing: only the caller's own file is run", async () => {
    const owner = await seedOwner();
    const { bot, webChatId } = await webChatWithBot(owner);
    const theirs = await upload(owner, "drafts.csv", "Our unannounced prices?\n", "text/csv");
    const manager = await seedMember(owner, ["chatbot.manage", "chatbot.view"]);
    // Given the assistant through a group: the file alone is what stands in the way.
    const given = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: manager.groupId }] });
    expect(given.status, await given.clone().text()).toBe(200);
    for (const file of [theirs, `http://localhost/api/v1/uploads/${theirs}`]) {
      const refused = await expectError(
        await manager.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, { file }),
        400,
        "invalid",
      );
      expect(refused.errors?.file).toEqual(["No uploaded object of your organization with this key."]);
    }
    expect(await countRows(env.DB, "batch_qas WHERE organization_id = ?", owner.organizationId)).toBe(0);
    const mine = await upload(manager, "mine.csv", "Hello?\n", "text/csv");
    expect((await startBatch(manager, webChatId, { file: mine })).total).toBe(1);
  });

  it("400 naming the file for a damaged .xlsx: a cell's character reference out of Unicode's range", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const sheet =
      '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Question</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>Where is &#99999999; my parcel?</t></is></c></row>' +
      "</sheetData></worksheet>";
    const bytes = zipSync({
      "[Content_Types].xml": strToU8("<Types/>"),
      "xl/workbook.xml": strToU8("<workbook/>"),
      "xl/worksheets/sheet1.xml": strToU8(sheet),
    });
    const file = await upload(owner, "q.xlsx", bytes, XLSX);
    const refused = await expectError(await owner.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, { file }), 400);
    expect(refused.detail).toContain("file: The workbook is damaged");
    expect(await countRows(env.DB, "batch_qas WHERE organization_id = ?", owner.organizationId)).toBe(0);
  });

  it("403 once the plan's words of the month are used, as for a completion, and nothing is written", async () => {
    const owner = await seedOwner();
    const { bot, webChatId } = await webChatWithBot(owner);
    await useWordsOfMonth(owner.organizationId);
    const completion = await owner.fetch(
      "POST",
      `/chatbots/${bot.id}/completions/`,
      { message: { content: "Where is my parcel?" } },
      { settings: TINY },
    );
    await expectError(completion, 403, "permission_denied");
    const file = await upload(owner, "q.csv", "question\nWhere is my parcel?\nWhen do you open?\n", "text/csv");
    const refused = await expectError(
      await owner.fetch("POST", `/web-chats/${webChatId}/batch-qas/`, { file }, { settings: TINY }),
      403,
      "permission_denied",
    );
    expect(refused.detail).toContain("words");
    expect(await countRows(env.DB, "batch_qas WHERE organization_id = ?", owner.organizationId)).toBe(0);
  });

  it("a run fails the questions still waiting once the plan's words of the month are used, saying why", async () => {
    const owner = await seedOwner();
    // The batch written while words remained; they are used before its job runs.
    const { webChatId, batch } = await unqueuedBatch(owner, [
      { question: "Where is my parcel?", expectedAnswer: null },
      { question: "When do you open?", expectedAnswer: null },
    ]);
    await useWordsOfMonth(owner.organizationId);
    expect(await runBatchQa(bindingsWith(TINY), db(), batch.id)).toBe(false);
    const items = await db().select().from(batchQaItems).where(eq(batchQaItems.batchQaId, batch.id));
    expect(items.map((i) => [i.status, i.answer])).toEqual([
      ["failed", null],
      ["failed", null],
    ]);
    for (const item of items) expect(item.error).toMatch(/^The Tiny plan's 5 words of \d{4}-\d{2} are used/);
    const shown = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/">(
      await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${batch.id}/`),
    );
    expect(shown).toMatchObject({ status: "done", total: 2, completed: 2, failed: 2 });
  });

  it("401, 403 without chatbot.manage / chatbot.view, 404 for another organization's web chat or batch", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const key = await upload(owner, "q.csv", "Hello?\n", "text/csv");
    const created = await startBatch(owner, webChatId, { file: key });
    const base = `/web-chats/${webChatId}/batch-qas/`;
    await expectError(await call("POST", `/api/v1${base}`, { file: key }), 401, "not_authenticated");
    await expectError(await call("GET", `/api${base}${created.id}/`), 401, "not_authenticated");
    const viewer = await seedMember(owner, ["inbox.view", "conversation.view"]);
    await expectDenied(await viewer.fetch("POST", base, { file: key }));
    await expectDenied(await viewer.fetch("GET", `${base}${created.id}/`));
    await expectDenied(await viewer.fetch("GET", `${base}${created.id}/export-excel/`));
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("POST", base, { file: key }));
    await expectNotFound(await stranger.fetch("GET", `${base}${created.id}/`));
    await expectNotFound(await stranger.fetch("GET", `${base}${created.id}/export-excel/`));
    await expectNotFound(await owner.fetch("GET", `${base}${NO_SUCH_ID}/`));
    const other = await webChatWithBot(owner);
    await expectNotFound(await owner.fetch("GET", `/web-chats/${other.webChatId}/batch-qas/${created.id}/`));
  });
});

describe("batch QA: GET /web-chats/{webchatPk}/batch-qas/ and GET .../{id}/items/", () => {
  it.each(PREFIXES)(
    "lists the web chat's runs newest first, and a run's questions in the file's order, as the export has them (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const { bot, webChatId } = await webChatWithBot(owner);
      const first = await startBatch(owner, webChatId, { file: await upload(owner, "a.csv", "One?\n", "text/csv") });
      const csv =
        "Question,Expected answer\n" +
        Array.from({ length: 25 }, (_, i) => `Question ${i + 1}?,You said: "Question ${i + 1}?".`).join("\n");
      const second = await startBatch(owner, webChatId, { file: await upload(owner, "b.csv", csv, "text/csv") });
      await finished(owner, webChatId, first.id);
      const done = await finished(owner, webChatId, second.id);

      const list = await ok<"GET /web-chats/{webchatPk}/batch-qas/">(
        await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/`, undefined, { prefix }),
      );
      expect(list).toMatchObject({ count: 2, next: null, previous: null });
      expect(list.results.map((b) => b.id)).toEqual([second.id, first.id]);
      expect(list.results[0]).toEqual(done);
      expect(list.results[1]).toMatchObject({
        filename: "a.csv",
        status: "done",
        chatbot: { id: bot.id, name: bot.name },
      });

      const page1 = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/items/">(
        await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${second.id}/items/?pageSize=20`, undefined, {
          prefix,
        }),
      );
      expect(page1.count).toBe(25);
      expect(page1.next).toContain("page=2");
      const page2 = await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/items/">(
        await owner.fetch(
          "GET",
          `/web-chats/${webChatId}/batch-qas/${second.id}/items/?page=2&page_size=20`,
          undefined,
          { prefix },
        ),
      );
      const items = [...page1.results, ...page2.results];
      expect(items.map((i) => i.position)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(items[0]).toMatchObject({
        question: "Question 1?",
        expectedAnswer: 'You said: "Question 1?".',
        status: "done",
        answer: 'You said: "Question 1?".',
        citations: [],
        answerCorrectness: 1,
      });
      const sheet = readXlsx(
        await (await owner.fetch("GET", `/web-chats/${webChatId}/batch-qas/${second.id}/export-excel/`)).arrayBuffer(),
      );
      items.forEach((item, i) => {
        expect([sheet[i + 1][1], sheet[i + 1][3], sheet[i + 1][5], sheet[i + 1][8]]).toEqual([
          item.question,
          item.answer,
          item.replyTime,
          item.answerCorrectness,
        ]);
      });
    },
  );

  it("a member with chatbot.view who may not see the run's assistant is not shown the run or its answers", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const created = await startBatch(owner, webChatId, {
      file: await upload(owner, "q.csv", "Secret question?\n", "text/csv"),
    });
    // Not given the assistant (no group of theirs has it): it does not exist for them, nor do its answers.
    const member = await seedMember(owner, ["chatbot.view", "inbox.view"]);
    await expectNotFound(await member.fetch("GET", `/chatbots/${created.chatbot.id}/`));
    const base = `/web-chats/${webChatId}/batch-qas/`;
    expect(await ok<"GET /web-chats/{webchatPk}/batch-qas/">(await member.fetch("GET", base))).toMatchObject({
      count: 0,
      results: [],
    });
    await expectNotFound(await member.fetch("GET", `${base}${created.id}/`));
    await expectNotFound(await member.fetch("GET", `${base}${created.id}/items/`));
    await expectNotFound(await member.fetch("GET", `${base}${created.id}/export-excel/`));
    // Given it through a group, they read the run.
    const given = await owner.fetch("PATCH", `/chatbots/${created.chatbot.id}/`, { groups: [{ id: member.groupId }] });
    expect(given.status, await given.clone().text()).toBe(200);
    expect((await ok<"GET /web-chats/{webchatPk}/batch-qas/">(await member.fetch("GET", base))).count).toBe(1);
    await ok<"GET /web-chats/{webchatPk}/batch-qas/{id}/">(await member.fetch("GET", `${base}${created.id}/`));
  });

  it("400 for a bad page, 401, 403 without chatbot.view, 404 for another organization's web chat or run", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatWithBot(owner);
    const created = await startBatch(owner, webChatId, { file: await upload(owner, "q.csv", "Hello?\n", "text/csv") });
    const base = `/web-chats/${webChatId}/batch-qas/`;
    await expectError(await owner.fetch("GET", `${base}?page=0`), 400, "invalid");
    await expectError(await owner.fetch("GET", `${base}${created.id}/items/?page=abc`), 400, "invalid");
    await expectError(await call("GET", `/api/v1${base}`), 401, "not_authenticated");
    await expectError(await call("GET", `/api${base}${created.id}/items/`), 401, "not_authenticated");
    const viewer = await seedMember(owner, ["inbox.view", "conversation.view"]);
    await expectDenied(await viewer.fetch("GET", base));
    await expectDenied(await viewer.fetch("GET", `${base}${created.id}/items/`));
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("GET", base));
    await expectNotFound(await stranger.fetch("GET", `${base}${created.id}/items/`));
    const other = await webChatWithBot(owner);
    await expectNotFound(await owner.fetch("GET", `/web-chats/${other.webChatId}/batch-qas/${created.id}/items/`));
    expect(
      await ok<"GET /web-chats/{webchatPk}/batch-qas/">(
        await owner.fetch("GET", `/web-chats/${other.webChatId}/batch-qas/`),
      ),
    ).toMatchObject({
      count: 0,
      results: [],
    });
  });
});
