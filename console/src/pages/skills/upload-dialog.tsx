import { UploadDialog as Upload, GroupPicker, FileField } from "../../components";
import { UPLOAD_PATH, type SkillUploadResult } from "./api";
import { t } from "./strings";

/** Uploads a skill package (.zip with SKILL.md), its progress shown as the bytes leave. */
export function UploadDialog({
  organizationId,
  onClose,
  onUploaded,
}: {
  organizationId: string;
  onClose: () => void;
  onUploaded: (r: SkillUploadResult) => void;
}) {
  return (
    <Upload
      title={t("uploadSkill")}
      progressLabel={t("uploading")}
      path={UPLOAD_PATH}
      organizationId={organizationId}
      onClose={onClose}
      onUploaded={(answer) => onUploaded(answer as SkillUploadResult)}
      fields={(problem) => (
        <>
          <FileField label={t("package")} accept=".zip,application/zip" hint={t("packageHint")} />
          <GroupPicker organizationId={organizationId} name="group" error={problem?.field("groups")} />
        </>
      )}
      // The upload takes its groups as one text part: ids separated by commas. The file stays last.
      prepare={(form) => {
        const groups = form.getAll("group").map(String);
        form.delete("group");
        const file = form.get("file");
        form.delete("file");
        if (groups.length) form.set("groups", groups.join(","));
        if (file) form.set("file", file);
      }}
    />
  );
}
