import { sql } from "drizzle-orm";
import type { Db } from "../../../env";
import type { KnowledgeBaseRow } from "../knowledge-bases";
import { sentenceSpans } from "../chunking";

/** One retrieved passage with what a search result or a citation shows of it. */
export interface SearchHit {
  type: "text_node" | "faq";
  id: string;
  /** 0..1, the final score of the search. */
  score: number;
  /** The passage as retrieved: a text node widened by its sentence window, or an FAQ's question and answer. */
  text: string;
  /** The text node's own text (no window), or the FAQ's answer. */
  nodeText: string;
  knowledgeBase: { id: string; name: string };
  /** A text node's file; `status` is its processing status now (a file being reparsed keeps its passages till then). */
  file: { id: string; filename: string; fileType: string; size: number; status: string; createdAt: number } | null;
  pageStart: number | null;
  pageEnd: number | null;
  startCharIdx: number | null;
  endCharIdx: number | null;
  faq: { id: string; question: string; answer: string } | null;
}

type Ranked = { id: string; type: "text_node" | "faq"; score: number; kb: KnowledgeBaseRow };
type NodeRow = {
  id: string;
  text: string;
  fileId: string;
  pageStart: number | null;
  pageEnd: number | null;
  start: number;
  end: number;
  filename: string;
  fileType: string;
  size: number;
  fileStatus: string;
  fileCreatedAt: number;
  previous: string | null;
  next: string | null;
};

/** Reads the rows of ranked candidates and builds hits in rank order. */
export async function loadHits(db: Db, ranked: Ranked[]): Promise<SearchHit[]> {
  const nodeList = ranked.filter((r) => r.type === "text_node").map((r) => r.id);
  const faqList = ranked.filter((r) => r.type === "faq").map((r) => r.id);
  const nodeIds = JSON.stringify(nodeList);
  const faqIds = JSON.stringify(faqList);
  // One query for the text nodes with their files and neighbours (for the sentence window), one for
  // FAQs; none for a kind without results (each query is a round trip to D1).
  const [nodes, faqs] = await Promise.all([
    !nodeList.length
      ? []
      : db.all<NodeRow>(sql`
      select t.id, t.text, t.file_id as fileId, t.page_start as pageStart, t.page_end as pageEnd,
             t.start_char_idx as start, t.end_char_idx as end,
             f.filename, f.file_type as fileType, f.size, f.status as fileStatus, f.created_at as fileCreatedAt,
             p.text as previous, n.text as next
      from text_nodes as t join knowledge_base_files as f on f.id = t.file_id
      left join text_nodes as p on p.file_id = t.file_id and p.position = t.position - 1
      left join text_nodes as n on n.file_id = t.file_id and n.position = t.position + 1
      where t.id in (select value from json_each(${nodeIds}))`),
    !faqList.length
      ? []
      : db.all<{ id: string; question: string; answer: string }>(
          sql`select id, question, answer from faqs where id in (select value from json_each(${faqIds}))`,
        ),
  ]);
  const windowOf = new Map(ranked.map((r) => [r.id, r.kb.sentenceWindowSize]));
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const faqById = new Map(faqs.map((f) => [f.id, f]));
  const hits: SearchHit[] = [];
  for (const r of ranked) {
    const knowledgeBase = { id: r.kb.id, name: r.kb.name };
    const node = nodeById.get(r.id);
    if (node) {
      hits.push({
        type: "text_node",
        id: node.id,
        score: r.score,
        text: widen(node, windowOf.get(node.id) ?? 0),
        nodeText: node.text,
        knowledgeBase,
        file: {
          id: node.fileId,
          filename: node.filename,
          fileType: node.fileType,
          size: node.size,
          status: node.fileStatus,
          createdAt: node.fileCreatedAt,
        },
        pageStart: node.pageStart,
        pageEnd: node.pageEnd,
        startCharIdx: node.start,
        endCharIdx: node.end,
        faq: null,
      });
    }
    const faq = faqById.get(r.id);
    if (faq) {
      hits.push({
        type: "faq",
        id: faq.id,
        score: r.score,
        text: `${faq.question}\n${faq.answer}`,
        nodeText: faq.answer,
        knowledgeBase,
        file: null,
        pageStart: null,
        pageEnd: null,
        startCharIdx: null,
        endCharIdx: null,
        faq,
      });
    }
  }
  return hits;
}

/**
 * A text node widened by up to `size` sentences of its neighbours in the file (the sentence
 * window): chunks hold whole sentences, so the previous node's last sentences and the next node's
 * first ones are the sentences around the hit.
 */
function widen(node: NodeRow, size: number): string {
  if (size <= 0) return node.text;
  // Cut from the neighbours' own text, so that their line breaks stay: a title on a line of its own
  // would otherwise run into the sentence after it ("… free. Shipping We ship …").
  const previous = node.previous ?? "";
  const spans = sentenceSpans(previous);
  const before = spans.length ? previous.slice(spans[Math.max(0, spans.length - size)].start) : "";
  const next = node.next ?? "";
  const following = sentenceSpans(next);
  const after = following.length ? next.slice(0, following[Math.min(size, following.length) - 1].end) : "";
  return [before, node.text, after].filter(Boolean).join(" ");
}
