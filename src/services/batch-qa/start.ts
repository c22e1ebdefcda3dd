// A new batch QA run of a web chat's assistant: its file read, the run and its questions stored, its first job queued.
import type { Bindings, Db } from "../../env";
import { badRequest } from "../../lib/errors";
import { requireAssistantAnswers } from "../assistant-refusal";
import type { UploadCaller } from "../uploads/usable";
import { readBatchQaFile } from "./file";
import { batchQaRecordOf, webChatAssistant } from "./views";
import { createBatchQa, startBatchQa } from ".";

/**
 * Starts a run of the questions in the upload `body.file` names against the web chat's assistant (400 when it has
 * none the caller may use) and returns its record; the run goes on in the queue, its first job queued in `waitUntil`.
 * Its point is the assistant's answers, as a completion's is: without words left this month, or on a lapsed plan, it
 * is refused before anything is read or stored.
 */
export async function startBatchQaRun(
  env: Bindings,
  db: Db,
  caller: UploadCaller,
  waitUntil: (p: Promise<unknown>) => void,
  webChatId: string,
  origin: string,
  body: { file: string; filename?: string },
) {
  const { access, userId } = caller;
  const { chatbot } = await webChatAssistant(db, access, userId, webChatId);
  if (!chatbot) throw badRequest("The web chat has no assistant (or not one you may use).");
  await requireAssistantAnswers(env, db, access.organizationId);
  const { key, filename, rows } = await readBatchQaFile(env, caller, origin, body);
  const batch = await createBatchQa(
    env.DB,
    {
      organizationId: access.organizationId,
      webChatId,
      chatbotId: chatbot.id,
      createdById: userId,
      file: key,
      filename,
    },
    rows,
  );
  waitUntil(startBatchQa(env, db, batch.id));
  return batchQaRecordOf(db, batch, chatbot.name);
}
