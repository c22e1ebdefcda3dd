import type { Bindings, Db } from "../env";
import type { chatbots, messages } from "../db/schema";
import type { Passage } from "./llm/types";

/** What a reply may cite: the passage for the model plus what the message record shows. */
export interface RetrievedPassage extends Passage {
  score: number;
  node: Record<string, unknown>;
  file: Record<string, unknown> | null;
}

/**
 * Passages an assistant's knowledge bases hold for a message, best first. Knowledge bases are not
 * built yet (issue 5), so nothing is retrievable and every reply is answered without sources.
 */
export async function retrievePassages(
  _env: Bindings,
  _db: Db,
  _chatbot: typeof chatbots.$inferSelect,
  _message: typeof messages.$inferSelect,
): Promise<RetrievedPassage[]> {
  return [];
}
