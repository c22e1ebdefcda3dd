import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { client } from "../../../src/db/prepared";
import { uuidv7 } from "../../../src/lib/ids";
import { newConversation } from "../../../src/services/conversations";
import {
  type FiguredAssistant,
  type FiguredMessage,
  messageFigureWrites,
  type Question,
} from "../../../src/services/statistics/message-figures";
import { rollBackTo } from "../../../src/services/statistics/rollup";
import { contactCopyWrites } from "../../../src/services/shards/contact-copies";
import { conversationData, data, fromEveryPart } from "../../harness";
import { type Body, listOf, type Operation, pageOf } from "../../support/api";
import { objectMessages } from "../../support/object-messages";
import { rateMessage } from "../../support/ratings";

/** The body of an answer of operation `K` once its status is `status` (without `K`: a body only compared whole). */
export async function ok<K extends Operation = never>(
  res: Response,
  status = 200,
): Promise<[K] extends [never] ? unknown : Body<K>> {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
}

/** A page of list `K` (which answers a plain series for some queries) once its status is 200. */
export async function okPage<K extends Operation>(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return pageOf<K>(res);
}

/** The plain series list `K` answers for some queries (a page for others), once its status is 200. */
export async function okList<K extends Operation>(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return listOf<K>(res);
}

/** What the figures take of an assistant, read as the conversation's writer reads it (message-figures.ts). */
export async function figuredAssistant(chatbotId: string): Promise<FiguredAssistant | null> {
  const row = await env.DB.prepare(
    "SELECT id, large_language_model_id AS largeLanguageModelId, enable_evaluation AS enableEvaluation " +
      "FROM chatbots WHERE id = ?",
  )
    .bind(chatbotId)
    .first<{ id: string; largeLanguageModelId: string; enableEvaluation: number }>();
  return row && { ...row, enableEvaluation: Boolean(row.enableEvaluation) };
}

export interface Turn {
  /** When the question was asked (ms); the reply follows `replyMs` later. */
  at: number;
  question?: string;
  answer?: string | null;
  replyMs?: number;
  feedback?: "like" | "dislike" | null;
  toolCalls?: number;
  inputTokens?: number;
  outputTokens?: number;
  words?: number;
  contactId?: string | null;
}

/**
 * A conversation of `chatbotId` written straight into its organization's data plane as the conversation object would
 * (each message with its figures' statements, statistics/message-figures.ts), with one question and reply per turn,
 * at the given times: in the part its id names, with a copy of its contact there when that is not the organization's
 * own shard (services/shards/contact-copies.ts), as the product writes a new conversation.
 */
export async function seedConversation(
  organizationId: string,
  chatbotId: string,
  inboxId: string,
  turns: Turn[],
  opts: { contactId?: string | null; createdById?: string | null; modelId?: string } = {},
): Promise<string> {
  const first = turns[0]?.at ?? Date.now();
  const conversation = newConversation(
    { organizationId, inboxId, chatbotId, contactId: opts.contactId ?? null, createdById: opts.createdById ?? null },
    uuidv7(),
    first,
  );
  const db = await conversationData(organizationId, conversation.id);
  const d1 = client(db);
  const statements: D1PreparedStatement[] = [
    ...(await contactCopyWrites(env, db, organizationId, conversation.id, conversation.contactId)),
    d1
      .prepare(
        "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, contact_id, created_by_id, " +
          "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(
        conversation.id,
        organizationId,
        inboxId,
        chatbotId,
        conversation.contactId,
        conversation.createdById,
        first,
        first,
      ),
  ];
  let sequence = 0;
  let question: Question | null = null;
  const assistant = await figuredAssistant(chatbotId);
  const insert = d1.prepare(
    "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, sender_id, " +
      "content, content_payload, citation_nodes, feedback, words_count, model_id, input_tokens, output_tokens, " +
      "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const store = (message: FiguredMessage) => {
    statements.push(
      insert.bind(
        message.id,
        organizationId,
        conversation.id,
        ++sequence,
        message.type,
        message.senderType,
        message.senderType === "chatbot" ? chatbotId : (opts.contactId ?? null),
        message.content,
        message.contentPayload ? JSON.stringify(message.contentPayload) : null,
        message.citationNodes ? JSON.stringify(message.citationNodes) : null,
        message.feedback ?? null,
        message.wordsCount,
        message.modelId ?? null,
        message.inputTokens ?? null,
        message.outputTokens ?? null,
        message.createdAt,
      ),
      ...messageFigureWrites(db, conversation, message, question, assistant),
    );
    if (message.type === "incoming") question = message;
  };
  for (const t of turns) {
    store({
      id: uuidv7(),
      type: "incoming",
      senderType: "contact",
      content: t.question ?? "question",
      wordsCount: 0,
      createdAt: t.at,
    });
    if (t.answer === null) continue;
    const toolCalls = Array.from({ length: t.toolCalls ?? 0 }, (_, i) => ({ id: `c${i}`, name: "tool" }));
    store({
      id: uuidv7(),
      type: "outgoing",
      senderType: "chatbot",
      content: t.answer ?? "answer",
      contentPayload: toolCalls.length ? { toolCalls } : null,
      citationNodes: [{ node: { text: "Refunds are possible within 30 days." }, score: 0.9 }],
      feedback: t.feedback ?? null,
      wordsCount: t.words ?? 2,
      modelId: opts.modelId ?? null,
      inputTokens: t.inputTokens ?? null,
      outputTokens: t.outputTokens ?? null,
      createdAt: t.at + (t.replyMs ?? 1000),
    });
  }
  await d1.batch(statements);
  // History written after its days were rolled up must be rolled up again (as an import would).
  await rollBackTo(d1, first);
  return conversation.id;
}

/** Rates the assistant's answers in `conversationId` as a visitor's rating is stored (services/widget/feedback.ts). */
export async function rateAnswers(conversationId: string, feedback: "like" | "dislike" | null) {
  for (const { id } of await objectMessages(conversationId, "sender_type = 'chatbot'"))
    await rateMessage(conversationId, id, feedback);
}

export async function seedContact(organizationId: string, name = "Ada"): Promise<string> {
  const id = uuidv7();
  await client(await data(organizationId))
    .prepare("INSERT INTO contacts (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
    .bind(id, organizationId, name, Date.now(), Date.now())
    .run();
  return id;
}

export const utc = (iso: string) => Date.parse(iso);

/**
 * One row of sums `sql` selects, added up over every part of the organization's data plane (each holds the rows of its
 * own conversations; a part without any sums to null, counted as 0).
 */
export async function sumOverParts<K extends string>(
  organizationId: string,
  sql: string,
  ...binds: unknown[]
): Promise<Record<K, number>> {
  const rows = await fromEveryPart(organizationId, async (part) => [
    (await client(part)
      .prepare(sql)
      .bind(...binds)
      .first<Record<K, number | null>>())!,
  ]);
  const sums = {} as Record<K, number>;
  for (const row of rows) for (const k of Object.keys(row) as K[]) sums[k] = (sums[k] ?? 0) + (row[k] ?? 0);
  return sums;
}
