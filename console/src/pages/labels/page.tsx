import { type Column, ResourceListPage, useCrudList, editDeleteColumn } from "../../components";
import { can } from "../../shell/session";
import { LabelChip } from "../conversations/labels";
import type { PageProps } from "../types";
import { PAGE_SIZE, deleteLabel, listLabels, type Label } from "./api";
import { LabelForm } from "./label-form";
import { t } from "./strings";

/** The organization's conversation labels: created, recoloured and deleted here, put on conversations in the inbox. */
export default function LabelsPage({ organizationId }: PageProps) {
  const crud = useCrudList(listLabels, [organizationId]);
  const manage = can("label.manage");
  const columns: Column<Label>[] = [
    { label: t("name"), rowHeader: true, cell: (l) => <LabelChip label={l} /> },
    { label: t("color"), cell: (l) => <code>{l.color}</code> },
    { label: t("description"), class: "wrap-text", cell: (l) => l.description || "—" },
    ...(manage
      ? [
          editDeleteColumn<Label>(t("actions"), crud, {
            edit: (l) => t("editNamed", { name: l.name }),
            delete: (l) => t("deleteNamed", { name: l.name }),
          }),
        ]
      : []),
  ];
  return (
    <ResourceListPage
      title={t("title")}
      action={manage && { text: t("newLabel"), run: () => crud.setEditing("new") }}
      intro={t("intro")}
      search={{ label: t("search") }}
      crud={crud}
      labelledBy="labels-title"
      columns={columns}
      empty={crud.search ? t("noMatch") : t("noLabels")}
      pageSize={PAGE_SIZE}
      form={(label, close, saved) => <LabelForm label={label} onClose={close} onSaved={saved} />}
      saved={(l, created) => t(created ? "created" : "saved", { name: l.name })}
      remove={{
        title: t("deleteLabel"),
        message: (l) => t("deleteMessage", { name: l.name }),
        run: (l) => deleteLabel(l.id),
        done: (l) => t("deleted", { name: l.name }),
      }}
    />
  );
}
