import type { Bindings, Db } from "../../env";
import { uploads } from "../../db/schema";
import type { Permission } from "../permissions";
import { requireUploadRoom } from "./allowance";
import { canonicalModelName, checkFile, contentTypeFor, mediaType, specFor, type SpecKey } from "./file-specs";
import { presignMethod, signingCredentials, unattachedTtlMs, UPLOAD_URL_TTL_SECONDS } from "./settings";
import { presignUrl, signPostPolicy } from "./signing";
import { newUploadKey } from "./store";
import { objectUrl, OBJECT_PATH } from "./urls";

/** Who may upload for which model. */
export const UPLOAD_PERMISSIONS: Record<SpecKey, Permission> = {
  attachment: "conversation.manage",
  meetingRecord: "conversation.manage",
  chatbotFile: "knowledge_base.manage",
  knowledgeBaseFile: "knowledge_base.manage",
  batchQa: "knowledge_base.manage",
  webChat: "inbox.manage",
  organization: "organization.manage",
};

export interface PresignRequest {
  organizationId: string;
  /** Who asks (the upload's `createdBy`): a user id, or `contact:<id>` for a web chat visitor (see
   * services/widget/uploads.ts). */
  userId: string;
  origin: string;
  modelName: string;
  fieldName: string;
  filename: string;
  fileSize: number;
  /** Opt-in: the upload must declare this Content-Type (a policy condition and a form field). Absent: none is asked
   * for. */
  contentType?: string;
}

export type PresignedUpload =
  | { url: string; fields: Record<string, string>; method: "POST" }
  | { url: string; fields: { key: string }; method: "PUT"; headers: Record<string, string> };

/** The spec the request names, checked (400 naming the rule) before anything is signed. */
export function presignSpec(
  env: Bindings,
  input: Pick<PresignRequest, "modelName" | "fieldName" | "filename" | "fileSize" | "contentType">,
) {
  const found = specFor(env, input.modelName, input.fieldName);
  const declared = mediaType(input.contentType);
  const contentType = declared || contentTypeFor(input.filename, found.spec);
  // A type found from the name is the name's fault; only a type the client declared is its own field's.
  const fields = { filename: "filename", contentType: declared ? "contentType" : "filename", size: "fileSize" };
  checkFile(found.spec, { filename: input.filename, contentType, size: input.fileSize }, fields, false, found.key);
  return { ...found, contentType, declared: declared || null };
}

/**
 * Issues an upload: an unguessable key under the organization and model, remembered (so the cleanup
 * removes it if never attached) and signed as an S3 POST policy (default) or a presigned PUT. The
 * stored object's content type is the filename's (kept with the upload), so the POST policy asks the
 * client for no Content-Type field unless the client asked to declare one (`contentType`).
 * POST always targets our own verifying target, which writes to R2 through the binding: R2's S3 API
 * does not accept POST policy uploads. PUT goes to R2 itself when its credentials are configured.
 * A file that would take the organization past its plan's upload bytes is refused (403) before anything is written;
 * our own targets check again as the bytes are stored; what goes to R2 itself is counted when first named
 * (countArrival).
 */
export async function presignUpload(env: Bindings, data: Db, input: PresignRequest): Promise<PresignedUpload> {
  const { key: specKey, field, spec, contentType, declared } = presignSpec(env, input);
  await requireUploadRoom(env, input.organizationId, input.fileSize, data);
  const method = presignMethod(env);
  const creds = await signingCredentials(env);
  const modelName = canonicalModelName(specKey);
  const key = newUploadKey(input.organizationId, modelName, input.filename);
  const maxSize = Math.min(input.fileSize, spec.max_size);
  const ttl = unattachedTtlMs(env);
  const now = Date.now();
  await data.insert(uploads).values({
    key,
    organizationId: input.organizationId,
    modelName,
    fieldName: field,
    filename: input.filename,
    contentType,
    maxSize,
    createdBy: input.userId,
    expiresAt: ttl === null ? null : now + Math.max(ttl, UPLOAD_URL_TTL_SECONDS * 1000),
    createdAt: now,
  });
  if (method === "PUT") {
    const headers = { "Content-Type": contentType };
    const url = await presignUrl(
      creds,
      "PUT",
      objectUrl(creds, input.origin, key),
      UPLOAD_URL_TTL_SECONDS,
      headers,
      new Date(now),
    );
    return { url, fields: { key }, method: "PUT", headers };
  }
  const fields = await signPostPolicy(creds, {
    key,
    contentType: declared ?? undefined,
    // An empty file is refused, as attachments-upload/ and knowledge base files refuse it.
    minSize: 1,
    maxSize,
    expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
    now: new Date(now),
  });
  return { url: `${input.origin}${OBJECT_PATH}`, fields, method: "POST" };
}
