import type { Bindings, Db } from "../../env";
import type { models } from "../../db/schema";
import { modelById } from "../models";
import { chatModelFor } from "./index";
import { ModelError, type ChatEvent, type ChatModel, type ChatRequest } from "./types";

type ModelRow = typeof models.$inferSelect;

/** A chat model that can say, once it has answered, which registered model did (the reply's `model_id`). */
export interface AnsweringModel extends ChatModel {
  answeredBy(): string | null;
}

/**
 * The assistant's model with its optional fallback (`fallbackLargeLanguageModel`): when the primary
 * fails before its first event (a 500, a 429 or a lost connection past its retries, a time-out, a
 * model that cannot be used as configured), the same request goes to the fallback. Once anything has
 * been yielded the failure stays the primary's: switching would repeat or contradict what the
 * client already has. The fallback's record is read only when it is needed.
 */
export function replyModel(env: Bindings, db: Db, primary: ModelRow, fallbackId: string | null): AnsweringModel {
  let answeredBy: string | null = primary.id;
  return {
    answeredBy: () => answeredBy,
    stream: (request) => (fallbackId && fallbackId !== primary.id ? withFallback(request) : direct(request)),
  };

  async function* direct(request: ChatRequest): AsyncGenerator<ChatEvent> {
    yield* (await chatModelFor(env, primary)).stream(request);
  }

  async function* withFallback(request: ChatRequest): AsyncGenerator<ChatEvent> {
    let yielded = false;
    try {
      for await (const event of direct(request)) {
        yielded = true;
        yield event;
      }
      return;
    } catch (err) {
      if (yielded || !(err instanceof ModelError) || request.signal?.aborted) throw err;
      const row = await modelById(db, fallbackId!);
      if (!row) throw err;
      console.warn(JSON.stringify({ level: "warn", message: "model fallback", model: primary.id, fallback: row.id, detail: err.message }));
      answeredBy = row.id;
      yield* (await chatModelFor(env, row)).stream(request);
    }
  }
}
