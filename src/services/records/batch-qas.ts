import { ms } from "../../lib/time";
import type { BatchQaItemRow, BatchQaRow } from "../batch-qa";

export interface BatchQaRecord {
  id: string;
  webChat: { id: string };
  chatbot: { id: string; name: string };
  file: string;
  filename: string;
  status: BatchQaRow["status"];
  total: number;
  completed: number;
  failed: number;
  progress: number;
  averageAnswerCorrectness: number | null;
  createdAt: string;
  finishedAt: string | null;
}

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

export interface BatchQaItemRecord {
  id: string;
  position: number;
  question: string;
  expectedAnswer: string | null;
  status: BatchQaItemRow["status"];
  answer: string | null;
  citations: string[];
  replyTime: number | null;
  error: string | null;
  answerCorrectness: number | null;
  answerSimilarity: number | null;
  faithfulness: number | null;
  answerRelevancy: number | null;
  contextPrecision: number | null;
  contextRecall: number | null;
}

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
