import { ms } from "../../lib/time";
import type { BatchQaRow } from "../batch-qa";

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

export const batchQaRecord = (r: BatchQaRow, chatbotName: string, averageAnswerCorrectness: number | null): BatchQaRecord => ({
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
  averageAnswerCorrectness: averageAnswerCorrectness === null ? null : Math.round(averageAnswerCorrectness * 1000) / 1000,
  createdAt: ms(r.createdAt)!,
  finishedAt: ms(r.finishedAt),
});
