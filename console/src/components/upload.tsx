import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import { ApiProblem, problemOf } from "../api/client";
import { FormError } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { t } from "./strings";

/**
 * Sends a multipart form with XMLHttpRequest, because fetch cannot report an upload's progress:
 * `onProgress` gets 0..1 as the bytes leave. Resolves with the response's JSON (null when empty),
 * rejects with an ApiProblem carrying the API's `detail` and field errors.
 */
export function uploadForm(
  url: string,
  form: FormData,
  { organizationId, onProgress }: { organizationId?: string | null; onProgress: (share: number) => void },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    if (organizationId) xhr.setRequestHeader("X-Organization-Id", organizationId);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiProblem(0, t("networkError"), "network_error"));
    xhr.onload = () => {
      let body: { detail?: string; code?: string; errors?: Record<string, string[]> } | null = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // The body is the server's (or a proxy's) and may not be JSON: the status text says what happened.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body);
      } else reject(new ApiProblem(xhr.status, body?.detail ?? xhr.statusText, body?.code ?? "error", body?.errors));
    };
    xhr.send(form);
  });
}

/** An upload's progress as a labelled progress bar, with its percentage as text. */
export function UploadProgress({ share, label }: { share: number | null; label: string }) {
  if (share === null) return null;
  const percent = Math.round(share * 100);
  return (
    <div class="upload-progress">
      <label>
        {label}
        <progress max={100} value={percent} aria-valuetext={`${percent}%`} />
      </label>
      <span aria-hidden="true">{percent}%</span>
    </div>
  );
}

interface UploadDialogProps {
  title: string;
  /** The submit button's text. */
  action: string;
  progressLabel: string;
  /** Where the form is posted (multipart). */
  path: string;
  organizationId: string;
  onClose: () => void;
  onUploaded: (answer: unknown) => void;
  /** The form's fields (a file input named `file`, ...), given the API's problem for their errors. */
  fields: (problem: ApiProblem | null) => ComponentChildren;
  /** Changes the form data before it is sent (fields the endpoint takes in another shape). */
  prepare?: (form: FormData) => void;
}

/** A dialog whose form is uploaded with its progress shown; empty text fields are left out. */
export function UploadDialog({
  title,
  action,
  progressLabel,
  path,
  organizationId,
  onClose,
  onUploaded,
  fields,
  prepare,
}: UploadDialogProps) {
  const [share, setShare] = useState<number | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const formId = useId();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    for (const [name, value] of [...form.entries()]) if (typeof value === "string" && !value.trim()) form.delete(name);
    prepare?.(form);
    setProblem(null);
    setShare(0);
    try {
      onUploaded(await uploadForm(path, form, { organizationId, onProgress: setShare }));
      onClose();
    } catch (err) {
      setShare(null);
      setProblem(problemOf(err));
    }
  };
  return (
    <Dialog
      title={title}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button type="submit" form={formId} variant="primary" busy={share !== null}>
            {action}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} class="stack">
        <FormError problem={problem} />
        {fields(problem)}
        <UploadProgress share={share} label={progressLabel} />
      </form>
    </Dialog>
  );
}
