import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { authorize } from "../../services/access";
import { postDesktopResult } from "../../services/tools/desktop-results";
import { toolExecutionRecord, ToolExecutionRecordSchema } from "../../services/records/tool-execution-records";
import { DesktopResultBody, RECORDS_TAG } from "./schema";

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
    const access = await authorize(c, "conversation.manage");
    const parts = await dataParts(c.env, access.organizationId);
    const { id } = c.req.valid("param");
    const { db, principal } = c.var;
    const row = await postDesktopResult(c.env, db, parts, access, principal.userId, id, c.req.valid("json"));
    return c.json(toolExecutionRecord(row), 200);
  });
