// Reading a conversation's messages for the API: one message, or a cursor page over the conversation's sequence.
import type { Bindings } from "../env";
import { notFound } from "../lib/errors";
import type { Cursor } from "../lib/pagination";
import type { MessageLookup, VisibleWindow } from "../../durable-objects/conversation-store";
import { conversationObject, type MessageRow } from "./conversations";
import { messageRecord, type MessageRecord } from "./records/messages";
import { withLiveLinks } from "./uploads/message-links";

/**
 * The reads of one of the organization's conversation's messages, answered by its object from its store (none for
 * another organization's conversation). The rows are the schema's, structured-cloned: the RPC's types make the JSON
 * columns' `unknown` unserializable, so they are named here.
 */
export function storedMessages(env: Bindings, organizationId: string, conversationId: string) {
  const stub = conversationObject(env, conversationId);
  /** Each lookup's message, or null, in one read. */
  const lookup = async (lookups: MessageLookup[]) =>
    (await stub.lookupMessages(organizationId, conversationId, lookups)) as unknown as (MessageRow | null)[];
  return {
    lookup,
    find: async (id: string) => (await lookup([{ id }]))[0],
    visible: async (window: VisibleWindow) =>
      (await stub.visibleMessages(organizationId, conversationId, window)) as unknown as MessageRow[],
  };
}

/**
 * One message of one of the organization's conversations, read by the conversation's object, its attachments' links
 * live (withLiveLinks: `origin` is the request's); 404 otherwise.
 */
export async function findMessage(
  env: Bindings,
  origin: string,
  organizationId: string,
  conversationId: string,
  id: string,
) {
  const row = await storedMessages(env, organizationId, conversationId).find(id);
  if (!row) throw notFound();
  const [message] = await withLiveLinks(env, origin, [messageRecord(row)]);
  return message;
}

/**
 * `pageSize + 1` messages of one of the organization's conversations from the cursor on, newest first (for
 * `cursorResponse`, keyed by `sequence`), read by the conversation's object from its own store (its `listMessages`),
 * their attachments' links live (withLiveLinks: `origin` is the request's).
 */
export const listMessages = async (
  env: Bindings,
  origin: string,
  organizationId: string,
  conversationId: string,
  cursor: Cursor | null,
  pageSize: number,
): Promise<MessageRecord[]> =>
  withLiveLinks(
    env,
    origin,
    await conversationObject(env, conversationId).listMessages(organizationId, conversationId, cursor, pageSize),
  );

/** The platform chat a message came from (`metadata.channel.threadKey`: services/channels/intake.ts). */
export const threadKeyOf = (message: MessageRow) =>
  (message.metadata as { channel?: { threadKey?: string } } | null)?.channel?.threadKey as string;
