// A chat completion of the AI gateway answered: the organization's model asked, its answer as OpenAI's chat
// completion object or streamed as OpenAI's chunks, and counted (usage.ts) once it is complete.
import type { Bindings, Db } from "../../env";
import { ApiError } from "../../lib/errors";
import { chatModelFor, complete, modelApiError } from "../llm";
import { requireAssistantAnswers } from "../assistant-refusal";
import { findChatModel } from "./access";
import { chatRequest, completionHead, completionRecord, streamChunks, usageOf } from "./completion";
import { eventStream } from "./event-stream";
import type { ChatCompletionInput, ChatCompletionRecord } from "./schema";
import { type GatewayAnswer, recordGatewayAnswer } from "./usage";

/** Who asks, and the request as logged: an unexpected failure mid-stream is logged with its id and path. */
export interface GatewayRequest {
  organizationId: string;
  userId: string;
  requestId: string;
  path: string;
  waitUntil: (p: Promise<unknown>) => void;
}

/**
 * Answers `body` with the model it names (the organization's or a built-in one: 404 when none): the completion object,
 * or with `stream` a text/event-stream response of chunks. Its words count towards the month's, so once they are used
 * (or the plan lapsed) it is refused as a completion is (403). The answer is counted in `waitUntil` once complete
 * (streamed: once the stream ends, cut or not). `data`: the organization's data plane, where usage is counted.
 */
export async function answerChatCompletion(
  env: Bindings,
  db: Db,
  data: Db,
  req: GatewayRequest,
  body: ChatCompletionInput,
): Promise<ChatCompletionRecord | Response> {
  const [row] = await Promise.all([
    findChatModel(db, req.organizationId, body.model),
    requireAssistantAnswers(env, db, req.organizationId),
  ]);
  const model = await chatModelFor(env, row).catch((err) => {
    throw modelApiError(err);
  });
  const abort = new AbortController();
  const request = chatRequest(body, abort.signal);
  const head = completionHead(row.name);
  const caller = { organizationId: req.organizationId, userId: req.userId, modelId: row.id };
  const record = (answer: GatewayAnswer) => recordGatewayAnswer(data, caller, answer);

  if (!body.stream) {
    const answer = await complete(model, request).catch((err) => {
      throw modelApiError(err);
    });
    req.waitUntil(record(answer));
    return completionRecord(head, answer, usageOf(answer.usage, request, answer.content));
  }

  const unexpected = (err: unknown) => {
    console.error(
      JSON.stringify({
        level: "error",
        requestId: req.requestId,
        path: req.path,
        message: String(err),
        stack: (err as Error)?.stack,
      }),
    );
    return new ApiError(500, "server_error", "A server error occurred.");
  };
  const includeUsage = body.streamOptions?.includeUsage === true;
  const { response, finished } = eventStream(abort, (send) =>
    streamChunks(model, request, head, includeUsage, send, unexpected),
  );
  req.waitUntil(finished.then(record));
  return response;
}
