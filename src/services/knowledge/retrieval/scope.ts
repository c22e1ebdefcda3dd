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
 * knowledge bases are left out for this one, and if none remain, labels do not filter it. A label
 * that no longer exists (deleted, or never of this organization) matches nothing: it is a
 * restriction, so it must fail closed rather than be left out, which would open the base.
 */
export async function sourceFilter(db: Db, scope: QueryScope, knowledgeBaseId: string): Promise<SourceFilter> {
  if (scope.mode === "unrestricted") return EVERYTHING;
  if (scope.mode === "none") return NOTHING;
  const entry = scope.knowledgeBases.find((kb) => kb.knowledgeBaseId === knowledgeBaseId);
  if (!entry) return NOTHING;
  const filter = idFilter(entry);
  if (filter.nothing || !scope.labelRelations) return filter;
  const [labelled, bases] = await Promise.all([
    sourcesByLabel(db, knowledgeBaseId),
    labelBases(db, scope.labelRelations, knowledgeBaseId),
  ]);
  const relation = prune(scope.labelRelations, (labelId) => {
    const base = bases.get(labelId);
    return base === undefined ? "missing" : base === knowledgeBaseId ? "own" : "elsewhere";
  });
  if (relation === LEFT_OUT) return filter;
  if (relation === MATCHES_NOTHING) return NOTHING;
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

/** A condition of no effect on this knowledge base: it names only labels of other bases. */
const LEFT_OUT = "left out";
/** A condition no source satisfies: it names a label that does not exist (deleted, or of another organization). */
const MATCHES_NOTHING = "matches nothing";
type Pruned = LabelRelation | typeof LEFT_OUT | typeof MATCHES_NOTHING;
type LabelOwner = "own" | "elsewhere" | "missing";

/** The knowledge base of each label the relation names, among the organization's (of `knowledgeBaseId`). */
async function labelBases(db: Db, relation: LabelRelation, knowledgeBaseId: string): Promise<Map<string, string>> {
  const ids = new Set<string>();
  const collect = (r: LabelRelation) => {
    if (r.labelId !== undefined) ids.add(r.labelId);
    r.conditions?.forEach(collect);
  };
  collect(relation);
  if (!ids.size) return new Map();
  const rows = await db.all<{ id: string; base: string }>(sql`
    select l.id, l.knowledge_base_id as base from knowledge_base_labels as l
      join knowledge_bases as k on k.id = l.knowledge_base_id
    where l.id in (select value from json_each(${JSON.stringify([...ids])}))
      and k.organization_id = (select organization_id from knowledge_bases where id = ${knowledgeBaseId})`);
  return new Map(rows.map((r) => [r.id, r.base]));
}

/**
 * The relation as it applies to this knowledge base (docs/decisions.md, "Knowledge bases and
 * retrieval", queryMetadata): conditions on other bases' labels are left out (a group of only such
 * is left out too); a label that no longer exists matches nothing, so an AND holding one matches
 * nothing and an OR loses that branch only. Leaving such a label out instead would widen the
 * restriction when a label is deleted, down to no label filter at all.
 */
function prune(relation: LabelRelation, ownerOf: (labelId: string) => LabelOwner): Pruned {
  if (relation.labelId !== undefined && !relation.conditions) {
    const owner = ownerOf(relation.labelId);
    return owner === "own" ? relation : owner === "elsewhere" ? LEFT_OUT : MATCHES_NOTHING;
  }
  const kept = (relation.conditions ?? []).map((c) => prune(c, ownerOf)).filter((c) => c !== LEFT_OUT);
  if (!kept.length) return LEFT_OUT;
  const operator = relation.operator ?? "AND";
  if (operator === "AND" && kept.includes(MATCHES_NOTHING)) return MATCHES_NOTHING;
  const conditions = kept.filter((c): c is LabelRelation => c !== MATCHES_NOTHING);
  return conditions.length ? { operator, conditions } : MATCHES_NOTHING;
}

function holds(relation: LabelRelation, labels: Set<string>): boolean {
  if (!relation.conditions) return relation.labelId !== undefined && labels.has(relation.labelId);
  return relation.operator === "OR"
    ? relation.conditions.some((c) => holds(c, labels))
    : relation.conditions.every((c) => holds(c, labels));
}

export const allows = (filter: SourceFilter, source: string) =>
  !filter.nothing && !filter.deny.has(source) && (!filter.allow || filter.allow.has(source));
