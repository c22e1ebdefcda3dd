import { Notice, type Column, ResourceListPage, useCrudList, editDeleteColumn } from "../../components";
import { can } from "../../shell/session";
import type { PageProps } from "../types";
import { deleteCannedResponse, listCannedResponses, PAGE_SIZE, type CannedResponse } from "./api";
import { CannedForm } from "./canned-form";
import { t } from "./strings";

/** The organization's canned responses: what `/` offers in a conversation's reply box. */
export default function CannedResponsesPage({ organizationId }: PageProps) {
  const crud = useCrudList(listCannedResponses, [organizationId]);
  const manage = can("canned_response.manage");
  const columns: Column<CannedResponse>[] = [
    { label: t("shortCode"), rowHeader: true, cell: (c) => <code>/{c.shortCode}</code> },
    { label: t("content"), class: "wrap-text", cell: (c) => c.content },
  ];
  if (manage)
    columns.push(
      editDeleteColumn<CannedResponse>(t("actions"), crud, {
        edit: (c) => t("editNamed", { code: c.shortCode }),
        delete: (c) => t("deleteNamed", { code: c.shortCode }),
      }),
    );
  return (
    <ResourceListPage
      title={t("title")}
      action={manage && { text: t("create"), run: () => crud.setEditing("new") }}
      intro={t("intro")}
      notice={!manage && <Notice>{t("viewOnly")}</Notice>}
      search={{ label: t("search") }}
      crud={crud}
      labelledBy="canned-title"
      columns={columns}
      empty={crud.search ? t("noMatch") : t("none")}
      pageSize={PAGE_SIZE}
      form={(editing, close, saved) => <CannedForm editing={editing} onClose={close} onSaved={saved} />}
      saved={(c) => t("saved", { code: c.shortCode })}
      remove={{
        title: t("deleteTitle"),
        message: (c) => t("deleteMessage", { code: c.shortCode }),
        run: (c) => deleteCannedResponse(c.id),
        done: (c) => t("deleted", { code: c.shortCode }),
      }}
    />
  );
}
