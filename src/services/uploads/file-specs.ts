import type { Bindings } from "../../env";
import { ApiError, badRequest, notConfigured } from "../../lib/errors";
import { fileTypeOf, SUPPORTED_FILE_TYPES } from "../parsing";
import { ownValue } from "../../lib/json";

/** One field's rule, with the spec's snake_case keys (CONTRACT section 10). */
export interface FileSpec {
  content_types: string[];
  extensions: string[];
  max_size: number;
}
export type FileSpecs = Record<SpecKey, Record<string, FileSpec>>;

export const SPEC_KEYS = [
  "webChat",
  "organization",
  "attachment",
  "chatbotFile",
  "knowledgeBaseFile",
  "batchQa",
  "meetingRecord",
] as const;
export type SpecKey = (typeof SPEC_KEYS)[number];

const MiB = 1024 * 1024;
const IMAGE: Pick<FileSpec, "content_types" | "extensions"> = {
  content_types: ["image/jpeg", "image/png", "image/gif"],
  extensions: [".jpg", ".jpeg", ".png", ".gif"],
};
const KNOWLEDGE: FileSpec = {
  content_types: [...new Set(SUPPORTED_FILE_TYPES.flatMap((t) => t.contentTypes))],
  extensions: SUPPORTED_FILE_TYPES.flatMap((t) => t.extensions.map((e) => `.${e}`)),
  max_size: Math.max(...SUPPORTED_FILE_TYPES.map((t) => t.maxSize)),
};

/** The spec's example (web chat logo 5 MiB, avatar 2 MiB) and, for the other keys, what the service reads. */
export const DEFAULT_FILE_SPECS: FileSpecs = {
  webChat: { logo: { ...IMAGE, max_size: 5 * MiB }, avatar: { ...IMAGE, max_size: 2 * MiB } },
  organization: { compact_logo: { ...IMAGE, max_size: 5 * MiB }, full_logo: { ...IMAGE, max_size: 5 * MiB } },
  attachment: {
    file: {
      content_types: [
        "image/jpeg",
        "image/png",
        "image/gif",
        "image/webp",
        "audio/mpeg",
        "audio/mp4",
        "audio/wav",
        "audio/ogg",
        "audio/webm",
        "video/mp4",
        "video/webm",
        "video/quicktime",
        ...KNOWLEDGE.content_types,
      ],
      extensions: [
        ".jpg",
        ".jpeg",
        ".png",
        ".gif",
        ".webp",
        ".mp3",
        ".m4a",
        ".wav",
        ".ogg",
        ".weba",
        ".mp4",
        ".webm",
        ".mov",
        ...KNOWLEDGE.extensions,
      ],
      max_size: 20 * MiB,
    },
  },
  chatbotFile: { file: KNOWLEDGE },
  knowledgeBaseFile: { file: KNOWLEDGE },
  batchQa: {
    file: {
      content_types: ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
      extensions: [".csv", ".xlsx"],
      max_size: 10 * MiB,
    },
  },
  meetingRecord: {
    file: {
      content_types: ["audio/mpeg", "audio/mp4", "audio/wav", "audio/webm", "video/mp4", "video/webm"],
      extensions: [".mp3", ".m4a", ".wav", ".webm", ".mp4"],
      max_size: 200 * MiB,
    },
  },
};

/**
 * `modelName` of `upload-presigned-url/` -> allowed-file-specs key. A Map, as the name is the client's: looked up in a
 * plain object, "constructor" or "__proto__" would find Object.prototype's members.
 */
const MODEL_NAMES = new Map<string, SpecKey>([
  ["attachment", "attachment"],
  ["chatbot-file", "chatbotFile"],
  ["knowledge-base-file", "knowledgeBaseFile"],
  ["web-chat", "webChat"],
  ["organization", "organization"],
  ["batch-qa", "batchQa"],
  ["meeting-record", "meetingRecord"],
]);
export const MODEL_NAME_LIST = [...MODEL_NAMES.keys()];

/** `chatbot_file`, `chatbotFile` and `chatbot-file` all name the same model. */
export function specKeyOf(modelName: string): SpecKey | null {
  const kebab = modelName
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/_/g, "-")
    .toLowerCase();
  return MODEL_NAMES.get(kebab) ?? null;
}
export const canonicalModelName = (key: SpecKey) => [...MODEL_NAMES].find(([, k]) => k === key)![0];
/** `compactLogo` -> `compact_logo`. */
export const fieldKeyOf = (fieldName: string) =>
  fieldName
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();

const cache = new Map<string, FileSpecs>();

/** The defaults with ALLOWED_FILE_SPECS merged over them field by field; malformed is a 503 naming it. */
export function fileSpecs(env: Bindings): FileSpecs {
  const raw = env.ALLOWED_FILE_SPECS?.trim();
  if (!raw) return DEFAULT_FILE_SPECS;
  const hit = cache.get(raw);
  if (hit) return hit;
  const problem = (why: string) => notConfigured(`ALLOWED_FILE_SPECS is not valid: ${why}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw problem("not JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw problem(`expected an object keyed by ${SPEC_KEYS.join(", ")}`);
  const merged = structuredClone(DEFAULT_FILE_SPECS) as FileSpecs;
  for (const [key, fields] of Object.entries(parsed as Record<string, unknown>)) {
    if (!SPEC_KEYS.includes(key as SpecKey)) throw problem(`unknown key "${key}"`);
    if (!fields || typeof fields !== "object") throw problem(`"${key}" must be an object of fields`);
    for (const [field, spec] of Object.entries(fields as Record<string, Partial<FileSpec>>)) {
      const base = merged[key as SpecKey][field] ?? { content_types: [], extensions: [], max_size: 0 };
      const next = { ...base, ...spec };
      const ok =
        Array.isArray(next.content_types) &&
        Array.isArray(next.extensions) &&
        Number.isInteger(next.max_size) &&
        next.max_size >= 0;
      if (!ok) throw problem(`"${key}.${field}" needs content_types and extensions (arrays) and max_size (bytes)`);
      next.extensions = next.extensions.map((e) => (String(e).startsWith(".") ? String(e) : `.${e}`).toLowerCase());
      merged[key as SpecKey][field] = next as FileSpec;
    }
  }
  cache.set(raw, merged);
  return merged;
}

/** The rule for one model's field; unknown model or field is 400 naming the known ones. */
export function specFor(
  env: Bindings,
  modelName: string,
  fieldName: string,
): { key: SpecKey; field: string; spec: FileSpec } {
  const key = specKeyOf(modelName);
  if (!key)
    throw badRequest(`Unknown modelName "${modelName}"; one of: ${MODEL_NAME_LIST.join(", ")}.`, {
      modelName: ["Unknown model."],
    });
  const fields = fileSpecs(env)[key];
  const field = fieldKeyOf(fieldName);
  // Own fields only: the field name is the client's ("constructor" is no field).
  const spec = ownValue(fields as Record<string, FileSpec>, field);
  if (!spec)
    throw badRequest(`Unknown fieldName "${fieldName}" for ${modelName}; one of: ${Object.keys(fields).join(", ")}.`, {
      fieldName: ["Unknown field."],
    });
  return { key, field, spec };
}

export const extensionOf = (filename: string) => {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(dot).toLowerCase() : "";
};
export const mediaType = (contentType: string | null | undefined) =>
  (contentType ?? "").split(";")[0].trim().toLowerCase();

/** The content type a spec knows for this name's extension (the first of the family), else octet-stream. */
export function contentTypeFor(filename: string, spec?: FileSpec): string {
  const ext = extensionOf(filename).slice(1);
  const known: Record<string, string> = {
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    png: "image/png",
    gif: "image/gif",
    webp: "image/webp",
    mp3: "audio/mpeg",
    m4a: "audio/mp4",
    wav: "audio/wav",
    ogg: "audio/ogg",
    weba: "audio/webm",
    mp4: "video/mp4",
    webm: "video/webm",
    mov: "video/quicktime",
    xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  };
  const type = ownValue(known, ext); // the extension is the client's: "a.constructor" is no type
  if (type) return type;
  const doc = SUPPORTED_FILE_TYPES.find((t) => t.extensions.includes(ext));
  if (doc) return doc.contentTypes[0];
  return spec?.content_types[0] && !ext ? spec.content_types[0] : "application/octet-stream";
}

/**
 * Where a refusal is reported: the one field that carries a file sent, or, for a request that describes the file
 * in several fields (the presigned URL), the field of each part, so `errors` names the one that is wrong.
 */
export type FileFields = string | { filename: string; contentType: string; size: string };

/**
 * Checks a file against its spec. `bytesSent` says how a refusal is answered: 400 for a request to
 * upload (the presigned URL), 415 / 413 for bytes sent (CONTRACT section 2). Returns the largest size allowed.
 */
export function checkFile(
  spec: FileSpec,
  file: { filename: string; contentType?: string | null; size?: number | null },
  fields: FileFields,
  bytesSent: boolean,
  key?: SpecKey,
) {
  const at = typeof fields === "string" ? { filename: fields, contentType: fields, size: fields } : fields;
  const ext = extensionOf(file.filename);
  const type = mediaType(file.contentType);
  const extensionOk = spec.extensions.includes(ext);
  const typeOk = extensionOk && (!type || type === "application/octet-stream" || spec.content_types.includes(type));
  if (!typeOk) {
    // The type is named only when it is what is wrong: for a refused extension it may be one guessed from the name.
    const what = `"${file.filename}"${extensionOk ? ` (${type})` : ""}`;
    const detail =
      `${what} is not an allowed file type; allowed: ${spec.extensions.join(", ")} ` +
      `(${spec.content_types.join(", ")}).`;
    const errors = { [extensionOk ? at.contentType : at.filename]: ["File type not allowed."] };
    throw bytesSent ? new ApiError(415, "unsupported_media_type", detail, errors) : badRequest(detail, errors);
  }
  // A knowledge document is refused here at its type's own limit, not after it was uploaded, when it is parsed.
  const document = key === "knowledgeBaseFile" || key === "chatbotFile" ? documentTypeOf(file) : undefined;
  const max = Math.min(spec.max_size, document?.maxSize ?? Infinity);
  if (file.size != null && file.size > max) {
    const detail =
      `"${file.filename}" is ${file.size} bytes; at most ${max} bytes are allowed` +
      `${document && max < spec.max_size ? ` for ${document.fileType} files` : ""}.`;
    // The widget says the limit in the visitor's language from this field error's number (widget/src/refusals.ts).
    const errors = { [at.size]: [`At most ${max} bytes.`] };
    throw bytesSent ? new ApiError(413, "payload_too_large", detail, errors) : badRequest(detail, errors);
  }
  return max;
}

function documentTypeOf(file: { filename: string; contentType?: string | null }) {
  const fileType = fileTypeOf(file.filename, file.contentType);
  return SUPPORTED_FILE_TYPES.find((t) => t.fileType === fileType);
}
