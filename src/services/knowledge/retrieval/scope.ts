import type { Db } from "../../../env";
import { sql } from "drizzle-orm";
import type { KnowledgeBaseScope, LabelRelation, QueryScope } from "../query-scope";

/**
 * What may be retrieved from one knowledge base: `sources` are file ids (for text nodes) and FAQ ids.
 * `allow` null means every source; `deny` lists sources taken out. `nothing` means skip the base.
 */
export interface SourceFilter {
  nothing: boolean;
  allow: Set<string> | null;
  deny: Set<string>;
}

const EVERYTHING: SourceFilter = { nothing: false, allow: null, deny: new Set() };
const NOTHING: SourceFilter = { nothing: true, allow: null, deny: new Set() };

/**
 * A contact's (or message's) queryMetadata applied to one knowledge base (spec, Contact, rules 1-4):
 * unrestricted means everything; `none` (an empty or null list) means nothing; a restricted scope
 * that does not list the base means nothing from it; a listed base with `hasUserSelectedAll` gives
 * everything but the listed ids, without it only the listed ids (none listed: nothing). Label
 * relations then keep only sources whose labels satisfy them; conditions naming labels of other
 * knowledge bases are left out for this one, and if none remain, labels do not filter it.
 */
export async function sourceFilter(db: Db, scope: QueryScope, knowledgeBaseId: string): Promise<SourceFilter> {
  if (scope.mode === "unrestricted") return EVERYTHING;
  if (scope.mode === "none") return NOTHING;
  const entry = scope.knowledgeBases.find((kb) => kb.knowledgeBaseId === knowledgeBaseId);
  if (!entry) return NOTHING;
  const filter = idFilter(entry);
  if (filter.nothing || !scope.labelRelations) return filter;
  const [labelled, defined] = await Promise.all([
    sourcesByLabel(db, knowledgeBaseId),
    db.all<{ id: string }>(sql`select id from knowledge_base_labels where knowledge_base_id = ${knowledgeBaseId}`),
  ]);
  const known = new Set(defined.map((l) => l.id));
  const relation = prune(scope.labelRelations, known);
  if (!relation) return filter;
  const passing = new Set<string>();
  // Sources without labels pass only an expression that accepts the empty label set (never: every
  // condition asks for a label), so only labelled sources need checking.
  for (const [source, labels] of labelled) if (holds(relation, labels)) passing.add(source);
  const allow = filter.allow ? new Set([...filter.allow].filter((s) => passing.has(s))) : passing;
  return allow.size ? { nothing: false, allow, deny: filter.deny } : NOTHING;
}

function idFilter(entry: KnowledgeBaseScope): SourceFilter {
  const ids = [...entry.knowledgeBaseFileIds, ...entry.faqIds];
  if (entry.selection === "all_except_listed") return { nothing: false, allow: null, deny: new Set(ids) };
  return ids.length ? { nothing: false, allow: new Set(ids), deny: new Set() } : NOTHING;
}

/** Labels of each labelled file and FAQ of the knowledge base. */
async function sourcesByLabel(db: Db, knowledgeBaseId: string): Promise<Map<string, Set<string>>> {
  const rows = await db.all<{ source: string; label: string }>(sql`
    select l.file_id as source, l.label_id as label from knowledge_base_file_labels as l
      join knowledge_base_files as f on f.id = l.file_id where f.knowledge_base_id = ${knowledgeBaseId}
    union all
    select l.faq_id, l.label_id from faq_labels as l
      join faqs as q on q.id = l.faq_id where q.knowledge_base_id = ${knowledgeBaseId}`);
  const out = new Map<string, Set<string>>();
  for (const r of rows) out.set(r.source, (out.get(r.source) ?? new Set()).add(r.label));
  return out;
}

/** The relation with only conditions on `known` labels; null when nothing is left. */
function prune(relation: LabelRelation, known: Set<string>): LabelRelation | null {
  if (relation.labelId !== undefined && !relation.conditions) return known.has(relation.labelId) ? relation : null;
  const conditions = (relation.conditions ?? [])
    .map((c) => prune(c, known))
    .filter((c): c is LabelRelation => c !== null);
  return conditions.length ? { operator: relation.operator ?? "AND", conditions } : null;
}

function holds(relation: LabelRelation, labels: Set<string>): boolean {
  if (!relation.conditions) return relation.labelId !== undefined && labels.has(relation.labelId);
  return relation.operator === "OR"
    ? relation.conditions.some((c) => holds(c, labels))
    : relation.conditions.every((c) => holds(c, labels));
}

export const allows = (filter: SourceFilter, source: string) =>
  !filter.nothing && !filter.deny.has(source) && (!filter.allow || filter.allow.has(source));
