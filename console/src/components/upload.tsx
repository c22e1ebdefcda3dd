import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiProblem } from "../api/client";
import { type SignRequest, signUpload } from "./api";
import { TextField } from "./field";
import { FormDialog } from "./form-dialog";
import { t } from "./strings";
import { useSubmit } from "./use-submit";

/**
 * Sends `body` with XMLHttpRequest, because fetch cannot report an upload's progress: `onProgress`
 * gets 0..1 as the bytes leave. Resolves with the response's JSON (null when empty) when the status
 * is 2xx, rejects with an ApiProblem carrying the answer's `detail` and field errors otherwise.
 */
function send(
  method: string,
  url: string,
  body: FormData | File,
  options: {
    headers?: Record<string, string>;
    /** Sends the session cookie and this organization's header: for the API itself, not a signed target. */
    organizationId?: string | null;
    credentials?: boolean;
    onProgress: (share: number) => void;
    /** The problem's code when the answer names none. */
    failure: string;
  },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = options.credentials ?? false;
    if (options.organizationId) xhr.setRequestHeader("X-Organization-Id", options.organizationId);
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && options.onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiProblem(0, t("networkError"), "network_error"));
    xhr.onload = () => {
      let answer: { detail?: string; code?: string; errors?: Record<string, string[]> } | null = null;
      try {
        answer = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // The body is the server's (or a proxy's, or S3's XML) and may not be JSON: the status says what happened.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress(1);
        resolve(answer);
      } else
        reject(
          new ApiProblem(
            xhr.status,
            answer?.detail ?? (xhr.statusText || `HTTP ${xhr.status}`),
            answer?.code ?? options.failure,
            answer?.errors,
          ),
        );
    };
    xhr.send(body);
  });
}

/** Posts a multipart form to the API (the session's cookie and organization), with its progress. */
export function uploadForm(
  url: string,
  form: FormData,
  { organizationId, onProgress }: { organizationId?: string | null; onProgress: (share: number) => void },
): Promise<unknown> {
  return send("POST", url, form, { organizationId, credentials: true, onProgress, failure: "error" });
}

/**
 * A file's upload the way every client does it (CONTRACT section 10): signed by
 * `upload-presigned-url/` for `modelName` and `fieldName`, then sent as the signature says (a POST
 * policy's fields, the file last; or a PUT with its headers), its progress reported. The signature
 * is the only credential the target takes. Resolves with the stored key, which the record's own
 * request then names; any answer but 2xx, of the signing or of the upload, rejects with an ApiProblem.
 */
export async function uploadSigned(
  file: File,
  { modelName, fieldName }: Pick<SignRequest, "modelName" | "fieldName">,
  onProgress: (share: number) => void,
): Promise<string> {
  const target = await signUpload({ modelName, fieldName, filename: file.name, fileSize: file.size });
  if (target.method === "PUT") {
    await send("PUT", target.url, file, { headers: target.headers ?? {}, onProgress, failure: "upload_failed" });
  } else {
    const form = new FormData();
    for (const [name, value] of Object.entries(target.fields)) form.append(name, String(value));
    form.append("file", file);
    await send("POST", target.url, form, { onProgress, failure: "upload_failed" });
  }
  return String(target.fields.key);
}

/** An upload form's file: the required input named `file`, the part the upload endpoints read; `accept` its types. */
export function FileField(props: { label: string; accept: string; hint?: ComponentChildren; error?: string }) {
  // Spread, not destructured: a field given no `error` shows the form's problem at `file` (as TextField does).
  return <TextField {...props} name="file" type="file" required />;
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
  /** The submit button's text ("Upload" by default). */
  action?: string;
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
  action = t("upload"),
  progressLabel,
  path,
  organizationId,
  onClose,
  onUploaded,
  fields,
  prepare,
}: UploadDialogProps) {
  const [share, setShare] = useState<number | null>(null);
  const submitting = useSubmit(async (form) => {
    for (const [name, value] of [...form.entries()]) if (typeof value === "string" && !value.trim()) form.delete(name);
    prepare?.(form);
    setShare(0);
    try {
      onUploaded(await uploadForm(path, form, { organizationId, onProgress: setShare }));
      onClose();
    } catch (err) {
      setShare(null);
      throw err;
    }
  });
  return (
    // Busy from the first byte until the dialog closes.
    <FormDialog title={title} submit={action} submitting={{ ...submitting, busy: share !== null }} onClose={onClose}>
      {fields(submitting.problem)}
      <UploadProgress share={share} label={progressLabel} />
    </FormDialog>
  );
}
