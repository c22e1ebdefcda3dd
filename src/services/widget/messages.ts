import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../env";
import { messages, type WebChatSettings } from "../../db/schema";
import { cursorWindow } from "../../db/paginate";
import { messageRecord, type MessageRecord } from "../records/messages";
import type { MessageRow } from "../conversations";

/** A source of an answer as a visitor sees it: no ids of knowledge bases or files. */
export interface PublicCitation {
  index: number;
  title: string;
  snippet: string;
  page: number | null;
}

/** A message as the widget shows it: what the visitor may see and nothing internal (no ids of other resources). */
export interface PublicMessage {
  id: string;
  conversation: string;
  sequence: number;
  role: "visitor" | "assistant" | "agent";
  senderName: string;
  senderAvatar: string | null;
  content: string;
  feedback: string | null;
  citations: PublicCitation[];
  toolResults: { name: string; status: string; output: string }[];
  /** Files sent with the message: names and kinds only (no URLs, no ids). */
  attachments: { filename: string; type: string }[];
  createdAt: string;
}

/** The messages a visitor may read: every one but operators' private notes (the live stream leaves them out too: durable-objects/conversation.ts). */
export const visitorVisible = () => eq(messages.private, false);

const SNIPPET = 280;
const str = (v: unknown) => (typeof v === "string" ? v : "");

function citationsOf(m: MessageRecord): PublicCitation[] {
  return m.citationNodes.map((entry, i) => {
    const node = (entry.node ?? {}) as Record<string, unknown>;
    const faq = node.faq as { question?: string } | null | undefined;
    const text = str(node.text);
    return {
      index: i + 1,
      title: str(node.filename) || str(faq?.question) || `Source ${i + 1}`,
      snippet: text.length > SNIPPET ? `${text.slice(0, SNIPPET - 1)}…` : text,
      page: typeof node.pageStart === "number" ? node.pageStart : null,
    };
  });
}

function toolResultsOf(m: MessageRecord): PublicMessage["toolResults"] {
  const calls = (m.contentPayload?.toolCalls ?? []) as Record<string, unknown>[];
  if (!Array.isArray(calls)) return [];
  return calls.map((call) => {
    const output = typeof call.output === "string" ? call.output : JSON.stringify(call.output ?? "");
    return {
      name: str(call.name) || str((call.tool as Record<string, unknown> | undefined)?.name),
      status: str(call.status) || "success",
      output: output.slice(0, 2000),
    };
  });
}

/** The public form of a message record or row, honouring the web chat's display switches. */
export function publicMessage(message: MessageRecord | MessageRow, settings: WebChatSettings): PublicMessage {
  const m = "conversationId" in message ? messageRecord(message) : message;
  const role = m.senderType === "contact" ? "visitor" : m.senderType === "chatbot" ? "assistant" : "agent";
  return {
    id: m.id,
    conversation: m.conversation,
    sequence: m.sequence,
    role,
    senderName: m.sender.name,
    senderAvatar: m.sender.avatar,
    content: m.content,
    feedback: m.feedback,
    citations: role === "assistant" && settings.enableDisplayCitations ? citationsOf(m) : [],
    toolResults: role === "assistant" && settings.enableDisplayToolResults ? toolResultsOf(m) : [],
    attachments: (m.attachments as unknown[])
      .filter((a): a is Record<string, unknown> => !!a && typeof a === "object")
      .map((a) => ({ filename: str(a.filename) || "file", type: str(a.type) || "other" })),
    createdAt: m.createdAt,
  };
}

/**
 * A conversation's latest `pageSize` visible messages before sequence `before`, oldest first, and
 * whether older ones exist (the widget's history reads backwards from the newest).
 */
export async function conversationHistory(
  db: Db,
  conversationId: string,
  settings: WebChatSettings,
  before: number | undefined,
  pageSize: number,
): Promise<{ results: PublicMessage[]; hasMore: boolean }> {
  const w = cursorWindow([messages.sequence], "desc", before ? { k: before, d: "n" } : null, [before], pageSize);
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), visitorVisible(), w.after))
    .orderBy(...w.orderBy)
    .limit(w.limit);
  const page = rows.slice(0, pageSize).reverse();
  return { results: page.map((m) => publicMessage(m, settings)), hasMore: rows.length > pageSize };
}

/** The first `limit` visible messages of a conversation, oldest first, in their public form. */
export async function firstPublicMessages(
  db: Db,
  conversationId: string,
  settings: WebChatSettings,
  limit: number,
): Promise<PublicMessage[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), visitorVisible()))
    .orderBy(asc(messages.sequence))
    .limit(limit);
  return rows.map((m) => publicMessage(m, settings));
}

/** The assistant's reply `messageId` stored in this conversation, if any. */
export async function storedReply(db: Db, conversationId: string, messageId: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(eq(messages.id, messageId), eq(messages.conversationId, conversationId), eq(messages.senderType, "chatbot")),
    );
  return row;
}
