import { sql } from "drizzle-orm";
import type { Db } from "../../env";
import type { KnowledgeBaseRow } from "../knowledge-bases";
import { splitSentences } from "../chunking";

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
  file: { id: string; filename: string; fileType: string; size: number; createdAt: number } | null;
  pageStart: number | null;
  pageEnd: number | null;
  startCharIdx: number | null;
  endCharIdx: number | null;
  faq: { id: string; question: string; answer: string } | null;
}

type Ranked = { id: string; type: "text_node" | "faq"; score: number; kb: KnowledgeBaseRow };

/** Reads the rows of ranked candidates (one query each for text nodes, FAQs and neighbours) and builds hits in rank order. */
export async function loadHits(db: Db, ranked: Ranked[]): Promise<SearchHit[]> {
  const nodeIds = JSON.stringify(ranked.filter((r) => r.type === "text_node").map((r) => r.id));
  const faqIds = JSON.stringify(ranked.filter((r) => r.type === "faq").map((r) => r.id));
  const [nodes, faqs] = await Promise.all([
    db.all<{ id: string; text: string; fileId: string; position: number; pageStart: number | null; pageEnd: number | null; start: number; end: number; filename: string; fileType: string; size: number; fileCreatedAt: number }>(sql`
      select t.id, t.text, t.file_id as fileId, t.position, t.page_start as pageStart, t.page_end as pageEnd, t.start_char_idx as start, t.end_char_idx as end,
             f.filename, f.file_type as fileType, f.size, f.created_at as fileCreatedAt
      from text_nodes as t join knowledge_base_files as f on f.id = t.file_id
      where t.id in (select value from json_each(${nodeIds}))`),
    db.all<{ id: string; question: string; answer: string }>(sql`select id, question, answer from faqs where id in (select value from json_each(${faqIds}))`),
  ]);
  const windowed = await sentenceWindows(db, nodes, new Map(ranked.map((r) => [r.id, r.kb.sentenceWindowSize])));
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
        text: windowed.get(node.id) ?? node.text,
        nodeText: node.text,
        knowledgeBase,
        file: { id: node.fileId, filename: node.filename, fileType: node.fileType, size: node.size, createdAt: node.fileCreatedAt },
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
 * Each text node widened by up to `window` sentences of the neighbouring nodes of its file (the
 * sentence window): chunks hold whole sentences, so the previous node's last sentences and the
 * next node's first ones are the sentences around the hit.
 */
async function sentenceWindows(db: Db, nodes: { id: string; text: string; fileId: string; position: number }[], windows: Map<string, number>) {
  const wanted = nodes.filter((n) => (windows.get(n.id) ?? 0) > 0);
  const out = new Map<string, string>();
  if (!wanted.length) return out;
  const keys = JSON.stringify(wanted.flatMap((n) => [[n.fileId, n.position - 1], [n.fileId, n.position + 1]]));
  const neighbours = await db.all<{ fileId: string; position: number; text: string }>(sql`
    select t.file_id as fileId, t.position, t.text from json_each(${keys}) as k
    join text_nodes as t on t.file_id = k.value ->> '$[0]' and t.position = k.value ->> '$[1]'`);
  const at = new Map(neighbours.map((n) => [`${n.fileId}:${n.position}`, n.text]));
  for (const n of wanted) {
    const size = windows.get(n.id)!;
    const before = splitSentences(at.get(`${n.fileId}:${n.position - 1}`) ?? "").slice(-size);
    const after = splitSentences(at.get(`${n.fileId}:${n.position + 1}`) ?? "").slice(0, size);
    out.set(n.id, [...before, n.text, ...after].join(" "));
  }
  return out;
}
