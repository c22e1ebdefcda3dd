import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { badRequest } from "../../lib/errors";
import { dataParts } from "../../services/shards/parts";
import { authorize, withPermission } from "../../services/access";
import { completeDesktopCall, getRecordForRead } from "../../services/tools/execution-records";
import { toolExecutionRecord, ToolExecutionRecordSchema } from "../../services/records/tool-execution-records";
import { conversationObject } from "../../services/conversations";
import { DesktopResultBody, RECORDS_TAG } from "./schema";
import { logError } from "../../lib/log";
import { requireAssistantAnswers } from "../../services/assistant-refusal";

const route = createRoute({
  method: "post",
  path: "/tool-execution-records/{id}/result/",
  tags: [RECORDS_TAG],
  summary: "Post a desktop tool's result",
  description:
    "Needs `conversation.manage`, for a record the caller sees as `tool.view` would show it (calls of the tools " +
    "given to their groups). The desktop client ran a pending desktop tool call (contentPayload.pendingToolCalls " +
    "of the reply) and reports what it returned. Only pending records of desktop tools take a result (400 " +
    "otherwise). " +
    "When it is the last pending call of its reply, the assistant continues that reply in a new message " +
    "(asynchronously: " +
    "it appears in the message list and goes out through webhooks); otherwise the conversation's next message " +
    "reads the results. Once the plan's words of the month are used, or the plan has expired, that continuation is " +
    "refused as a message's answer is: 403 `permission_denied`, the result stored all the same (the record is no " +
    "longer pending).",
  request: { params: IdParams, ...jsonBody(DesktopResultBody) },
  responses: { 200: json(ToolExecutionRecordSchema, "The completed record"), ...errorResponses(400, 403, 404) },
});

export const registerDesktopResult = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await authorize(c, "conversation.manage");
    const parts = await dataParts(c.env, access.organizationId);
    // Which records a member sees follows `tool.view` (visibleRecordsCondition); answering a desktop call needs
    // `conversation.manage` instead, so the caller sees the calls of the tools given to their groups as a viewer does.
    const record = await getRecordForRead(
      c.env,
      db,
      parts,
      withPermission(access, "tool.view"),
      c.var.principal.userId,
      c.req.valid("param").id,
    );
    if (record.toolType !== "desktop" || record.status !== "pending")
      throw badRequest("Only a pending desktop tool call takes a result.");
    const body = c.req.valid("json");
    const status = body.status ?? (body.error ? "failure" : "success");
    const { row, lastOfReply } = await completeDesktopCall(parts, record, {
      status,
      output: body.output ?? null,
      error: body.error ?? null,
    });
    if (!row) throw badRequest("Only a pending desktop tool call takes a result.");
    if (!lastOfReply || !row.messageId || !row.conversationId) return c.json(toolExecutionRecord(row), 200);
    // The last result of a reply's desktop calls lets the reply continue. That is the assistant answering: without
    // words left this month, or on a lapsed plan, it is refused as a visitor's message's answer is, the result stored
    // all the same (a later message reads it). Otherwise the conversation's object takes the continuation as owed
    // (retried by its alarm) before this answers; should that call fail, the result stays stored as well.
    await requireAssistantAnswers(c.env, db, row.organizationId);
    await conversationObject(c.env, row.conversationId)
      .resume(row.organizationId, row.conversationId, row.messageId)
      .catch((err) =>
        logError("desktop tool results' continuation not taken by the conversation's object", {
          conversationId: row.conversationId,
          replyId: row.messageId,
          error: String(err),
        }),
      );
    return c.json(toolExecutionRecord(row), 200);
  });
