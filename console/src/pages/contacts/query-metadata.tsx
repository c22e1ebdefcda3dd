// A contact's `queryMetadata` in words: which knowledge bases (by name, where the member may list them), what of each
// (files and FAQs by count), and the label rule, with the stored JSON on demand.
import { api, otherwise, unwrap } from "../../api/client";
import { choicesOf } from "../../api/choices";
import { useResource } from "../../components";
import { can } from "../../shell/session";
import { t } from "./strings";

interface Selection {
  knowledgeBaseId: string;
  knowledgeBaseFileIds?: string[];
  chatbotFileIds?: string[];
  faqIds?: string[];
  hasUserSelectedAll?: boolean;
}
interface Rule {
  labelId?: string;
  operator?: "AND" | "OR";
  conditions?: Rule[];
}
interface QueryMetadata {
  knowledgeBases?: Selection[] | null;
  labelRelations?: Rule | null;
}

/** Names of the knowledge bases and their labels the member may read (ids stand in for the others). */
async function namesFor(organizationId: string, selections: Selection[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!selections.length || !can("knowledge_base.view")) return names;
  for (const kb of (await choicesOf("knowledgeBases", organizationId).catch(otherwise(null))) ?? [])
    names.set(kb.id, kb.name);
  const labels = await Promise.all(
    selections.map((s) =>
      unwrap(
        api.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/labels/", {
          params: { path: { knowledgeBaseId: s.knowledgeBaseId }, query: { pageSize: 100 } },
        }),
      ).then((p) => p.results, otherwise([])),
    ),
  );
  for (const label of labels.flat()) names.set(label.id, label.name);
  return names;
}

/** What of a knowledge base: everything, nothing, only the listed files and FAQs, or all but them. */
function scopeText(s: Selection): string {
  const files = (s.knowledgeBaseFileIds ?? s.chatbotFileIds ?? []).length;
  const faqs = (s.faqIds ?? []).length;
  const parts = [files ? t("files", { n: files }) : "", faqs ? t("faqs", { n: faqs }) : ""].filter(Boolean);
  const items = parts.length === 2 ? t("and", { a: parts[0], b: parts[1] }) : parts[0];
  if (s.hasUserSelectedAll) return items ? t("kbExcept", { items }) : t("kbEverything");
  return items ? t("kbOnly", { items }) : t("kbNothing");
}

/** The label rule as a sentence: names joined by "and"/"or", nested groups in brackets. */
function ruleText(rule: Rule, names: Map<string, string>, nested = false): string {
  if (rule.labelId) return names.get(rule.labelId) ?? rule.labelId.slice(0, 8);
  const joined = (rule.conditions ?? [])
    .map((c) => ruleText(c, names, true))
    .join(` ${t(rule.operator === "AND" ? "opAND" : "opOR")} `);
  return nested && (rule.conditions?.length ?? 0) > 1 ? `(${joined})` : joined;
}

export function QueryMetadataView({
  value,
  organizationId,
}: {
  value: Record<string, unknown> | null;
  organizationId: string;
}) {
  const qm = (value ?? {}) as QueryMetadata;
  const selections = qm.knowledgeBases ?? [];
  const names = useResource(() => namesFor(organizationId, selections), [organizationId, JSON.stringify(value)]);
  const name = (id: string) => names.data?.get(id) ?? id;
  const rule = qm.labelRelations?.conditions?.length ? qm.labelRelations : null;
  return (
    <>
      {!("knowledgeBases" in qm) || qm.knowledgeBases === undefined ? (
        <p>{t("unrestricted")}</p>
      ) : !selections.length ? (
        <p>{t("nothing")}</p>
      ) : (
        <>
          <p>{t("onlyThese")}</p>
          <ul class="contact-knowledge">
            {selections.map((s) => (
              <li key={s.knowledgeBaseId}>
                <strong>{name(s.knowledgeBaseId)}</strong>: {scopeText(s)}
              </li>
            ))}
          </ul>
          {rule && <p>{t("labelRule", { rule: ruleText(rule, names.data ?? new Map()) })}</p>}
        </>
      )}
      {value && Object.keys(value).length > 0 && (
        <details class="contact-json">
          <summary>{t("asJson")}</summary>
          <pre>{JSON.stringify(value, null, 2)}</pre>
        </details>
      )}
    </>
  );
}
