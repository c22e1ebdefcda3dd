import { env } from "cloudflare:workers";
import { searchTerms } from "../../src/services/knowledge/retrieval/terms";

/**
 * Waits until the `conversation-terms` queue has written the terms of `content` for the conversation
 * (its consumer takes batches every second): a search finds a message from then on.
 */
export async function searchable(conversationId: string, content: string, timeoutMs = 15_000) {
  const wanted = JSON.stringify(searchTerms(content));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await env.DB.prepare(
      "SELECT count(*) = json_array_length(?2) AS done FROM conversation_terms " +
        "WHERE conversation_id = unhex(replace(?1, '-', '')) AND term IN (SELECT value FROM json_each(?2))",
    )
      .bind(conversationId, wanted)
      .first<{ done: number }>();
    if (row?.done) return;
    if (Date.now() > deadline) throw new Error(`the terms of "${content}" were not written in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
