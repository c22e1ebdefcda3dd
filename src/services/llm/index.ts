import type { Bindings } from "../../env";
import type { models } from "../../db/schema";
import { localChatModel } from "./local";
import { ModelError, type ChatEvent, type ChatModel, type ChatRequest, type Usage } from "./types";

export * from "./types";

type ModelRow = typeof models.$inferSelect;

/** The chat model behind a registered model record (STYLE 6: chosen by record, never by test flags). */
export async function chatModelFor(env: Bindings, row: ModelRow): Promise<ChatModel> {
  switch (row.provider) {
    case "local":
      return localChatModel;
    default:
      throw new ModelError(`Provider ${row.provider} is not available.`, 400);
  }
}

/** Runs a chat to the end and returns its text and usage. */
export async function complete(model: ChatModel, request: ChatRequest): Promise<{ content: string; usage: Usage | null }> {
  let content = "";
  let usage: Usage | null = null;
  for await (const event of model.stream(request) as AsyncIterable<ChatEvent>) {
    if (event.type === "delta") content += event.text;
    else usage = event.usage;
  }
  return { content, usage };
}
