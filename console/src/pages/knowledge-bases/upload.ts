// One file's way into a knowledge base: a signed upload (components/upload.tsx), then attached to
// the knowledge base, which queues its ingestion.
import { uploadSigned } from "../../components";
import { attachFile, type KnowledgeBaseFile } from "./api";

/** Uploads and attaches one file; the record returned is queued for ingestion. */
export async function uploadToKnowledgeBase(
  knowledgeBaseId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<KnowledgeBaseFile> {
  const key = await uploadSigned(file, { modelName: "knowledge-base-file", fieldName: "file" }, onProgress);
  const [record] = await attachFile(knowledgeBaseId, key, file.name);
  return record;
}
