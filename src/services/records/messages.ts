import { ms } from "../../lib/time";
import type { MessageRow } from "../conversations";

type Json = Record<string, unknown>;

/** The message record of CONTRACT section 7, as routes, the conversation object and webhooks give it. */
export interface MessageRecord {
  id: string;
  conversation: string;
  sequence: number;
  sender: { id: string | null; name: string; avatar: string | null };
  senderType: MessageRow["senderType"];
  type: MessageRow["type"];
  content: string;
  contentPayload: Json | null;
  feedback: string | null;
  attachments: Json[];
  citations: Json[];
  citationNodes: Json[];
  canvas: Json | null;
  metadata: Json;
  queryMetadata: Json | null;
  skillIds: string[];
  toolIds: string[];
  usage: { promptTokens: number; completionTokens: number } | null;
  createdAt: string;
}

export const messageRecord = (m: MessageRow): MessageRecord => ({
  id: m.id,
  conversation: m.conversationId,
  sequence: m.sequence,
  sender: { id: m.senderId, name: m.senderName, avatar: m.senderAvatar },
  senderType: m.senderType,
  type: m.type,
  content: m.content,
  contentPayload: m.contentPayload ?? null,
  feedback: m.feedback,
  attachments: m.attachments ?? [],
  citations: m.citations ?? [],
  citationNodes: m.citationNodes ?? [],
  canvas: m.canvas ?? null,
  metadata: m.metadata ?? {},
  queryMetadata: m.queryMetadata ?? null,
  skillIds: m.skillIds ?? [],
  toolIds: m.toolIds ?? [],
  // Tokens the model reported for an assistant's reply (null for other messages and models that report none).
  usage: m.inputTokens == null && m.outputTokens == null ? null : { promptTokens: m.inputTokens ?? 0, completionTokens: m.outputTokens ?? 0 },
  createdAt: ms(m.createdAt)!,
});
