// The spreadsheet a new batch QA run reads: an upload named by its key (or its URL on this service).
import type { Bindings } from "../../env";
import { fieldError } from "../../lib/errors";
import { checkFile, fileSpecs } from "../uploads/file-specs";
import { keyOfFile } from "../uploads/urls";
import { mayUseUpload, type UploadCaller } from "../uploads/usable";
import { parseQuestions, type QaRow } from "./parse";

/** The run's file: its key, the name it is shown by, and its questions. */
export interface BatchQaFile {
  key: string;
  filename: string;
  rows: QaRow[];
}

/**
 * Reads the upload `body.file` names, within the `batchQa` file spec. Only an upload the caller may use is read
 * (uploads/usable.ts): the run's answers and its export show the file's questions, so any key of the organization
 * let a member read a visitor's attachment, or another member's upload, through a run. Any other key is answered as
 * one of nothing.
 */
export async function readBatchQaFile(
  env: Bindings,
  caller: UploadCaller,
  origin: string,
  body: { file: string; filename?: string },
): Promise<BatchQaFile> {
  const key = await keyOfFile(env, origin, body.file);
  const object = key && (await mayUseUpload(caller, key)) ? await env.FILES.get(key) : null;
  if (!key || !object) throw fieldError("file", "No uploaded object of your organization with this key.");
  const filename = body.filename ?? key.split("/").pop()!;
  checkFile(
    fileSpecs(env).batchQa.file,
    { filename, contentType: object.httpMetadata?.contentType ?? null, size: object.size },
    "file",
    true,
  );
  return { key, filename, rows: parseQuestions(filename, await object.arrayBuffer()) };
}
