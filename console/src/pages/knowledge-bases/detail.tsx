import { ApiProblem } from "../../api/client";
import { ErrorAlert, Loading, Notice, PageHeader, useResource } from "../../components";
import { followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { getKnowledgeBase } from "./api";
import { FaqsSection } from "./faqs";
import { FilesSection } from "./files";
import { baseLink } from "./list";
import { SearchTester } from "./search";
import { SettingsSection } from "./settings-section";
import { t } from "./strings";
import { TextNodesSection } from "./text-nodes";

const TABS = {
  files: "tabFiles",
  faqs: "tabFaqs",
  "text-nodes": "tabTextNodes",
  search: "tabSearch",
  settings: "tabSettings",
} as const;
export type Tab = keyof typeof TABS;

/** One knowledge base: its sections as sub-pages (links, so each has its own address). */
export function KnowledgeBaseDetail({ id, tab, organizationId }: { id: string; tab: Tab; organizationId: string }) {
  const kb = useResource(() => getKnowledgeBase(id), [organizationId, id]);
  const back = (
    <p class="kb-back">
      <a href={baseLink("")} onClick={followLink}>
        ← {t("back")}
      </a>
    </p>
  );
  // A base that cannot be shown (not found: another organization's, or not given to the member's groups) still has
  // the page's one heading. None while loading: it would take the arrival's focus, then leave with it.
  if (!kb.data)
    return kb.error ? (
      <>
        {back}
        <PageHeader title={kb.error instanceof ApiProblem && kb.error.status === 404 ? t("notFound") : t("title")} />
        <ErrorAlert error={kb.error} />
      </>
    ) : (
      <Loading />
    );
  const base = kb.data;
  // The record says what this member may do with this base; the API decides each request anyway.
  const editable = base.canUpdate && can("knowledge_base.manage");
  const current: Tab = tab in TABS ? tab : "files";
  return (
    <>
      {back}
      <PageHeader title={base.name} />
      {base.description && <p class="muted">{base.description}</p>}
      {!editable && <Notice>{t("readOnly")}</Notice>}
      <nav class="kb-tabs" aria-label={t("sections")}>
        {(Object.keys(TABS) as Tab[]).map((key) => (
          <a
            key={key}
            href={baseLink(base.id, key)}
            onClick={followLink}
            aria-current={key === current ? "page" : undefined}
          >
            {t(TABS[key])}
          </a>
        ))}
      </nav>
      {current === "files" && <FilesSection kb={base} editable={editable} />}
      {current === "faqs" && <FaqsSection kb={base} editable={editable} />}
      {current === "text-nodes" && <TextNodesSection kb={base} editable={editable} />}
      {current === "search" && <SearchTester kb={base} />}
      {current === "settings" && (
        <SettingsSection kb={base} organizationId={organizationId} editable={editable} onSaved={kb.reload} />
      )}
    </>
  );
}
