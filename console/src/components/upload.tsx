import { ApiProblem } from "../api/client";
import { t } from "./strings";

/**
 * Sends a multipart form with XMLHttpRequest, because fetch cannot report an upload's progress:
 * `onProgress` gets 0..1 as the bytes leave. Resolves with the response's JSON (null when empty),
 * rejects with an ApiProblem carrying the API's `detail` and field errors.
 */
export function uploadForm(url: string, form: FormData, { organizationId, onProgress }: { organizationId?: string | null; onProgress: (share: number) => void }): Promise<unknown> {
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
        // not JSON: the status text says what happened
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
