import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { belongsTo, evaluationScores, id, json, timestamps } from "./columns";

export const BATCH_QA_STATUSES = ["pending", "running", "done", "failed"] as const;

/**
 * Batch QA: a spreadsheet of questions (optionally with expected answers) run through a web chat's
 * assistant in the background (queue `chatbot-evaluation`, job kind `batchQa`), without storing
 * conversations; each item keeps the answer, its citations, reply time and scores.
 */
export const batchQas = sqliteTable(
  "batch_qas",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    webChatId: text("web_chat_id").notNull(),
    chatbotId: text("chatbot_id").notNull(),
    createdById: text("created_by_id").notNull(),
    file: text("file").notNull(),
    filename: text("filename").notNull(),
    status: text("status", { enum: BATCH_QA_STATUSES }).notNull().default("pending"),
    total: integer("total").notNull().default(0),
    completed: integer("completed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    ...timestamps(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("batch_qas_web_chat_idx").on(t.webChatId, t.createdAt)],
);

export const BATCH_QA_ITEM_STATUSES = ["pending", "done", "failed"] as const;

export const batchQaItems = sqliteTable(
  "batch_qa_items",
  {
    id: id(),
    batchQaId: belongsTo("batch_qa_id", () => batchQas.id),
    organizationId: belongsTo("organization_id", () => organizations.id),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    expectedAnswer: text("expected_answer"),
    status: text("status", { enum: BATCH_QA_ITEM_STATUSES }).notNull().default("pending"),
    answer: text("answer"),
    citations: json<Record<string, unknown>[]>("citations"),
    replyMs: integer("reply_ms"),
    error: text("error"),
    ...evaluationScores(),
    answeredAt: integer("answered_at"),
  },
  (t) => [uniqueIndex("batch_qa_items_position_uq").on(t.batchQaId, t.position)],
);
