import { useState } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { TextField } from "../../components/field";
import { ErrorAlert } from "../../components/alert";
import { UploadProgress, uploadForm } from "../../components/upload";
import { t as common } from "../../components/strings";
import { UPLOAD_PATH, type SkillUploadResult } from "./api";
import { t } from "./strings";

/** Uploads a skill package (.zip with SKILL.md), its progress shown as the bytes leave. */
export function UploadDialog({ organizationId, onClose, onUploaded }: { organizationId: string; onClose: () => void; onUploaded: (r: SkillUploadResult) => void }) {
  const [share, setShare] = useState<number | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setProblem(null);
    setShare(0);
    try {
      onUploaded((await uploadForm(UPLOAD_PATH, form, { organizationId, onProgress: setShare })) as SkillUploadResult);
      onClose();
    } catch (err) {
      setShare(null);
      setProblem(err as ApiProblem);
    }
  };
  return (
    <Dialog
      title={t("uploadSkill")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="skill-upload" variant="primary" busy={share !== null}>{t("upload")}</Button>
        </>
      }
    >
      <form id="skill-upload" onSubmit={submit} class="stack">
        <TextField label={t("package")} name="file" type="file" accept=".zip,application/zip" required hint={t("packageHint")} error={problem?.field("file")} />
        <UploadProgress share={share} label={t("uploading")} />
        {problem && !problem.field("file") && <ErrorAlert error={problem} />}
      </form>
    </Dialog>
  );
}
