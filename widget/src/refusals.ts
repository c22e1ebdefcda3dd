// What the API's refusals mean to the visitor, in the widget's language. The API's `detail` is English
// (CONTRACT section 2: a human-readable `detail` beside a stable `code`), so the widget says what it
// knows by `code`, status and a 400's field errors in its own words; the `detail` is kept only for a
// refusal it has no words for (docs/decisions.md, "Widget defaults").
import { ApiError } from "./api";
import { language, t, type TextKey } from "./i18n";
import type { NetworkError, StreamEnded } from "./sse";

const fieldOf = (err: ApiError, prefix: string) => Object.keys(err.fields).some((f) => f.startsWith(prefix));

/**
 * Why a visitor's message was not sent: a text of the widget's (with the API's own words for a refusal it has none
 * for), kept with a message refused for good so that a reload says it again in the widget's language.
 */
export interface Reason {
  key: TextKey;
  detail?: string;
}

/** A reason in the visitor's words. */
export const say = (r: Reason) => t(r.key, r.detail === undefined ? undefined : { reason: r.detail });

/** Why a visitor's message was not sent. */
export function unsentReason(err: ApiError | NetworkError | StreamEnded): Reason {
  const key = (k: TextKey): Reason => ({ key: k });
  if (!(err instanceof ApiError)) return key("notSentOffline");
  const { status, code } = err;
  if (code === "timeout") return key("notSentTimeout");
  if (status === 429) return key("notSentTooMany");
  if (status === 401) return key("notSentExpired");
  if (code === "web_chat_inactive") return key("notSentClosed");
  if (code === "file_upload_disabled") return key("notSentNoFiles");
  // The conversation is not the visitor's any more (removed by the team), or the web chat is gone.
  if (status === 404) return key("notSentGone");
  // A send cut short on our side may have been stored: sent again it could be there twice.
  if (code === "idempotency_unfinished") return key("notSentUnsure");
  // A file sent with it is not one the visitor uploaded here, or no longer there (the upload was cleaned up).
  if (status === 400 && fieldOf(err, "attachments")) return key("notSentFile");
  if (status === 413 || (status === 400 && fieldOf(err, "content"))) return key("notSentTooLong");
  if (status >= 500 || code === "idempotency_in_progress") return key("notSentServer");
  if (status >= 400) return { key: "notSentRefused", detail: err.message };
  return key("notSentOffline");
}

/**
 * Whether the same message sent again may be taken: what stood in its way was the connection, the time, the load or
 * the session, not the message or the conversation. Such a failure holds the messages written after it (see `next`
 * in stream.ts); one a retry cannot mend lets them go on.
 */
export function retryMayMend(err: ApiError | NetworkError | StreamEnded): boolean {
  if (!(err instanceof ApiError)) return true;
  const { status, code } = err;
  return status === 0 || status === 401 || status === 429 || status >= 500 || code === "idempotency_in_progress";
}

/**
 * Whether work the page does by itself (starting the session, reading a conversation) may succeed when done again a
 * moment later: as `retryMayMend`, but a refused token (401) is not mended by the same request again, and trying it
 * every 30 s for good would be all the page did.
 */
export const laterMayMend = (err: ApiError | NetworkError | StreamEnded) =>
  retryMayMend(err) && !(err instanceof ApiError && err.status === 401);

/** A number of bytes as the visitor's language writes it ("5 MB"). */
function size(bytes: number): string {
  const [n, unit] = bytes >= 1 << 20 ? [bytes / (1 << 20), "megabyte"] : [bytes / 1024, "kilobyte"];
  return new Intl.NumberFormat(language(), { style: "unit", unit, maximumFractionDigits: 1 }).format(n);
}

/**
 * Why a picked file was not uploaded, short enough for its chip; null when the widget has no words for it (the
 * caller says "not allowed" and keeps the API's `detail`). Too large names the limit: the number of bytes the
 * 400's `fileSize` field error gives (`At most <bytes> bytes.`); the storage's own refusal (`EntityTooLarge`) names
 * none. A 403 `permission_denied` is the organization's plan: its upload bytes are used.
 */
export function uploadProblem(err: ApiError): string | null {
  const max = Number(/\d+/.exec(err.fields.fileSize?.[0] ?? "")?.[0]);
  if (max) return t("fileTooLarge", { max: size(max) });
  if (err.code === "EntityTooLarge") return t("fileTooLargeHere");
  if (err.status === 403 && err.code === "permission_denied") return t("fileNoRoom");
  if (err.status === 415 || err.fields.filename || err.fields.contentType) return t("fileType");
  if (err.code === "file_upload_disabled") return t("fileNotTaken");
  return null;
}
