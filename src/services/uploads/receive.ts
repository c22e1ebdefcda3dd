// Our own upload targets (docs/decisions.md, "Uploads: the POST target streams into R2"): the presigned POST and PUT
// targets and the direct upload. Each stores the file as it streams, bounded by its size limit and by the room the
// plan leaves, then counts it (countArrival): nothing is stored unless the whole file is.
import type { Bindings, Db } from "../../env";
import { ApiError, badRequest } from "../../lib/errors";
import { type OrgAccess, requirePermission } from "../access";
import { countArrival, countUpload, pastUploadBytes, requireUploadRoom, uploadRoom } from "./allowance";
import { canonicalModelName, checkFile, contentTypeFor, mediaType, specFor } from "./file-specs";
import { boundaryOf, MultipartError, MultipartReader } from "./multipart";
import { UPLOAD_PERMISSIONS } from "./presign";
import { signingCredentials, unattachedTtlMs } from "./settings";
import { PolicyError, verifyPostPolicy, verifyPresignedRequest } from "./signing";
import { bodyLengthOf, newUploadKey, shownFilename, TooLarge, unusedUploadOfKey, writePart } from "./store";

const OCTET_STREAM = "application/octet-stream";

/** The fields before the file part, by their names as `name` spells them, then the file part (null: none came). */
async function fieldsThenFile(reader: MultipartReader, name: (part: string) => string) {
  const fields = new Map<string, string>();
  for (let part = await reader.next(); part; part = await reader.next()) {
    if (name(part.name) === "file") return { fields, file: part };
    fields.set(name(part.name), await reader.text());
  }
  return { fields, file: null };
}

/**
 * Stores the file part `reader` is at under `key`, within `bounds` and the room the organization's plan leaves:
 * `pastUploadBytes` when the room is the bound it passed, `TooLarge` for `bounds`; its size once stored.
 */
async function writeWithinRoom(
  env: Bindings,
  data: Db,
  organizationId: string,
  file: { reader: MultipartReader; key: string; length: number | null; contentType: string },
  bounds: { min: number; max: number },
): Promise<number> {
  const room = await uploadRoom(env, organizationId, data);
  const max = room ? Math.min(bounds.max, room.left) : bounds.max;
  return writePart(env, file.reader, file.key, file.length, { min: bounds.min, max }, file.contentType).catch((err) => {
    if (err instanceof TooLarge && room && max < bounds.max && !tooSmall(err)) throw pastUploadBytes(room);
    throw err;
  });
}

const tooSmall = (err: TooLarge) => /least/.test(err.message);

/**
 * The Content-Type the policy bound (the client opted into one), else the presigned filename's; the
 * file part's own type (browsers send one, Python's requests none) only for an extension no table knows.
 */
function storedType(declared: string | null, ofFilename: string | null, ofPart: string | null): string {
  if (declared) return declared;
  if (ofFilename && ofFilename !== OCTET_STREAM) return ofFilename;
  return mediaType(ofPart) || OCTET_STREAM;
}

/**
 * The presigned POST target (S3 POST Object): the policy checked as S3 does before a byte is stored, S3's codes for
 * what it refuses. The stored object's key.
 */
export async function receivePostObject(env: Bindings, request: Request): Promise<string> {
  const contentType = request.headers.get("Content-Type") ?? "";
  const boundary = /^multipart\/form-data/i.test(contentType) ? boundaryOf(contentType) : null;
  if (!boundary || !request.body)
    throw new ApiError(
      400,
      "MalformedPOSTRequest",
      "The body of your POST request is not well-formed multipart/form-data.",
    );
  const creds = await signingCredentials(env);
  const reader = new MultipartReader(request.body, boundary);
  try {
    const { fields, file } = await fieldsThenFile(reader, (name) => name.toLowerCase());
    if (!file)
      throw new ApiError(
        400,
        "InvalidArgument",
        "POST requires exactly one file upload per request, as the last part, named `file`.",
      );
    const policy = await verifyPostPolicy(creds, fields).catch((err) => {
      throw err instanceof PolicyError ? new ApiError(err.status, err.code, err.message) : err;
    });
    const { upload, data } = await unusedUploadOfKey(env, policy.key);
    const size = await writeWithinRoom(
      env,
      data,
      upload.organizationId,
      {
        reader,
        key: policy.key,
        length: bodyLengthOf(request),
        contentType: storedType(policy.contentType, upload.contentType, file.contentType),
      },
      { min: policy.minSize, max: policy.maxSize },
    ).catch((err) => {
      if (!(err instanceof TooLarge)) throw err;
      const small = tooSmall(err);
      throw new ApiError(
        400,
        small ? "EntityTooSmall" : "EntityTooLarge",
        `Your proposed upload ${small ? "is smaller than the minimum" : "exceeds the maximum"} allowed size. ` +
          err.message,
      );
    });
    await countArrival(env, data, { organizationId: upload.organizationId, key: policy.key, size });
    return policy.key;
  } catch (err) {
    await reader.cancel();
    if (err instanceof MultipartError)
      throw new ApiError(
        400,
        "MalformedPOSTRequest",
        `The body of your POST request is not well-formed multipart/form-data: ${err.message}`,
      );
    throw err;
  }
}

/** The presigned PUT target: the signature checked as S3 does, then the raw body stored under `key`. Its ETag. */
export async function receivePutObject(env: Bindings, request: Request, key: string): Promise<string> {
  const refused = await verifyPresignedRequest(await signingCredentials(env), request);
  if (refused) throw new ApiError(refused.status, refused.code, refused.message);
  const { upload, data } = await unusedUploadOfKey(env, key);
  const length = bodyLengthOf(request);
  if (length === null || !request.body)
    throw new ApiError(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  if (length > upload.maxSize)
    throw new ApiError(
      400,
      "EntityTooLarge",
      `Your proposed upload exceeds the maximum allowed size of ${upload.maxSize} bytes.`,
    );
  // An empty file is refused, as the POST policy's content-length-range and attachments-upload/ refuse it.
  if (length === 0)
    throw new ApiError(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed size.");
  await requireUploadRoom(env, upload.organizationId, length, data);
  const contentType = mediaType(request.headers.get("Content-Type")) || upload.contentType || OCTET_STREAM;
  const object = await env.FILES.put(key, request.body, { httpMetadata: { contentType } });
  await countArrival(env, data, { organizationId: upload.organizationId, key, size: length });
  return object?.httpEtag ?? "";
}

/**
 * A file uploaded with the API key in one request (`attachments-upload/`): `modelName` and `fieldName` fields, then
 * the file, checked against its spec and the permission of its model before a byte is stored. The stored key.
 */
export async function receiveDirectUpload(
  env: Bindings,
  data: Db,
  access: OrgAccess,
  userId: string,
  request: Request,
): Promise<string> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType))
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Unsupported media type "${mediaType(contentType) || "none"}"; send multipart/form-data.`,
    );
  const boundary = boundaryOf(contentType);
  if (!boundary || !request.body) throw badRequest("Malformed multipart body: no boundary.", undefined, "parse_error");
  const reader = new MultipartReader(request.body, boundary);
  try {
    const { fields, file } = await fieldsThenFile(reader, (name) =>
      name.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase()),
    );
    const {
      key: specKey,
      field,
      spec,
    } = specFor(env, fields.get("modelName") || "attachment", fields.get("fieldName") || "file");
    requirePermission(access, UPLOAD_PERMISSIONS[specKey]);
    if (!file || file.filename === null)
      throw badRequest("Invalid request. file: Required (a file part).", { file: ["Required"] });
    const filename = shownFilename(file.filename);
    const type = mediaType(file.contentType) || contentTypeFor(filename, spec);
    const length = bodyLengthOf(request);
    const declared = length !== null ? Math.max(0, length - reader.position - reader.closingLength) : null;
    const maxSize = checkFile(spec, { filename, contentType: type, size: declared }, "file", true, specKey);
    const modelName = canonicalModelName(specKey);
    const key = newUploadKey(access.organizationId, modelName, filename);
    const stored = type === OCTET_STREAM ? contentTypeFor(filename, spec) : type;
    const size = await writeWithinRoom(
      env,
      data,
      access.organizationId,
      { reader, key, length, contentType: stored },
      { min: 1, max: maxSize },
    ).catch((err) => {
      if (!(err instanceof TooLarge)) throw err;
      if (tooSmall(err))
        throw badRequest("Invalid request. file: The file is empty.", { file: ["The file is empty."] });
      throw new ApiError(413, "payload_too_large", `"${filename}" is too large: ${err.message}`, {
        file: [`At most ${maxSize} bytes.`],
      });
    });
    const ttl = unattachedTtlMs(env);
    const now = Date.now();
    await countUpload(env, data, [
      {
        key,
        organizationId: access.organizationId,
        modelName,
        fieldName: field,
        filename,
        contentType: stored,
        maxSize,
        size,
        createdBy: userId,
        uploadedAt: now,
        expiresAt: ttl === null ? null : now + ttl,
        createdAt: now,
      },
    ]);
    return key;
  } catch (err) {
    await reader.cancel();
    if (err instanceof MultipartError)
      throw badRequest(`Malformed multipart body - ${err.message}`, undefined, "parse_error");
    throw err;
  }
}
