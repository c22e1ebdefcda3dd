import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { uuidv7 } from "../../../src/lib/ids";
import { rollBackTo } from "../../../src/services/statistics/rollup";
import { expectError } from "../../harness";
import { type Body, listOf, type Operation, pageOf, problemOf } from "../../support/api";

/** The body of an answer of operation `K` once its status is `status` (without `K`: a body only compared whole). */
export async function ok<K extends Operation = never>(
  res: Response,
  status = 200,
): Promise<[K] extends [never] ? unknown : Body<K>> {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
}

/** A 400 whose errors name `field` (among others, if any). */
export async function expectInvalid(res: Response, field: string) {
  const body = await problemOf(res.clone());
  await expectError(res, 400);
  expect(Object.keys(body.errors ?? {})).toContain(field);
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
 * A conversation of `chatbotId` written straight into D1 as the conversation object would (the
 * triggers keep the counters), with one question and reply per turn, at the given times.
 */
export async function seedConversation(
  organizationId: string,
  chatbotId: string,
  inboxId: string,
  turns: Turn[],
  opts: { contactId?: string | null; createdById?: string | null; modelId?: string } = {},
): Promise<string> {
  const conversationId = uuidv7();
  const first = turns[0]?.at ?? Date.now();
  const statements: D1PreparedStatement[] = [
    env.DB.prepare(
      "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, contact_id, created_by_id, " +
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).bind(
      conversationId,
      organizationId,
      inboxId,
      chatbotId,
      opts.contactId ?? null,
      opts.createdById ?? null,
      first,
      first,
    ),
  ];
  let sequence = 0;
  const insert = env.DB.prepare(
    "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, sender_id, " +
      "content, content_payload, citation_nodes, feedback, words_count, model_id, input_tokens, output_tokens, " +
      "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const t of turns) {
    statements.push(
      insert.bind(
        uuidv7(),
        organizationId,
        conversationId,
        ++sequence,
        "incoming",
        "contact",
        opts.contactId ?? null,
        t.question ?? "question",
        null,
        null,
        null,
        0,
        null,
        null,
        null,
        t.at,
      ),
    );
    if (t.answer === null) continue;
    const payload = t.toolCalls
      ? JSON.stringify({ toolCalls: Array.from({ length: t.toolCalls }, (_, i) => ({ id: `c${i}`, name: "tool" })) })
      : null;
    const nodes = JSON.stringify([{ node: { text: "Refunds are possible within 30 days." }, score: 0.9 }]);
    statements.push(
      insert.bind(
        uuidv7(),
        organizationId,
        conversationId,
        ++sequence,
        "outgoing",
        "chatbot",
        chatbotId,
        t.answer ?? "answer",
        payload,
        nodes,
        t.feedback ?? null,
        t.words ?? 2,
        opts.modelId ?? null,
        t.inputTokens ?? null,
        t.outputTokens ?? null,
        t.at + (t.replyMs ?? 1000),
      ),
    );
  }
  await env.DB.batch(statements);
  // History written after its days were rolled up must be rolled up again (as an import would).
  await rollBackTo(env.DB, first);
  return conversationId;
}

export async function seedContact(organizationId: string, name = "Ada"): Promise<string> {
  const id = uuidv7();
  await env.DB.prepare(
    "INSERT INTO contacts (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(id, organizationId, name, Date.now(), Date.now())
    .run();
  return id;
}

export const utc = (iso: string) => Date.parse(iso);
