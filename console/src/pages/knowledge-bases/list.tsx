import { useState } from "preact/hooks";
import { ActionDialog, Button, ResourceListPage, toast, useCrudList, type Column } from "../../components";
import { formatTime } from "../../i18n";
import { BASE, followLink, navigate } from "../../shell/router";
import { can } from "../../shell/session";
import { listKnowledgeBases, PAGE_SIZE, type KnowledgeBase } from "./api";
import { SettingsForm } from "./settings-form";
import { t } from "./strings";

export const baseLink = (id: string, tab = "") => `${BASE}/knowledge-bases/${id}${tab ? `/${tab}` : ""}`;

/** The organization's knowledge bases (those the member may see), found by name, a page at a time. */
export function KnowledgeBaseList({ organizationId }: { organizationId: string }) {
  const [busy, setBusy] = useState(false);
  const crud = useCrudList(listKnowledgeBases, [organizationId]);
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
    <ResourceListPage
      title={t("title")}
      action={can("knowledge_base.manage") && { text: t("create"), run: () => crud.setEditing("new") }}
      intro={t("intro")}
      search={{ label: t("find") }}
      crud={crud}
      labelledBy="kb-list-title"
      columns={columns}
      empty={crud.search ? t("noneFound") : t("none")}
      pageSize={PAGE_SIZE}
    >
      {crud.editing === "new" && (
        <ActionDialog
          title={t("createTitle")}
          open
          onClose={() => crud.setEditing(null)}
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
              crud.setEditing(null);
              navigate(`/knowledge-bases/${kb.id}`);
            }}
          />
        </ActionDialog>
      )}
    </ResourceListPage>
  );
}
