// What a turn returns across the conversation object's boundary, and how a failed one is told.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "../../lib/errors";
import { ApiError } from "../../lib/errors";
import { modelApiError } from "../llm/errors";
import type { ConversationRow } from "../conversations";
import type { MessageRecord } from "../records/messages";
import { logError, logWarn } from "../../lib/log";

export interface TurnResult {
  incoming: MessageRecord;
  reply: MessageRecord | null;
  /** The conversation as the turn left it (but `updatedAt`), for its caller's next turn to start from. */
  conversation?: ConversationRow;
  /** Why there is no reply when the assistant failed (the visitor's message stays stored). */
  error?: TurnError;
}

export interface TurnError {
  status: number;
  code: ErrorCode;
  detail: string;
}

/**
 * A direct (not streamed) completion's answer: its conversation, the reply's text and record; the failure its turn
 * reported is thrown as the API error it names.
 */
export function completionAnswer({ reply, error }: TurnResult, conversationId: string) {
  if (error) throw new ApiError(error.status as ContentfulStatusCode, error.code, error.detail);
  return { conversationId, content: reply?.content ?? "", message: reply };
}

/** A failed turn as its caller reports it: the API error a provider failure maps to, else a logged 500. */
export function turnError(err: unknown, requestId?: string): TurnError {
  const mapped = modelApiError(err);
  if (mapped instanceof ApiError) {
    // The provider's failure, told to the client; this line lets its request id be traced.
    logWarn("reply failed", { requestId, code: mapped.code, detail: mapped.detail });
    return { status: mapped.status, code: mapped.code, detail: mapped.detail };
  }
  logError("reply failed", { requestId, error: String(err), stack: (err as Error)?.stack });
  return { status: 500, code: "server_error", detail: "The reply failed." };
}
