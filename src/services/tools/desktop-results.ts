// A desktop tool's result, posted by the desktop client that ran a pending call (desktop-tool.ts): stored on the
// call's record; the last result of a reply's desktop calls lets the reply continue.
import type { Bindings, Db } from "../../env";
import { badRequest } from "../../lib/errors";
import { logError } from "../../lib/log";
import { type OrgAccess, withPermission } from "../access";
import { requireAssistantAnswers } from "../assistant-refusal";
import { conversationObject } from "../conversations";
import { completeDesktopCall, getRecordForRead, type ToolExecutionRow } from "./execution-records";

/** What the client reports: `status` by default failure when `error` is set, else success. */
export interface DesktopResult {
  output?: unknown;
  error?: string | null;
  status?: "success" | "failure" | "timeout";
}

const NOT_PENDING = "Only a pending desktop tool call takes a result.";

/**
 * Stores the result of the desktop call `id` (400 unless it is a pending desktop call) and returns its record. Which
 * records a member sees follows `tool.view` (visibleRecordsCondition); answering a desktop call needs
 * `conversation.manage` instead, so the caller sees the calls of the tools given to their groups as a viewer does.
 */
export async function postDesktopResult(
  env: Bindings,
  db: Db,
  parts: Db[],
  access: OrgAccess,
  userId: string,
  id: string,
  result: DesktopResult,
): Promise<ToolExecutionRow> {
  const record = await getRecordForRead(env, db, parts, withPermission(access, "tool.view"), userId, id);
  if (record.toolType !== "desktop" || record.status !== "pending") throw badRequest(NOT_PENDING);
  const status = result.status ?? (result.error ? "failure" : "success");
  const { row, lastOfReply } = await completeDesktopCall(parts, record, {
    status,
    output: result.output ?? null,
    error: result.error ?? null,
  });
  if (!row) throw badRequest(NOT_PENDING);
  if (!lastOfReply || !row.messageId || !row.conversationId) return row;
  // The last result of a reply's desktop calls lets the reply continue. That is the assistant answering: without
  // words left this month, or on a lapsed plan, it is refused as a visitor's message's answer is, the result stored
  // all the same (a later message reads it). Otherwise the conversation's object takes the continuation as owed
  // (retried by its alarm) before this answers; should that call fail, the result stays stored as well.
  await requireAssistantAnswers(env, db, row.organizationId);
  await conversationObject(env, row.conversationId)
    .resume(row.organizationId, row.conversationId, row.messageId)
    .catch((err) =>
      logError("desktop tool results' continuation not taken by the conversation's object", {
        conversationId: row.conversationId,
        replyId: row.messageId,
        error: String(err),
      }),
    );
  return row;
}
