import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { knowledgeBaseFiles, knowledgeBases } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { readAtMost } from "../../lib/http";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { fileTypeOf, SUPPORTED_FILE_TYPES, type FileType } from "../parsing";
import { objectPrefixOf } from "./content";
import { BUILT_IN_PARSER } from "./files";
import { checkFile, fileSpecs } from "../uploads/file-specs";
import { shownFilename } from "../uploads/store";
import { keyOfFile, knowledgeBaseFileOfUrl } from "../uploads/urls";
import { mayUseUpload, type UploadCaller } from "../uploads/usable";
import { getVisibleKnowledgeBase, visibleKnowledgeBasesCondition } from "./knowledge-bases";

/** A file to add to a knowledge base, read and checked, not yet stored. */
export interface Upload {
  filename: string;
  fileType: FileType;
  contentType: string;
  size: number;
  bytes: ArrayBuffer;
  parserId: string | null;
  /** The key of the object in storage it is copied from (an upload, or another knowledge base's file). */
  from?: string;
}

const FETCH_TIMEOUT_MS = 30_000;

/** What the parsers read, within the deployment's allowed-file-specs for knowledge base files (ALLOWED_FILE_SPECS). */
function checked(
  env: Bindings,
  field: string,
  filename: string,
  contentType: string,
  size: number,
): { fileType: FileType; contentType: string } {
  const fileType = fileTypeOf(filename, contentType);
  if (!fileType) {
    const known = SUPPORTED_FILE_TYPES.map((t) => `.${t.extension}`).join(", ");
    throw fieldError(field, `Unsupported file type for "${filename}"; supported: ${known}.`);
  }
  if (size === 0) throw fieldError(field, `"${filename}" is empty.`);
  // Within the spec's size and the file type's own (checkFile with the spec's key).
  checkFile(fileSpecs(env).knowledgeBaseFile.file, { filename, contentType, size }, field, true, "knowledgeBaseFile");
  const spec = SUPPORTED_FILE_TYPES.find((t) => t.fileType === fileType)!;
  return { fileType, contentType: contentType.split(";")[0].trim() || spec.contentTypes[0] };
}

/** A multipart `file` part. */
export async function readUpload(env: Bindings, file: File): Promise<Upload> {
  const filename = shownFilename(file.name);
  const { fileType, contentType } = checked(env, "file", filename, file.type, file.size);
  return {
    filename,
    fileType,
    contentType,
    size: file.size,
    bytes: await file.arrayBuffer(),
    parserId: BUILT_IN_PARSER.id,
  };
}

/** The files a JSON body's `files` name (fetchReference each), a refusal naming `files.<i>.file`. */
export const fetchReferences = (
  env: Bindings,
  db: Db,
  caller: UploadCaller,
  origin: string,
  refs: { file: string; filename: string; parser?: string | null }[],
): Promise<Upload[]> =>
  Promise.all(refs.map((ref, i) => fetchReference(env, db, caller, origin, ref, `files.${i}.file`)));

/**
 * A JSON reference: the key of an object the caller may read in the service's storage (uploads of the organization,
 * or a file of a knowledge base they can see), or an absolute URL of one (CONTRACT section 10: our object route on
 * `origin`, or R2's endpoint, or a knowledge base file's own `file` URL); any other http(s) URL is fetched under the
 * same SSRF rules as webhooks (no redirects followed).
 */
export async function fetchReference(
  env: Bindings,
  db: Db,
  caller: UploadCaller,
  origin: string,
  ref: { file: string; filename: string; parser?: string | null },
  field: string,
): Promise<Upload> {
  const filename = ref.filename.split(/[\\/]/).pop()!.trim();
  let bytes: ArrayBuffer;
  let contentType: string;
  // A link is fetched (its bytes new to the organization); anything else names an object already in storage.
  const named = knowledgeBaseFileOfUrl(origin, ref.file);
  const key = named ? await visibleFileKey(db, caller, named) : await keyOfFile(env, origin, ref.file);
  const fetched = !named && key === null && /^https?:\/\//i.test(ref.file);
  if (fetched) {
    const problem = webhookUrlProblem(ref.file, outboundAllowedHosts(env));
    if (problem) throw fieldError(field, problem);
    const res = await fetch(ref.file, { redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch(
      (err: Error) => {
        throw fieldError(field, `Could not fetch the file: ${err.message}`);
      },
    );
    if (res.status !== 200) throw fieldError(field, `Fetching the file answered HTTP ${res.status}.`);
    contentType = res.headers.get("Content-Type") ?? "";
    checked(env, field, filename, contentType, Number(res.headers.get("Content-Length") ?? 1));
    // Read no further than the largest file taken: a body of unknown length is not held whole to be refused.
    const read = await readAtMost(res.body, fileSpecs(env).knowledgeBaseFile.file.max_size + 1);
    bytes = read.bytes.buffer as ArrayBuffer;
  } else {
    if (key === null || !(await mayCopy(db, caller, key))) throw fieldError(field, "No uploaded object with this key.");
    const object = await env.FILES.get(key);
    if (!object) throw fieldError(field, "No uploaded object with this key.");
    contentType = object.httpMetadata?.contentType ?? "";
    bytes = await object.arrayBuffer();
  }
  const type = checked(env, field, filename, contentType, bytes.byteLength);
  const parserId = ref.parser ?? BUILT_IN_PARSER.id;
  return { filename, ...type, size: bytes.byteLength, bytes, parserId, from: key ?? undefined };
}

/**
 * Keys a caller may name: an upload of the organization they made or may see, or a file of a knowledge base they can
 * see. Anything else is answered as a key that does not exist: copied, it could be downloaded from their own base.
 */
async function mayCopy(db: Db, caller: UploadCaller, key: string): Promise<boolean> {
  const { access, userId } = caller;
  if (key.split("/").some((s) => s === "" || s === "." || s === "..")) return false;
  // The rule every route naming an upload by key follows (uploads/usable.ts).
  if (key.startsWith(`uploads/${access.organizationId}/`)) return mayUseUpload(caller, key);
  const kbId = /^knowledge-bases\/([0-9a-f-]{36})\//.exec(key)?.[1];
  if (!kbId || !key.startsWith(objectPrefixOf(kbId))) return false;
  return !!(await getVisibleKnowledgeBase(db, access, userId, kbId));
}

/** The object key of a knowledge base file named by its URL, when the caller can see its knowledge base; else null. */
async function visibleFileKey(
  db: Db,
  { access, userId }: UploadCaller,
  named: { knowledgeBaseId: string; fileId: string },
): Promise<string | null> {
  const [row] = await db
    .select({ objectKey: knowledgeBaseFiles.objectKey })
    .from(knowledgeBaseFiles)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId))
    .where(
      and(
        eq(knowledgeBaseFiles.id, named.fileId),
        eq(knowledgeBaseFiles.knowledgeBaseId, named.knowledgeBaseId),
        visibleKnowledgeBasesCondition(access, userId),
      ),
    );
  return row?.objectKey ?? null;
}
