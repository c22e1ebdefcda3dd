// One file's way into a knowledge base: signed by `upload-presigned-url/` (CONTRACT section 10),
// sent with XMLHttpRequest (fetch reports no upload progress), then attached to the knowledge base,
// which queues its ingestion.
import { ApiProblem } from "../../api/client";
import { attachFile, presign, type KnowledgeBaseFile } from "./api";

/** Sends `file` as the signature says (POST policy: every field, the file last; or PUT), reporting progress 0..1. */
function send(
  file: File,
  target: Awaited<ReturnType<typeof presign>>,
  onProgress: (fraction: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(target.method ?? "POST", target.url);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let detail = `HTTP ${xhr.status}`;
      try {
        detail = (JSON.parse(xhr.responseText) as { detail?: string }).detail ?? detail;
      } catch {
        /* S3 answers XML */
      }
      reject(new ApiProblem(xhr.status, detail, "upload_failed"));
    };
    xhr.onerror = () => reject(new ApiProblem(0, "network", "network_error"));
    if (target.method === "PUT") {
      for (const [k, v] of Object.entries(target.headers ?? {})) xhr.setRequestHeader(k, String(v));
      xhr.send(file);
    } else {
      const form = new FormData();
      for (const [k, v] of Object.entries(target.fields)) form.append(k, String(v));
      form.append("file", file);
      xhr.send(form);
    }
  });
}

/** Uploads and attaches one file; the record returned is queued for ingestion. */
export async function uploadToKnowledgeBase(
  knowledgeBaseId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<KnowledgeBaseFile> {
  const target = await presign(file);
  await send(file, target, onProgress);
  onProgress(1);
  const [record] = await attachFile(knowledgeBaseId, String(target.fields.key), file.name);
  return record;
}
