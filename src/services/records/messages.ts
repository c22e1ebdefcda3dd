import { ms } from "../../lib/time";
import type { MessageRow } from "../conversations";
import type { CitedPassageNode } from "../knowledge/retrieval";

import { stored, type JsonObject as Json } from "../../lib/json";
/** A passage a reply was given: written only by replies, from their retrieved passages
 * (services/conversation/replies.ts, agent/). */
export type CitationNodeRecord = { node: CitedPassageNode; score: number; displayScore: number };

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
  citationNodes: CitationNodeRecord[];
  canvas: Json | null;
  metadata: Json;
  queryMetadata: Json | null;
  skillIds: string[];
  toolIds: string[];
  usage: { promptTokens: number; completionTokens: number } | null;
  /** An operator's private note: the team sees it, the visitor, channels and message webhooks never do. */
  private: boolean;
  createdAt: string;
}

export const messageRecord = (m: MessageRow): MessageRecord => ({
  id: m.id,
  conversation: m.conversationId,
  sequence: m.sequence,
  // A reply row built by the conversation object lacks the columns it leaves empty (avatar, feedback): the record has
  // them, null.
  sender: { id: m.senderId, name: m.senderName, avatar: m.senderAvatar ?? null },
  senderType: m.senderType,
  type: m.type,
  content: m.content,
  contentPayload: stored(m.contentPayload) ?? null,
  feedback: m.feedback ?? null,
  attachments: (m.attachments ?? []).map(stored),
  citations: (m.citations ?? []).map(stored),
  citationNodes: (m.citationNodes ?? []) as CitationNodeRecord[],
  canvas: stored(m.canvas) ?? null,
  metadata: stored(m.metadata) ?? {},
  queryMetadata: stored(m.queryMetadata) ?? null,
  skillIds: m.skillIds ?? [],
  toolIds: m.toolIds ?? [],
  // Tokens the model reported for an assistant's reply (null for other messages and models that report none).
  usage:
    m.inputTokens == null && m.outputTokens == null
      ? null
      : { promptTokens: m.inputTokens ?? 0, completionTokens: m.outputTokens ?? 0 },
  private: m.private ?? false,
  createdAt: ms(m.createdAt)!,
});
