import type { Bindings, Db } from "../../env";
import type { models } from "../../db/schema";
import { modelById } from "../models";
import { answering, chatModelFor } from "./index";
import { ModelError, type ChatEvent, type ChatModel, type ChatRequest } from "./types";
import { logWarn } from "../../lib/log";

type ModelRow = typeof models.$inferSelect;

/** A chat model that can say, once it has answered, whether the assistant's fallback did (the reply's `model_id`). */
export interface AnsweringModel extends ChatModel {
  /** The fallback's id once it has answered a request; undefined while the primary answers. */
  fallbackAnswered(): string | undefined;
}

/**
 * How a reply speaks to whichever model answers: agent replies wrap each in the tool protocol that
 * model understands (`nativeToolCalling`), so a switch mid-loop still speaks the right one.
 */
export type ModelAdapter = (row: ModelRow, model: ChatModel) => ChatModel;

/**
 * The assistant's model with its optional fallback (`fallbackLargeLanguageModel`): when the primary
 * fails before its first event (a 500, a 429 or a lost connection past its retries, a time-out, a
 * model that cannot be used as configured), the same request goes to the fallback. Once the model
 * has yielded anything the failure stays the primary's: switching would repeat or contradict what
 * the client already has. A reply that asks several times (an agent's rounds, a workflow's steps)
 * keeps the fallback once it has answered, rather than paying the primary's retries at each step.
 * The fallback's record is read only when it is needed. An assistant whose model no longer exists (`assistantModel`
 * null) cannot answer in any reply mode: 400.
 */
export function replyModel(
  env: Bindings,
  db: Db,
  assistantModel: ModelRow | null,
  fallbackId: string | null,
  adapt: ModelAdapter = (_, model) => model,
): AnsweringModel {
  if (!assistantModel) throw new ModelError("The assistant's language model no longer exists.", 400);
  const primary = assistantModel;
  let switchedTo: ModelRow | undefined;
  const clients = new Map<string, Promise<ChatModel>>(); // one per model and reply: an agent asks once per round
  return {
    fallbackAnswered: () => switchedTo?.id,
    stream: (request) =>
      switchedTo
        ? ask(switchedTo, request)
        : fallbackId && fallbackId !== primary.id
          ? withFallback(request)
          : ask(primary, request),
  };

  function client(row: ModelRow): Promise<ChatModel> {
    let model = clients.get(row.id);
    // An answer that says nothing is the model's fault here, where it would be the assistant's reply.
    if (!model) clients.set(row.id, (model = chatModelFor(env, row).then(answering)));
    return model;
  }

  /** The request to one model; `onFirst` hears the model's own first event (not the adapter's, which may hold text
   * back). */
  async function* ask(row: ModelRow, request: ChatRequest, onFirst?: () => void): AsyncGenerator<ChatEvent> {
    const model = await client(row);
    yield* adapt(row, onFirst ? heard(model, onFirst) : model).stream(request);
  }

  async function* withFallback(request: ChatRequest): AsyncGenerator<ChatEvent> {
    let answered = false;
    try {
      yield* ask(primary, request, () => (answered = true));
      return;
    } catch (err) {
      if (answered || !(err instanceof ModelError) || request.signal?.aborted) throw err;
      const row = await modelById(db, fallbackId!);
      if (!row) throw err;
      logWarn("model fallback", { model: primary.id, fallback: row.id, detail: err.message });
      switchedTo = row;
      yield* ask(row, request);
    }
  }
}

function heard(model: ChatModel, onFirst: () => void): ChatModel {
  return {
    async *stream(request) {
      for await (const event of model.stream(request)) {
        onFirst();
        yield event;
      }
    },
  };
}
