import { sql } from "drizzle-orm";
import type { Bindings, Db } from "../../../env";
import type { chatbots, messages } from "../../../db/schema";
import type { KnowledgeBaseRow } from "../knowledge-bases";
import type { Passage } from "../../llm/types";
import { queryScope, type QueryMetadata } from "../query-scope";
import { searchKnowledge, type SearchHit } from "./search";
import { retrievalQuery } from "../../llm/local-context";
import { logError } from "../../../lib/log";

/** A passage as a message's `citationNodes[].node` shows it (the API's CitedPassage schema). */
export type CitedPassageNode = {
  id: string;
  type: SearchHit["type"];
  text: string;
  knowledgeBase: SearchHit["knowledgeBase"];
  knowledgeBaseFile: { id: string; filename: string } | null;
  chatbotFile: string | null;
  filename: string | null;
  pageNumber: number | null;
  pageStart: number | null;
  pageEnd: number | null;
  startCharIdx: number | null;
  endCharIdx: number | null;
  faq: SearchHit["faq"];
};

/** What a reply may cite: the passage for the model plus what the message record shows. */
export interface RetrievedPassage extends Passage {
  score: number;
  node: CitedPassageNode;
  file: Record<string, unknown> | null;
}

/** A passage as a reply's `citationNodes` lists it: the node, its score and the score as a percentage. */
export const citationNode = (p: RetrievedPassage) => ({
  node: p.node,
  score: p.score,
  displayScore: Math.round(p.score * 100),
});

/** The files of these passages, each once: a reply's `citations`. */
export function citedFiles(passages: RetrievedPassage[]) {
  const files = new Map<string, Record<string, unknown>>();
  for (const p of passages) if (p.file && typeof p.file.id === "string") files.set(p.file.id, p.file);
  return [...files.values()];
}

/**
 * Passages the assistant's knowledge bases hold for a message, best first: hybrid search with each
 * base's settings, at most the assistant's numberOfRetrievedChunks, restricted by the message's
 * queryMetadata, else its contact's. Retrieved text nodes and FAQs count a hit each. The search
 * text is the message with the other wordings of what it asks about, and, for a short or elliptic
 * follow-up, the visitor's previous question (`earlier`: their earlier messages, oldest first;
 * docs/decisions.md, "The built-in model's answer composition").
 */
export async function retrievePassages(
  env: Bindings,
  db: Db,
  chatbot: typeof chatbots.$inferSelect,
  message: typeof messages.$inferSelect,
  bases: KnowledgeBaseRow[],
  /** The contact's restrictions when the caller has them (else read from the conversation's contact). */
  contactMetadata?: QueryMetadata | null,
  earlier: string[] = [],
): Promise<RetrievedPassage[]> {
  if (!bases.length || !message.content.trim()) return [];
  const metadata =
    (message.queryMetadata as QueryMetadata | null) ??
    (contactMetadata !== undefined ? contactMetadata : await contactQueryMetadata(db, message.conversationId));
  const hits = await searchKnowledge(env, db, bases, {
    query: retrievalQuery(message.content, earlier),
    scope: queryScope(metadata),
    limit: chatbot.numberOfRetrievedChunks,
    languageModelId: chatbot.largeLanguageModelId,
  });
  // Counted beside the answer, not before it: D1 runs the update ahead of the reply's own write.
  if (hits.length) countHits(env, hits).catch((err) => logError("hit count failed", { error: String(err) }));
  return hits.map(toPassage);
}

async function contactQueryMetadata(db: Db, conversationId: string): Promise<QueryMetadata | null> {
  const [row] = await db.all<{ qm: string | null }>(
    sql`select c.query_metadata as qm from conversations as v join contacts as c on c.id = v.contact_id
      where v.id = ${conversationId}`,
  );
  return row?.qm ? (JSON.parse(row.qm) as QueryMetadata) : null;
}

async function countHits(env: Bindings, hits: SearchHit[]) {
  const ids = (type: SearchHit["type"]) => JSON.stringify(hits.filter((h) => h.type === type).map((h) => h.id));
  await env.DB.batch([
    env.DB.prepare(
      "update text_nodes set hits_count = hits_count + 1 where id in (select value from json_each(?))",
    ).bind(ids("text_node")),
    env.DB.prepare("update faqs set hits_count = hits_count + 1 where id in (select value from json_each(?))").bind(
      ids("faq"),
    ),
  ]);
}

const toPassage = (hit: SearchHit, i: number): RetrievedPassage => ({
  index: i + 1,
  text: hit.text,
  title: hit.file?.filename ?? hit.faq?.question,
  ...(hit.faq ? { faq: { question: hit.faq.question, answer: hit.faq.answer } } : {}),
  score: hit.score,
  node: {
    id: hit.id,
    type: hit.type,
    text: hit.nodeText,
    knowledgeBase: hit.knowledgeBase,
    knowledgeBaseFile: hit.file ? { id: hit.file.id, filename: hit.file.filename } : null,
    chatbotFile: hit.file?.id ?? null,
    filename: hit.file?.filename ?? null,
    pageNumber: hit.pageStart,
    pageStart: hit.pageStart,
    pageEnd: hit.pageEnd,
    startCharIdx: hit.startCharIdx,
    endCharIdx: hit.endCharIdx,
    faq: hit.faq,
  },
  file: hit.file
    ? {
        id: hit.file.id,
        filename: hit.file.filename,
        fileType: hit.file.fileType,
        size: hit.file.size,
        status: hit.file.status,
        knowledgeBase: hit.knowledgeBase,
        createdAt: String(hit.file.createdAt),
      }
    : null,
});
