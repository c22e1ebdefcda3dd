// A conversation's messages as its object stores them (docs/decisions.md, "Messages in the conversation object"):
// raw rows with D1's column names and types, as `SELECT * FROM messages` answered when D1 held them.
import { env, runInDurableObject } from "cloudflare:test";
import { conversationObject } from "../../src/services/conversations";

export type StoredMessage = Record<string, unknown> & {
  id: string;
  sequence: number;
  type: string;
  sender_type: string;
  content: string;
  created_at: number;
};

/** Every message of the conversation, oldest first: those D1 still holds taken over by the object first. */
export async function objectMessages<T = StoredMessage>(conversationId: string, where = "1"): Promise<T[]> {
  const stub = conversationObject(env, conversationId);
  await stub.takeOver(conversationId);
  return runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec(`SELECT * FROM messages WHERE conversation_id = ? AND (${where}) ORDER BY sequence`, conversationId)
      .toArray(),
  ) as Promise<T[]>;
}
