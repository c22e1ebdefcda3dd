// Reading one text node, and changing a file's passages by hand (the console's text node editor): a node's text
// rewritten and indexed again, or the node removed, with its keyword, FTS and vector entries. A reparse of the
// file replaces its nodes, edited or not, with the parser's.
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { knowledgeBaseFiles, knowledgeBases, textNodes } from "../../db/schema";
import { cursorWindow, type PageWindow, paginate } from "../../db/paginate";
import { badRequest, notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { decodeCursor } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { visibleKnowledgeBasesCondition, type KnowledgeBaseRow } from "./knowledge-bases";
import { embedderOf } from "./content";
import { modelApiError } from "../llm/errors";
import { refreshKnowledgeBaseEmbedding } from "./embeddings/knowledge-base";
import { indexKeywordTexts, removeKeywordTexts } from "./retrieval/knowledge-index";
import { indexedTerms } from "./retrieval/terms";
import { vectorStoreFor } from "./vector-store";
import { fileLabels, type NodeFile } from "./files";
import { legacyTextNodeRecord, textNodeRecord, type TextNodeRow } from "../records/text-nodes";

const fileNodes = (file: NodeFile, query: string | undefined) =>
  and(eq(textNodes.fileId, file.id), query ? contains(textNodes.text, query) : undefined);

/** A page of a file's nodes in document order (the newer form), those containing `query` when given. */
export async function listTextNodes(db: Db, file: NodeFile, query: string | undefined, window: PageWindow) {
  const where = fileNodes(file, query);
  const [page, labels] = await Promise.all([
    paginate(window, db.select({ n: count() }).from(textNodes).where(where), ({ limit, offset }) =>
      db.select().from(textNodes).where(where).orderBy(asc(textNodes.position)).limit(limit).offset(offset),
    ),
    fileLabels(db, [file.id]),
  ]);
  return {
    count: page.count,
    items: page.items.map((row) => textNodeRecord(row, file, labels(file.id), query)),
  };
}

/**
 * `pageSize + 1` of a file's nodes from the cursor `after` on (the older form, for `cursorResponse` keyed by
 * `position`), with the cursor read (400 for one no page of nodes gave). The cursor walks `position`, unique within a
 * file, so pages neither skip nor repeat a node.
 */
export async function listLegacyTextNodes(
  db: Db,
  file: NodeFile,
  query: string | undefined,
  after: string | undefined,
  pageSize: number,
) {
  const cursor = decodeCursor(after);
  if (cursor && !Number.isInteger(Number(cursor.k)))
    throw badRequest("Invalid cursor.", { cursor: ["Invalid cursor."] });
  const w = cursorWindow([textNodes.position], "asc", cursor, [Number(cursor?.k)], pageSize);
  const rows = await db
    .select()
    .from(textNodes)
    .where(and(fileNodes(file, query), w.after))
    .orderBy(...w.orderBy)
    .limit(w.limit);
  return { cursor, rows: rows.map((row) => ({ position: row.position, record: legacyTextNodeRecord(row, file) })) };
}

/** A node with its file and knowledge base, in one query: 404 when its knowledge base is not visible to the caller. */
export async function getVisibleTextNode(db: Db, access: OrgAccess, userId: string, id: string) {
  const [found] = isUuid(id)
    ? await db
        .select({
          node: textNodes,
          file: {
            id: knowledgeBaseFiles.id,
            filename: knowledgeBaseFiles.filename,
            rawUserDefineMetadata: knowledgeBaseFiles.rawUserDefineMetadata,
          },
          kb: knowledgeBases,
        })
        .from(textNodes)
        .innerJoin(knowledgeBaseFiles, eq(knowledgeBaseFiles.id, textNodes.fileId))
        .innerJoin(knowledgeBases, eq(knowledgeBases.id, textNodes.knowledgeBaseId))
        .where(and(eq(textNodes.id, id), visibleKnowledgeBasesCondition(access, userId)))
    : [];
  if (!found) throw notFound("Text node not found.");
  return found;
}

/**
 * Rewrites a node's text and indexes it again: FTS (with the row, atomically), the base's keyword index, its vector
 * and the built-in embedding. The text is embedded before anything is written, so a provider that fails (502) leaves
 * the node as it was rather than its new text beside its old vector. A node deleted meanwhile is a 404 with nothing
 * left indexed: its UPDATE matches no row, or, deleted while this indexed it, what was added is removed again (the
 * delete may have cleared the index before this wrote to it), so a deleted passage never crowds out live ones.
 */
export async function rewriteTextNode(
  env: Bindings,
  db: Db,
  kb: KnowledgeBaseRow,
  node: TextNodeRow,
  text: string,
): Promise<TextNodeRow> {
  const { embedder, values } = await embedDocument(env, db, kb, text);
  const now = Date.now();
  const [updated] = await env.DB.batch<{ id: string }>([
    env.DB.prepare("update text_nodes set text = ?2, updated_at = ?3 where id = ?1 returning id").bind(
      node.id,
      text,
      now,
    ),
    env.DB.prepare("delete from text_nodes_fts where rowid = (select rowid from text_nodes where id = ?1)").bind(
      node.id,
    ),
    env.DB.prepare("insert into text_nodes_fts (rowid, terms) select rowid, ?2 from text_nodes where id = ?1").bind(
      node.id,
      indexedTerms(text, kb.id),
    ),
  ]);
  if (!updated.results.length) throw notFound("Text node not found.");
  const indexed = { id: node.id, type: "text_node" as const, sourceId: node.fileId, text };
  await indexKeywordTexts(env, kb.id, [indexed]);
  await vectorStoreFor(env).upsert(kb.id, [{ id: node.id, values, type: "text_node", sourceId: node.fileId }]);
  await refreshKnowledgeBaseEmbedding(env, db, embedder, [indexed]);
  const [still] = await db.select({ id: textNodes.id }).from(textNodes).where(eq(textNodes.id, node.id));
  if (!still) {
    await Promise.all([vectorStoreFor(env).deleteByIds(kb.id, [node.id]), removeKeywordTexts(env, kb.id, [node.id])]);
    throw notFound("Text node not found.");
  }
  return { ...node, text, updatedAt: now };
}

/** A text's document vector from the base's embedding model; a provider's failure as the API reports it (502). */
async function embedDocument(env: Bindings, db: Db, kb: KnowledgeBaseRow, text: string) {
  try {
    const embedder = await embedderOf(env, db, kb);
    const [values] = await embedder.embed([text], "document");
    return { embedder, values };
  } catch (err) {
    throw modelApiError(err);
  }
}

/** Removes a node (its FTS row goes by trigger) and its file's count of it, then its vector and keyword entries. */
export async function deleteTextNode(env: Bindings, db: Db, node: TextNodeRow) {
  await db.batch([
    db.delete(textNodes).where(and(eq(textNodes.id, node.id), eq(textNodes.knowledgeBaseId, node.knowledgeBaseId))),
    db
      .update(knowledgeBaseFiles)
      .set({
        // Each node holds an equal share of the file's vector bytes.
        vectorStorageSize: sql`case when ${knowledgeBaseFiles.chunksCount} > 0
          then ${knowledgeBaseFiles.vectorStorageSize}
            - ${knowledgeBaseFiles.vectorStorageSize} / ${knowledgeBaseFiles.chunksCount}
          else 0 end`,
        chunksCount: sql`max(${knowledgeBaseFiles.chunksCount} - 1, 0)`,
      })
      .where(eq(knowledgeBaseFiles.id, node.fileId)),
  ]);
  await Promise.all([
    vectorStoreFor(env).deleteByIds(node.knowledgeBaseId, [node.id]),
    removeKeywordTexts(env, node.knowledgeBaseId, [node.id]),
  ]);
}
