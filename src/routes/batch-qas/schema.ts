import { z } from "@hono/zod-openapi";
import { IdName, uuidParam } from "../../lib/openapi";

export const BATCH_QA_TAG = "Batch QA";

export const WebChatParams = z.object({ webchatPk: uuidParam("webchatPk", "Web chat id") });
export const BatchQaParams = WebChatParams.extend({ id: uuidParam("id", "Batch QA id") });

export const BatchQaCreateBody = z
  .object({
    file: z.string().min(1).max(2000).openapi({
      description:
        "Key of an uploaded .xlsx or .csv (upload-presigned-url with modelName `batch-qa`), or its URL on this service",
      example:
        "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/batch-qa/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e/questions.xlsx",
    }),
    filename: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: "Name of the file (default: the key's last part)", example: "questions.xlsx" }),
  })
  .openapi("BatchQaCreate");

export const BatchQaSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    webChat: z
      .object({ id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }) })
      .openapi({ description: "The web chat whose assistant answers" }),
    chatbot: IdName,
    file: z.string().openapi({ description: "The uploaded file's key", example: "uploads/.../questions.xlsx" }),
    filename: z.string().openapi({ example: "questions.xlsx" }),
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
    createdAt: z.string().openapi({ example: "1767225600000" }),
    finishedAt: z.string().nullable().openapi({ example: null }),
  })
  .openapi("BatchQa");

const score = (description: string) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${description} (0..1; null when not scored)`, example: 0.8 });

export const BatchQaItemSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    position: z.number().int().openapi({ description: "Row of the question in the file, from 1", example: 1 }),
    question: z.string().openapi({ example: "How do I reset my password?" }),
    expectedAnswer: z.string().nullable().openapi({ example: "From the sign-in page, choose “Forgot password”." }),
    status: z.enum(["pending", "done", "failed"]).openapi({ example: "done" }),
    answer: z
      .string()
      .nullable()
      .openapi({ description: "The assistant's answer", example: "Choose “Forgot password” on the sign-in page." }),
    citations: z
      .array(z.string())
      .openapi({ description: "File names of the passages the answer cites", example: ["handbook.pdf"] }),
    replyTime: z.number().nullable().openapi({ description: "Seconds the answer took", example: 1.25 }),
    error: z.string().nullable().openapi({ example: null }),
    answerCorrectness: score("Against the expected answer"),
    answerSimilarity: score("Against the expected answer"),
    faithfulness: score("To the retrieved passages"),
    answerRelevancy: score("To the question"),
    contextPrecision: score("Of the retrieved passages"),
    contextRecall: score("Of the retrieved passages, against the expected answer"),
  })
  .openapi("BatchQaItem");
