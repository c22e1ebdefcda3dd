// A conversation's messages as its object stores them (docs/decisions.md, "Messages in the conversation object"):
// raw rows with D1's column names and types, as `SELECT * FROM messages` answered when D1 held them.
import { env, runInDurableObject } from "cloudflare:test";
import { client } from "../../src/db/prepared";
import { conversationObject } from "../../src/services/conversations";
import { dataDbs } from "../../src/services/shards";

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
  // Those D1 still holds name their organization (none: nothing to take over).
  for (const data of dataDbs(env)) {
    const held = await client(data)
      .prepare("SELECT organization_id AS org FROM messages WHERE conversation_id = ? LIMIT 1")
      .bind(conversationId)
      .first<{ org: string }>();
    if (held) await stub.takeOver(held.org, conversationId);
  }
  return runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec(`SELECT * FROM messages WHERE conversation_id = ? AND (${where}) ORDER BY sequence`, conversationId)
      .toArray(),
  ) as Promise<T[]>;
}
