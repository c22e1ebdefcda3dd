/** queryMetadata: which knowledge a contact (or one message) may query. Pure, for retrieval too. */

export interface KnowledgeBaseSelection {
  knowledgeBaseId: string;
  /** Deprecated name of knowledgeBaseFileIds. */
  chatbotFileIds?: string[];
  knowledgeBaseFileIds?: string[];
  faqIds?: string[];
  hasUserSelectedAll: boolean;
}
export interface LabelRelation {
  labelId?: string;
  operator?: "AND" | "OR";
  conditions?: LabelRelation[];
}
export interface QueryMetadata {
  knowledgeBases?: KnowledgeBaseSelection[] | null;
  labelRelations?: LabelRelation | null;
}

export const LABEL_RELATION_MAX_DEPTH = 5;

/** `knowledgeBaseFileIds` wins over its old name `chatbotFileIds`, which is then dropped. */
export function normalizeQueryMetadata<T extends QueryMetadata>(qm: T): T {
  if (!qm.knowledgeBases) return qm;
  const knowledgeBases = qm.knowledgeBases.map(({ chatbotFileIds, ...kb }) => {
    const fileIds = kb.knowledgeBaseFileIds ?? chatbotFileIds;
    return fileIds === undefined ? kb : { ...kb, knowledgeBaseFileIds: fileIds };
  });
  return { ...qm, knowledgeBases };
}

export interface KnowledgeBaseScope {
  knowledgeBaseId: string;
  /** hasUserSelectedAll true: everything but the listed ids; false: the listed ids only. */
  selection: "all_except_listed" | "only_listed";
  knowledgeBaseFileIds: string[];
  faqIds: string[];
}
export type QueryScope =
  | { mode: "unrestricted" }
  | { mode: "none" }
  | { mode: "restricted"; knowledgeBases: KnowledgeBaseScope[]; labelRelations: LabelRelation | null };

/**
 * What retrieval may search (spec, Contact, queryMetadata rules 1-4): no `knowledgeBases` key means
 * no restriction; null or an empty array means nothing; otherwise the listed knowledge bases, each
 * narrowed by its ids. Label relations count only alongside `knowledgeBases` and when they have
 * conditions.
 */
export function queryScope(qm: QueryMetadata | null | undefined): QueryScope {
  if (!qm || qm.knowledgeBases === undefined) return { mode: "unrestricted" };
  if (qm.knowledgeBases === null || qm.knowledgeBases.length === 0) return { mode: "none" };
  const knowledgeBases = normalizeQueryMetadata(qm).knowledgeBases!.map((kb) => ({
    knowledgeBaseId: kb.knowledgeBaseId,
    selection: kb.hasUserSelectedAll ? ("all_except_listed" as const) : ("only_listed" as const),
    knowledgeBaseFileIds: kb.knowledgeBaseFileIds ?? [],
    faqIds: kb.faqIds ?? [],
  }));
  const labels = qm.labelRelations;
  return { mode: "restricted", knowledgeBases, labelRelations: labels?.conditions?.length ? labels : null };
}
