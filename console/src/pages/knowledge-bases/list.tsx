import { useState } from "preact/hooks";
import { ActionDialog, Button, PageHeader, toast, type Column } from "../../components";
import { formatTime } from "../../i18n";
import { BASE, followLink, navigate } from "../../shell/router";
import { can } from "../../shell/session";
import { listKnowledgeBases, type KnowledgeBase } from "./api";
import { FilterField, PagedTable, usePagedList } from "./parts";
import { SettingsForm } from "./settings-form";
import { t } from "./strings";

export const baseLink = (id: string, tab = "") => `${BASE}/knowledge-bases/${id}${tab ? `/${tab}` : ""}`;

/** The organization's knowledge bases (those the member may see), found by name, a page at a time. */
export function KnowledgeBaseList({ organizationId }: { organizationId: string }) {
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const bases = usePagedList((page, query) => listKnowledgeBases(page, query), [organizationId]);
  const columns: Column<KnowledgeBase>[] = [
    {
      label: t("name"),
      rowHeader: true,
      cell: (kb) => (
        <a href={baseLink(kb.id)} onClick={followLink}>
          {kb.name}
        </a>
      ),
    },
    { label: t("description"), class: "wrap", cell: (kb) => kb.description || "—" },
    { label: t("files"), cell: (kb) => kb.filesCount },
    { label: t("chunks"), cell: (kb) => kb.chunksCount },
    { label: t("embeddingModel"), cell: (kb) => kb.embeddingModel.name },
    { label: t("updated"), class: "nowrap", cell: (kb) => formatTime(kb.updatedAt) },
  ];
  return (
    <>
      <PageHeader
        title={t("title")}
        action={can("knowledge_base.manage") && { text: t("create"), run: () => setCreating(true) }}
      />
      <p class="muted">{t("intro")}</p>
      <div class="kb-toolbar">
        <FilterField label={t("find")} value={bases.query} onFilter={bases.filter} />
      </div>
      <h2 id="kb-list-title" class="sr-only">
        {t("title")}
      </h2>
      <PagedTable
        list={bases}
        empty={bases.query ? t("noneFound") : t("none")}
        labelledBy="kb-list-title"
        columns={columns}
      />
      {creating && (
        <ActionDialog
          title={t("createTitle")}
          open
          onClose={() => setCreating(false)}
          action={
            <Button type="submit" form="kb-create" variant="primary" busy={busy}>
              {t("createAction")}
            </Button>
          }
        >
          <SettingsForm
            formId="kb-create"
            organizationId={organizationId}
            onBusy={setBusy}
            onSaved={(kb) => {
              toast(t("created", { name: kb.name }));
              setCreating(false);
              navigate(`/knowledge-bases/${kb.id}`);
            }}
          />
        </ActionDialog>
      )}
    </>
  );
}
