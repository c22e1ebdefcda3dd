import { z } from "@hono/zod-openapi";
import { IdName } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { BatchQaItemRow, BatchQaRow } from "../batch-qa";

export const BatchQaSchema = z
  .object({
    id: z.string().openapi({ description: "The run's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    webChat: z
      .object({
        id: z.string().openapi({ description: "The web chat's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
      })
      .openapi({ description: "The web chat whose assistant answers" }),
    chatbot: IdName,
    file: z.string().openapi({ description: "The uploaded file's key", example: "uploads/.../questions.xlsx" }),
    filename: z.string().openapi({ description: "The uploaded file's name, as uploaded", example: "questions.xlsx" }),
    status: z.enum(["pending", "running", "done", "failed"]).openapi({
      description: "pending, running, done, or failed (the assistant no longer exists)",
      example: "running",
    }),
    total: z.number().int().openapi({ description: "Questions in the file", example: 120 }),
    completed: z.number().int().openapi({ description: "Questions answered or failed so far", example: 45 }),
    failed: z.number().int().openapi({ description: "Questions whose answer failed", example: 0 }),
    progress: z.number().openapi({ description: "completed / total, 0..1", example: 0.375 }),
    averageAnswerCorrectness: z.number().nullable().openapi({
      description: "Mean answerCorrectness of the answered questions with an expected answer",
      example: 0.81,
    }),
    createdAt: z
      .string()
      .openapi({ description: "When the run was started, milliseconds since the epoch", example: "1767225600000" }),
    finishedAt: z.string().nullable().openapi({
      description: "When it ended (done or failed), milliseconds since the epoch; null while pending or running",
      example: null,
    }),
  })
  .openapi("BatchQa");

const score = (description: string) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${description} (0..1; null when not scored)`, example: 0.8 });

export const BatchQaItemSchema = z
  .object({
    id: z.string().openapi({ description: "The question's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    position: z.number().int().openapi({ description: "Row of the question in the file, from 1", example: 1 }),
    question: z
      .string()
      .openapi({ description: "The question, as the file has it", example: "How do I reset my password?" }),
    expectedAnswer: z.string().nullable().openapi({
      description:
        "The answer the file expects; null when its row has none (the answer is then not scored against one)",
      example: "From the sign-in page, choose “Forgot password”.",
    }),
    status: z
      .enum(["pending", "done", "failed"])
      .openapi({ description: "pending (not asked yet), done (answered) or failed (see error)", example: "done" }),
    answer: z
      .string()
      .nullable()
      .openapi({ description: "The assistant's answer", example: "Choose “Forgot password” on the sign-in page." }),
    citations: z
      .array(z.string())
      .openapi({ description: "File names of the passages the answer cites", example: ["handbook.pdf"] }),
    replyTime: z.number().nullable().openapi({ description: "Seconds the answer took", example: 1.25 }),
    error: z.string().nullable().openapi({ description: "Why the answer failed; null unless failed", example: null }),
    answerCorrectness: score("Against the expected answer"),
    answerSimilarity: score("Against the expected answer"),
    faithfulness: score("To the retrieved passages"),
    answerRelevancy: score("To the question"),
    contextPrecision: score("Of the retrieved passages"),
    contextRecall: score("Of the retrieved passages, against the expected answer"),
  })
  .openapi("BatchQaItem");

export type BatchQaRecord = z.infer<typeof BatchQaSchema>;

export const batchQaRecord = (
  r: BatchQaRow,
  chatbotName: string,
  averageAnswerCorrectness: number | null,
): BatchQaRecord => ({
  id: r.id,
  webChat: { id: r.webChatId },
  chatbot: { id: r.chatbotId, name: chatbotName },
  file: r.file,
  filename: r.filename,
  status: r.status,
  total: r.total,
  completed: r.completed,
  failed: r.failed,
  progress: r.total ? Math.round((r.completed / r.total) * 1000) / 1000 : 1,
  averageAnswerCorrectness:
    averageAnswerCorrectness === null ? null : Math.round(averageAnswerCorrectness * 1000) / 1000,
  createdAt: ms(r.createdAt)!,
  finishedAt: ms(r.finishedAt),
});

export type BatchQaItemRecord = z.infer<typeof BatchQaItemSchema>;

/** The file names a stored reply cites (the spreadsheet export lists the same). */
export const citedFiles = (citations: BatchQaItemRow["citations"]) =>
  (citations ?? []).map((f) => String((f as { filename?: unknown }).filename ?? "")).filter(Boolean);

export const batchQaItemRecord = (i: BatchQaItemRow): BatchQaItemRecord => ({
  id: i.id,
  position: i.position,
  question: i.question,
  expectedAnswer: i.expectedAnswer,
  status: i.status,
  answer: i.answer,
  citations: citedFiles(i.citations),
  replyTime: i.replyMs === null ? null : i.replyMs / 1000,
  error: i.error,
  answerCorrectness: i.answerCorrectness,
  answerSimilarity: i.answerSimilarity,
  faithfulness: i.faithfulness,
  answerRelevancy: i.answerRelevancy,
  contextPrecision: i.contextPrecision,
  contextRecall: i.contextRecall,
});
