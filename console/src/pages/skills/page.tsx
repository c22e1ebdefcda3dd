import { useState } from "preact/hooks";
import {
  toast,
  type Column,
  ResourceListPage,
  useCrudList,
  actionsColumn,
  editAction,
  deleteAction,
} from "../../components";
import { can } from "../../shell/session";
import type { PageProps } from "../types";
import { deleteSkill, listSkills, type SkillItem } from "./api";
import { SkillDialog } from "./skill-dialog";
import { SkillForm } from "./skill-form";
import { UploadDialog } from "./upload-dialog";
import { t } from "./strings";

/** Skills: packages of instructions and files an agent loads when a question calls for them. */
export default function SkillsPage({ organizationId }: PageProps) {
  const crud = useCrudList(listSkills, [organizationId]);
  const manage = can("skill.manage");
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const columns: Column<SkillItem>[] = [
    { label: t("name"), rowHeader: true, cell: (s) => s.name },
    { label: t("description"), class: "wrap-text", cell: (s) => s.description },
    { label: t("source"), cell: (s) => t(s.source === "upload" ? "sourceUpload" : "sourceManual") },
    { label: t("resources"), cell: (s) => s.resources.length },
    { label: t("attachedTools"), cell: (s) => s.attachedTools.map((a) => a.displayName).join(", ") || "—" },
    { label: t("groupsColumn"), cell: (s) => s.groups.map((g) => g.name).join(", ") || "—" },
    actionsColumn<SkillItem>(t("actions"), [
      { text: t("view"), named: (s) => t("viewNamed", { name: s.name }), run: (s) => setViewing(s.id) },
      manage &&
        editAction(
          (s) => t("editNamed", { name: s.name }),
          (s) => setEditing(s.id),
          (s) => s.canUpdate,
        ),
      manage &&
        deleteAction(
          (s) => t("deleteNamed", { name: s.name }),
          crud.setDeleting,
          (s) => s.canDelete,
        ),
    ]),
  ];
  return (
    <ResourceListPage
      title={t("title")}
      action={manage && { text: t("uploadSkill"), run: () => setUploading(true) }}
      intro={t("intro")}
      introId="skills-intro"
      crud={crud}
      labelledBy="skills-title"
      columns={columns}
      empty={t("noSkills")}
      pageSize={20}
      remove={{
        title: t("deleteSkill"),
        message: (s) => t("deleteMessage", { name: s.name }),
        run: (s) => deleteSkill(s.id),
        done: (s) => t("deleted", { name: s.name }),
      }}
    >
      {uploading && (
        <UploadDialog
          organizationId={organizationId}
          onClose={() => setUploading(false)}
          onUploaded={(r) => {
            toast(t("uploaded", { name: r.name, message: r.message }));
            crud.list.reload();
          }}
        />
      )}
      {viewing && <SkillDialog id={viewing} onClose={() => setViewing(null)} />}
      {editing && (
        <SkillForm
          id={editing}
          organizationId={organizationId}
          onClose={() => setEditing(null)}
          onSaved={(s) => {
            toast(t("saved", { name: s.name }));
            crud.list.reload();
          }}
        />
      )}
    </ResourceListPage>
  );
}
